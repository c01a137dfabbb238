"""Input on the pages: the pad's fields (one per seat and entry), the start-a-game form, and the
game file to import."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from scoring.categories import (
    DEFAULT_DURING,
    DEFAULT_END_TRIGGER_TOKEN,
    DURING_LABELS,
    END_TRIGGER_TOKEN_BY_LANGUAGE,
    FACTIONS,
    MAX_NAME_LENGTH,
    MAX_NOTES_LENGTH,
    MAX_PLAYERS,
    MAX_SECTOR_VP,
    MAX_SECTORS,
    During,
)
from scoring.fields import FieldAddress, Guard, PadField, field_address, pad_fields
from scoring.models import CombLayout, GameSector, Seat
from scoring.names import character_words, one_line, refused_character
from scoring.services import ValueSave
from scoring.sums import MAX_SUM_LENGTH, NotASum, evaluate_sum, is_sum, normalize
from scoring.wording.sentences import isolated, words


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
            message = _("%(text)s makes %(value)s; this must be from %(low)s to %(high)s.")
        else:
            message = _("Must be from %(low)s to %(high)s, not %(value)s.")
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
    return PadFlagField(pad) if pad.is_flag else PadValueField(pad)


MAX_STEP = 20  # the most taps of a stepper that one save carries


class FieldSaveForm(forms.Form):
    """One value saved by the pad's script: the field's address (``s<seat>-<key>``), the value
    as typed (read by the same field classes as the pad's own form) or a stepper's taps, the
    value's version the page saw (required: a save that cannot say what it is based on could
    overwrite what another phone saved), the page's id and save number (``pad.Guard``), and the
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
        self.fields["value"] = pad_form_field(self.address.kind) if self.address else forms.CharField(required=False)

    def clean_field(self):
        if self.address is None:
            raise ValidationError(_("This field is not part of the game."), code="no_field")
        return self.address

    def clean(self):
        data = super().clean()
        if not data.get("step") and "value" not in self.data:
            raise ValidationError(_("Type a value, or tap + or −."), code="nothing")
        if data.get("step"):
            data["value"] = None
        return data

    def save_arguments(self) -> dict:
        """What ``services.field_save`` is given for it: the value typed, or the step."""
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


class PadForm(forms.Form):
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
        data = super().clean()
        self.shown: dict[str, int | bool | None] = {}
        for name in sorted({*self.changed_data, self.stepped} & self.pads.keys()):
            try:
                self.shown[name] = self.fields[name].clean(self.data[self.add_initial_prefix(name)]).value
            except (KeyError, ValidationError):
                self.add_error(
                    name,
                    ValidationError(
                        _(
                            "This page did not say what it showed here, so saving could overwrite another phone's "
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
                field_address(name),
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


# ---------------------------------------------------------------------------------------------
# Names


def validate_name(value: str) -> None:
    """A name holds nothing that hides or reorders text (``scoring.names``, the game file's rule too)."""
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

    default_validators = (validate_name,)

    def to_python(self, value) -> str:
        return one_line(super().to_python(value))


# ---------------------------------------------------------------------------------------------
# Starting a game


class PlayerRowForm(forms.Form):
    name = NameField(
        label=_("Name"),
        max_length=MAX_NAME_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"list": "known-names", "autocomplete": "off", "autocapitalize": "words"}),
    )
    faction = forms.ChoiceField(
        # (the label beside it names it: the empty choice only says it may stay empty, in a few letters)
        label=_("Faction"),
        required=False,
        choices=[("", _("Optional"))] + [(f, f) for f in FACTIONS],
    )


class BasePlayerRowFormSet(forms.BaseFormSet):
    """The players of the start form, in seat order. ``solo`` (the start form's tick box) says
    whether the Automa joins them, so that the rules about the players as a whole are checked
    here: at least one name, exactly one with the Automa, no name twice (ignoring case)."""

    def __init__(self, *args, solo: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.solo = solo

    def clean(self):
        if any(self.errors):
            return
        players = self.named()
        if not players:
            raise ValidationError(_("Name at least one player."), code="no_player")
        problems = []
        if self.solo and len(players) != 1:
            problems.append(
                ValidationError(_("A solo game has exactly one player (the Automa is added for you)."), code="solo")
            )
        seen: set[str] = set()
        for player in players:
            folded = player["name"].strip().casefold()
            if folded in seen or (self.solo and folded == gettext("Automa").casefold()):
                problems.append(
                    ValidationError(
                        words(_("Two players cannot have the same name: %(name)s."), name=isolated(player["name"])),
                        code="same_name",
                    )
                )
            seen.add(folded)
        if problems:
            raise ValidationError(problems)

    def named(self) -> list[dict]:
        """The player rows that have a name, in seat order."""
        return [form.cleaned_data for form in self.forms if form.cleaned_data.get("name", "").strip()]


PlayerRowFormSet = forms.formset_factory(
    PlayerRowForm,
    formset=BasePlayerRowFormSet,
    extra=0,
    min_num=MAX_PLAYERS,
    max_num=MAX_PLAYERS,
    absolute_max=MAX_PLAYERS,
    validate_max=True,
)


class SectorRowForm(forms.Form):
    first = forms.IntegerField(
        label=_("1st place VP"),
        min_value=0,
        max_value=MAX_SECTOR_VP,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": _("1st")}),
    )
    second = forms.IntegerField(
        label=_("2nd place VP"),
        min_value=0,
        max_value=MAX_SECTOR_VP,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": _("2nd")}),
    )

    def clean(self):
        data = super().clean()
        if data.get("first") is None and data.get("second") not in (None, 0):
            self.add_error("first", _("Give the 1st place VP of this sector too."))
        return data


SectorRowFormSet = forms.formset_factory(
    SectorRowForm, extra=0, min_num=MAX_SECTORS, max_num=MAX_SECTORS, absolute_max=MAX_SECTORS, validate_max=True
)


class GameStartForm(forms.Form):
    played_on = forms.DateField(
        label=_("Date played"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    solo = forms.BooleanField(
        label=_("Solo game: one player against the Automa"),
        required=False,
    )
    end_trigger_token = forms.TypedChoiceField(
        label=_("When the game ends"),
        coerce=int,
        widget=forms.RadioSelect,
        initial=DEFAULT_END_TRIGGER_TOKEN,
        choices=[
            (6, _("When a player places their 6th hibernation token (English rules)")),
            (7, _("When a player places their 7th hibernation token (French rules)")),
        ],
        help_text=_(
            "The game also ends when every space of the comb holds a token. The English and French "
            "rulebooks name different tokens: choose the one your table plays by."
        ),
    )
    during = forms.TypedChoiceField(
        label=_("Points scored during the game"),
        coerce=During,
        widget=forms.RadioSelect,
        initial=DEFAULT_DURING.value,
        choices=[(during.value, _(label)) for during, label in DURING_LABELS.items()],
        required=False,
        empty_value=DEFAULT_DURING,  # (a form posted without it: the default)
    )
    layout = forms.ModelChoiceField(
        label=_("Saved comb layout"),
        queryset=CombLayout.objects.none(),
        required=False,
        empty_label=_("New layout"),
        # Choosing a layout fills the comb in (htmx: the start page's sectors, rendered again from it).
        widget=forms.Select(
            attrs={
                "hx-get": reverse_lazy("scoring:start"),
                "hx-trigger": "change",
                "hx-target": "#comb-sectors",
                "hx-swap": "outerHTML",
            }
        ),
    )
    layout_name = NameField(
        label=_("Save this comb as"),
        max_length=60,
        required=False,
        help_text=_("A name, to offer these sectors again next time (leave empty not to save)."),
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, max_length=MAX_NOTES_LENGTH, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, keeper, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["played_on"].initial = timezone.localdate
        # The rule of the edition in the page's language, until the players choose.
        language = (get_language() or "").split("-")[0]
        self.fields["end_trigger_token"].initial = END_TRIGGER_TOKEN_BY_LANGUAGE.get(
            language, DEFAULT_END_TRIGGER_TOKEN
        )
        self.fields["layout"].queryset = keeper.layouts()  # the account's (or browser's) own, never another's


def filled_sectors(formset) -> list[tuple[int, int]]:
    return [
        (form.cleaned_data["first"], form.cleaned_data.get("second") or 0)
        for form in formset.forms
        if form.cleaned_data.get("first") is not None
    ]


class GameModeForm(forms.Form):
    """The way a game counts its during-the-game points, changed on the pad (``services.game_mode_change``)."""

    during = forms.TypedChoiceField(coerce=During, choices=[(during.value, during.value) for during in During])


# ---------------------------------------------------------------------------------------------
# The history's filters


class HistoryFilterForm(forms.Form):
    """What the history is narrowed to: read from the page's address (GET), so every filter is a
    link that can be bookmarked."""

    player = forms.CharField(
        label=_("Player"),
        required=False,
        max_length=MAX_NAME_LENGTH,
        widget=forms.TextInput(attrs={"type": "search", "list": "known-names"}),
    )
    since = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    until = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("Any number"))] + [(n, str(n)) for n in range(1, MAX_PLAYERS + 1)],
    )
    faction = forms.ChoiceField(
        label=_("Faction"), required=False, choices=[("", _("Any faction"))] + [(f, f) for f in FACTIONS]
    )
    status = forms.ChoiceField(
        label=_("Games"),
        required=False,
        choices=[
            ("", _("Finished and in progress")),
            ("finished", _("Finished")),
            ("in-progress", _("In progress")),
        ],
    )

    def clean(self):
        data = super().clean()
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            self.add_error("until", _("The end of the period comes before its start."))
        return data


# ---------------------------------------------------------------------------------------------
# Accounts


class PersonNameField(NameField):
    """A person's name as others read it beside their changes: a name (``NameField``) of at most 40
    characters, so that it is shown, and written in a game file, as it was typed."""

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_NAME_LENGTH, required=False, **kwargs)


class SignUpForm(UserCreationForm):
    """A new account: a user name and a password, typed twice; the name others see beside its
    changes (never the user name, which signs in) and an email address, both if the player
    wants."""

    first_name = PersonNameField(
        label=_("Your name (optional)"),
        help_text=_("Shown beside your changes to the people you share a game with; your user name never is."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only to reset your password if you forget it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "first_name", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # One short form: a line of help each, not the validators' paragraph (they still check).
        self.fields["username"].help_text = _("Letters, digits and @ . + - _ only.")
        self.fields["password1"].help_text = _("At least 8 characters, not only digits, not a common password.")
        self.fields["password2"].help_text = ""


class AccountNameForm(forms.ModelForm):
    """The name an account is shown by to the people it shares games with (``models.display_name``:
    Django's first_name)."""

    first_name = PersonNameField(
        label=_("Your name"),
        help_text=_("Shown beside your changes to the people you share a game with; your user name never is."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )

    class Meta:
        model = User
        fields = ("first_name",)


class LinkHolderNameForm(forms.Form):
    """The name a link's holder gives, shown beside their changes (always as a link holder's)."""

    name = PersonNameField()


EVERYONE = "everyone"


class SeatChoiceForm(forms.Form):
    """Which player an edit link's holder is: one of the game's seats (by its number), or
    everyone. The page shows one button per choice; ``cleaned_data["seat"]`` is the Seat, or None
    for everyone."""

    seat = forms.ChoiceField(error_messages={"invalid_choice": _("This player is not in the game.")})

    def __init__(self, seats, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = {str(seat.number): seat for seat in seats}
        self.fields["seat"].choices = [
            *((number, seat.name) for number, seat in self.seats.items()),
            (EVERYONE, _("Everyone")),
        ]

    def clean_seat(self) -> Seat | None:
        return self.seats.get(self.cleaned_data["seat"])


# ---------------------------------------------------------------------------------------------
# Your data: importing a game file

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # a game file uploaded to the app (kept in the session until added)


class GameFileUploadForm(forms.Form):
    """A game file to import: there, and at most 2 MB. What it holds is checked by the game-file
    reader (``scoring.gamefile``), which names every problem by its path."""

    file = forms.FileField(
        label=_("Game file"),
        help_text=_("A .json file exported from this pad, or written by hand (docs/game-file.md), at most 2 MB."),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        error_messages={"required": _("Choose a game file to upload."), "empty": _("This file is empty.")},
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise ValidationError(
                _("This file is %(size)s; a game file can be at most %(max)s."),
                code="too_big",
                params={"size": filesizeformat(upload.size), "max": filesizeformat(MAX_UPLOAD_BYTES)},
            )
        return upload
