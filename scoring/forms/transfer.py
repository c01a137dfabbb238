"""*Your data*: a game file to import."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.forms.own_words import OwnWords
from scoring.wording.numbers_and_dates import file_size

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # a game file uploaded to the app (kept in the session until added)


class GameFileUploadForm(OwnWords, forms.Form):
    """A game file to import: there, and at most 2 MB. What it holds is checked by the game-file
    reader (``scoring.gamefile``), which names every problem by its path."""

    file = forms.FileField(
        label=_("Game file"),
        help_text=_("A .json game file downloaded from this pad (Your data), at most 2 MB."),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        error_messages={"required": _("Choose a game file to upload."), "empty": _("This file is empty.")},
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise ValidationError(
                _("This file is %(size)s; a game file can be at most %(max)s."),
                code="too_big",
                params={"size": file_size(upload.size), "max": file_size(MAX_UPLOAD_BYTES)},
            )
        return upload
