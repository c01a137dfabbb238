"""The app's own words for what Django's fields and validators would say (issue 50): every refusal
a person can meet on a page is said as the app says things, in both languages, never Django's
« Saisissez une adresse de courriel valide. » beside a page that says e-mail, nor "Ensure this
value is less than or equal to 1440." A form takes them by inheriting ``OwnWords`` first: each
field keeps the words its form gives it (``error_messages=``), and takes these wherever it still
has Django's. Django looks a refusal up by its code (a validator's too: ``max_value``,
``null_characters_not_allowed``…), so these are keyed by code, and by kind of field where one
code says different things ("invalid": a number, a date, an e-mail address)."""

from __future__ import annotations

import functools

from django import forms
from django.utils.translation import gettext_lazy as _

# A refusal's words by its code, for every kind of field.
BY_CODE = {
    "required": _("This one is needed."),
    "max_value": _("At most %(limit_value)s."),
    "min_value": _("At least %(limit_value)s."),
    "max_length": _("At most %(limit_value)d characters: this has %(show_value)d."),
    "min_length": _("At least %(limit_value)d characters: this has %(show_value)d."),
    "invalid_choice": _("Choose one of the list."),
    "null_characters_not_allowed": _("This cannot hold a null character: type it again without it."),
    "missing": _("No file came with the form: choose the file again."),
    "contradiction": _("Choose a file, or none."),
}
# "invalid", by the kind of field that says it (the first of a field's classes listed here).
INVALID_BY_FIELD = (
    (forms.IntegerField, _("Type a whole number, such as 12.")),
    (forms.DateField, _("Choose a day from the calendar.")),
    (forms.EmailField, _("Type an e-mail address, such as ann@example.com.")),
    (forms.FileField, _("No file came with the form: choose the file again.")),
)
# A form's own refusals (Django's password forms), by code.
FORM_BY_CODE = {
    "password_mismatch": _("The two passwords differ: type the same one twice."),
    "password_incorrect": _("That is not your current password: type it again."),
    "inactive": _("This account is switched off."),
}


class OwnWords:
    """A form whose every refusal is in the app's words (this module's), where Django's would be."""

    fields: dict[str, forms.Field]  # (the form's, as Django's forms have them)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        errors = getattr(self, "error_messages", None)
        if errors is not None:
            self.error_messages = {**errors, **{code: FORM_BY_CODE[code] for code in errors if code in FORM_BY_CODE}}
        for field in self.fields.values():
            with_own_words(field)


def with_own_words(field: forms.Field) -> forms.Field:
    """``field``, its refusals in this module's words where it has Django's (for a field a form
    adds after its ``__init__``: ``OwnWords`` has given the others theirs)."""
    field.error_messages = {**field.error_messages, **_own_words(field)}
    return field


@functools.cache
def _djangos(kind: type) -> dict:
    """The messages a field of that class has from Django (its classes' default_error_messages),
    worked out once a class: a form is made for every save."""
    defaults: dict = {}
    for cls in reversed(kind.__mro__):
        defaults.update(getattr(cls, "default_error_messages", {}))
    return defaults


def _own_words(field: forms.Field) -> dict:
    """This module's words for each code whose message the field still has from Django (its
    class's own, not one its form gave it)."""
    defaults = _djangos(type(field))  # type: ignore[arg-type]  # (django-stubs' Field.__hash__: a class hashes)
    own = {}
    for code in {*field.error_messages, *BY_CODE, "invalid"}:
        given = field.error_messages.get(code)
        if given is not None and given is not defaults.get(code):
            continue  # (the form's own words)
        if code == "invalid":
            words = next((text for kind, text in INVALID_BY_FIELD if isinstance(field, kind)), None)
        else:
            words = BY_CODE.get(code)
        if words is not None:
            own[code] = words
    return own
