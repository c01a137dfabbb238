"""A name typed on a page (a player's, a person's, a comb layout's, a link holder's): one line,
holding nothing that hides or reorders text (``scoring.rules.names``, the game file's rule too)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.rules.categories import MAX_NAME_LENGTH
from scoring.rules.names import character_words, one_line, refused_character


def validate_name(value: str) -> None:
    """A name holds nothing that hides or reorders text (``scoring.rules.names``, the game file's rule too)."""
    hidden = refused_character(value)
    if hidden is not None:
        raise ValidationError(
            _(
                "A name cannot hold %(character)s, a character that can hide or reorder text. Type the name again "
                "without it."
            ),
            code="hidden_character",
            params={"character": character_words(hidden)},
        )


class NameField(forms.CharField):
    """A name typed on a page (a player's, a person's, a comb layout's): one line (runs of spaces,
    tabs and line breaks become one space: ``names.one_line``), holding nothing that hides or
    reorders text (``validate_name``), else refused under the field, what was typed shown again."""

    default_validators = [validate_name]

    def to_python(self, value) -> str:
        return one_line(super().to_python(value) or "")


class PersonNameField(NameField):
    """A person's name as others read it beside their changes: a name (``NameField``) of at most 40
    characters, so that it is shown, and written in a game file, as it was typed."""

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_NAME_LENGTH, required=False, **kwargs)
