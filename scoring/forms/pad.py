"""The pad's input: its values, one field per seat and entry (``PadForm``, the whole pad posted
without JavaScript; ``FieldSaveForm``, one value saved by the pad's script), *Finish*, the way the
game counts its during-the-game points, and the name a link's holder gives."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.fields import FieldAddress, Guard, PadField, field_address, pad_fields
from scoring.forms.names import PersonNameField
from scoring.forms.own_words import OwnWords, with_own_words
from scoring.models import GameSector, Seat
from scoring.rules.categories import During
from scoring.rules.sums import MAX_SUM_LENGTH, NotASum, evaluate_sum, is_sum, normalize
from scoring.services.pad import ValueSave


@dataclass(frozen=True)
class ParsedValue:
    value: int | bool | None  # None: the field was left empty (not entered; counts as 0)
    sum_text: str = ""  # the sum as typed, when it was one ("3+6+2")


def is_yes(raw: str) -> bool:
    """Whether what a yes/no entry posted says yes."""
    return raw.strip().lower() in {"1", "on", "true", "yes"}


def parse_pad_value(field: PadField, raw: str) -> ParsedValue:
    """Turn what was typed into a value for ``field``, or raise ValidationError in words."""
    if field.is_flag:
        return ParsedValue(is_yes(raw))
    text = normalize(raw)
    if text == "":
        return ParsedValue(None)
    if any(char.isdigit() and char not in "0123456789" for char in text):
        raise ValidationError(_("Type the digits 0 to 9 (not %(text)s)."), code="not_a_number", params={"text": text})
    try:
        value = evaluate_sum(text)
    except NotASum:
        if field.category is not None and not field.is_flag:
            message = _("Type a whole number, such as 12, or a sum, such as 3+6+2.")
        else:
            message = _("Type a whole number.")
        raise ValidationError(message, code="not_a_number") from None
    low, high = field.limits
    if not low <= value <= high:
        params = {"low": low, "high": high, "value": value, "text": text}
        if is_sum(text):
            message = _("%(text)s makes %(value)s; the value must be from %(low)s to %(high)s.")
        else:
            message = _("The value must be from %(low)s to %(high)s (not %(value)s).")
        raise ValidationError(message, code="out_of_range", params=params)
    if (field.is_tokens or field.is_workers) and is_sum(text):
        raise ValidationError(_("Type a whole number."), code="not_a_number")
    return ParsedValue(value, text if is_sum(text) else "")


class PadValueField(forms.CharField):
    """A number, or a sum for score entries, typed into one pad field; cleans to a ParsedValue."""

    def __init__(self, pad: PadField, **kwargs):
        self.pad = pad
        super().__init__(required=False, strip=False, max_length=MAX_SUM_LENGTH, show_hidden_initial=True, **kwargs)

    def clean(self, value):
        return parse_pad_value(self.pad, super().clean(value) or "")

    def has_changed(self, initial, data) -> bool:
        return normalize(str(initial or "")) != normalize(str(data or ""))


class FlagInput(forms.CheckboxInput):
    """A yes/no entry as the pad posts it: yes for "1", "on", "true" or "yes" (``is_yes``), as
    what is typed into it is read (Django's checkbox would take "0" for a yes)."""

    def value_from_datadict(self, data, files, name):
        return name in data and is_yes(str(data[name]))


class PadFlagField(forms.BooleanField):
    """A yes/no entry (the hive mat); cleans to a ParsedValue."""

    widget = FlagInput

    def __init__(self, pad: PadField, **kwargs):
        self.pad = pad
        super().__init__(required=False, show_hidden_initial=True, **kwargs)

    def clean(self, value):
        return ParsedValue(bool(super().clean(value)))


def pad_form_field(pad: PadField) -> forms.Field:
    """The form field that reads what was typed into one pad field."""
    return with_own_words(PadFlagField(pad) if pad.is_flag else PadValueField(pad))


MAX_STEP = 20  # the most taps of a stepper that one save carries


class FieldSaveForm(OwnWords, forms.Form):
    """One value saved by the pad's script: the field's address (``s<seat>-<key>``), the value
    as typed (read by the same field classes as the pad's own form) or a stepper's taps, the
    value's version the page saw (required: a save that cannot say what it is based on could
    overwrite what another phone saved), the page's id and save number (``fields.Guard``), and the
    tag of the session the page was made in (a page of another session saves nothing)."""

    field = forms.CharField(max_length=40)
    step = forms.IntegerField(required=False, min_value=-MAX_STEP, max_value=MAX_STEP)
    version = forms.IntegerField(
        min_value=0,
        error_messages={
            "required": _(
                "This save does not say which version of the value it replaces: reload the page, then type it again."
            ),
            "invalid": _(
                "This save does not say which version of the value it replaces: reload the page, then type it again."
            ),
            "min_value": _(
                "This save does not say which version of the value it replaces: reload the page, then type it again."
            ),
        },
    )
    page = forms.CharField(required=False, max_length=64)
    seq = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
    changes = forms.BooleanField(required=False)  # the page shows its recent changes: they come back too
    session = forms.CharField(required=False, max_length=40)  # the session tag of the page (access.session_tag)

    def __init__(self, data=None):
        super().__init__(data)
        self.address = field_address(str(self.data.get("field", "")))
        # What was typed is read as the pad's own form reads that kind of field.
        self.fields["value"] = (
            pad_form_field(self.address.kind) if self.address else with_own_words(forms.CharField(required=False))
        )

    def clean_field(self):
        if self.address is None:
            raise ValidationError(_("This field is not part of the game."), code="no_field")
        return self.address

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if not data.get("step") and "value" not in self.data:
            raise ValidationError(_("Type a value, or tap + or −."), code="nothing")
        if data.get("step"):
            data["value"] = None
        return data

    def save_arguments(self) -> dict:
        """What ``services.pad.field_save`` is given for it: the value typed, or the step."""
        data = self.cleaned_data
        guard = Guard(version=data["version"], page=data["page"], seq=data["seq"] or 0)
        if data.get("step"):
            return {"step": data["step"], "guard": guard}
        return {"value": data["value"].value, "sum_text": data["value"].sum_text, "guard": guard}


@dataclass(frozen=True)
class PostedValue:
    """One value a plain post (no JavaScript) changed: what to save, and the value the page showed."""

    address: FieldAddress
    typed: ParsedValue | None  # None: stepped only
    step: int
    shown: int | bool | None

    @property
    def name(self) -> str:
        return self.address.name

    def value_save(self) -> ValueSave:
        """What the save service is given for it: a step alone applies to the stored value; a
        value typed (and stepped after typing: from what was typed) is checked against the value
        the page showed."""
        guard = Guard(value=self.shown)
        if self.typed is None:
            return ValueSave(self.address, step=self.step, guard=guard)
        if self.step:
            low, high = self.address.kind.limits
            return ValueSave(self.address, value=max(low, min(high, (self.typed.value or 0) + self.step)), guard=guard)
        return ValueSave(self.address, value=self.typed.value, sum_text=self.typed.sum_text, guard=guard)


class PadForm(OwnWords, forms.Form):
    """The pad's input without JavaScript: one field per seat and entry, per seat and comb
    sector, and the active workers, named ``s<seat>-<key>``; a stepper's button posts
    ``step=<name>:+1``.

    Every field posts, beside its value, the value the page showed (``initial-<name>``, Django's
    hidden initial), so a post saves only what this phone changed (``changed_data``), and only
    where the stored value is still the one the page showed. A changed field whose shown value
    did not come with it is refused: it is never written blind.
    """

    def __init__(self, seats: list[Seat], sectors: list[GameSector], data=None, during: During = During.BREAKDOWN):
        super().__init__(data)
        self.pads: dict[str, PadField] = {}
        for pad in pad_fields(seats, sectors, during):
            self.pads[pad.name] = pad
            self.fields[pad.name] = pad_form_field(pad)
        name, _sep, step = str(self.data.get("step", "")).partition(":")
        self.stepped, self.step = (name, int(step)) if name in self.pads and step in ("+1", "-1") else ("", 0)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        self.shown: dict[str, int | bool | None] = {}
        for name in sorted({*self.changed_data, self.stepped} & self.pads.keys()):
            try:
                self.shown[name] = self.fields[name].clean(self.data[self.add_initial_prefix(name)]).value
            except (KeyError, ValidationError):
                self.add_error(
                    name,
                    ValidationError(
                        _(
                            "This page did not say what it showed here, so saving could overwrite another phone’s "
                            "value: reload the page, then type it again."
                        ),
                        code="not_shown",
                    ),
                )
        return data

    def posted_values(self) -> list[PostedValue]:
        """The values to save (those changed and validly typed, and the stepped one), lowered
        counts first: a token moved between two sectors is never refused for the sector it
        enters being saved before the one it leaves."""
        values = [
            PostedValue(
                self.pads[name].address,
                self.cleaned_data[name] if name in self.changed_data else None,
                self.step if name == self.stepped else 0,
                shown,
            )
            for name, shown in self.shown.items()
            if name not in self.errors
        ]
        return sorted(values, key=lambda posted: (_raised_by(posted), posted.name))

    def value_saves(self) -> list[ValueSave]:
        """What the save service is given for the values to save (``posted_values``)."""
        return [posted.value_save() for posted in self.posted_values()]

    def typed_text(self, name: str) -> str:
        """What was posted for the field, as its input shows it again."""
        raw = self.data.get(name)
        if isinstance(self.fields[name], PadFlagField):
            return "1" if raw else ""
        return raw or ""


class PadFinishForm(PadForm):
    """The pad's *Finish* without JavaScript: the pad's values (what this phone changed is saved
    first), and, on the page that asks before finishing, the table's confirmation."""

    confirm = forms.BooleanField(required=False)

    @property
    def confirmed(self) -> bool:
        """The table confirmed finishing (read once the form is validated)."""
        return bool(self.cleaned_data.get("confirm"))


def _raised_by(posted: PostedValue) -> int:
    """By how much a posted value raises what the page showed (negative: lowers it)."""
    if posted.typed is None:
        return posted.step
    new, old = posted.typed.value, posted.shown
    if isinstance(new, bool) or isinstance(old, bool):
        return 0
    return (new or 0) - (old or 0)


class GameModeForm(OwnWords, forms.Form):
    """The way a game counts its during-the-game points, changed on the pad (``services.pad.game_mode_change``)."""

    during = forms.TypedChoiceField(coerce=During, choices=[(during.value, during.value) for during in During])


class LinkHolderNameForm(OwnWords, forms.Form):
    """The name a link's holder gives, shown beside their changes (always as a link holder's)."""

    name = PersonNameField()
