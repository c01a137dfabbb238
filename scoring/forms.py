"""Input on the pages: the pad's fields (one per seat and entry), the start-a-game form, and the
game file to import."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.categories import (
    CATEGORIES,
    CATEGORY_BY_KEY,
    DEFAULT_END_TRIGGER_TOKEN,
    FACTIONS,
    MAX_ACTIVE_WORKERS,
    MAX_NAME_LENGTH,
    MAX_NOTES_LENGTH,
    MAX_PLAYERS,
    MAX_SECTOR_VP,
    MAX_SECTORS,
    TOKENS_PER_PLAYER,
    Category,
)
from scoring.models import CombLayout, Game, GameSector, Seat
from scoring.sums import MAX_SUM_LENGTH, NotASum, evaluate_sum, is_sum, normalize

WORKERS = "active_workers"
_FIELD_NAME = re.compile(r"s(?P<seat>\d+)-(?:t(?P<sector>\d+)|(?P<key>[a-z0-9_]+))", re.ASCII)


@dataclass(frozen=True)
class PadField:
    """One editable value of the pad: a category entry, active workers, or a sector's tokens."""

    seat: Seat
    category: Category | None = None
    sector: GameSector | None = None  # set for tokens

    @property
    def name(self) -> str:
        if self.sector is not None:
            return f"s{self.seat.number}-t{self.sector.position}"
        return f"s{self.seat.number}-{self.category.key if self.category else WORKERS}"

    @property
    def key(self) -> str:
        """The field within its seat: a category key, "active_workers" or "t<sector position>"
        (the key a seat keeps its revision under, services.field_key)."""
        return self.name.split("-", 1)[1]

    @property
    def is_tokens(self) -> bool:
        return self.sector is not None

    @property
    def is_workers(self) -> bool:
        return self.category is None and self.sector is None

    @property
    def is_flag(self) -> bool:
        return self.category is not None and self.category.is_flag

    @property
    def limits(self) -> tuple[int, int]:
        if self.category is not None:
            return self.category.minimum, self.category.maximum
        if self.is_tokens:
            return 0, TOKENS_PER_PLAYER
        return 0, MAX_ACTIVE_WORKERS

    @property
    def label(self) -> str:
        """The accessible name: what the field is and whose ("Farm income, Alice")."""
        if self.category is not None:
            what = gettext(self.category.label)
        elif self.is_tokens:
            what = gettext("Tokens in sector %(number)s") % {"number": self.sector.number}
        else:
            what = gettext("Active workers")
        return f"{what}, {self.seat.name}"

    def id(self) -> str:
        return f"f-{self.name}"


def pad_field(game_seats: list[Seat], sectors: list[GameSector], name: str) -> PadField | None:
    """The pad field that a posted name stands for, or None when it is not one of this game's."""
    match = _FIELD_NAME.fullmatch(name)
    if not match:
        return None
    seat = next((s for s in game_seats if s.number == int(match["seat"])), None)
    if seat is None:
        return None
    if match["sector"] is not None:
        sector = next((s for s in sectors if s.position == int(match["sector"])), None)
        found = PadField(seat, sector=sector) if sector is not None else None
    elif match["key"] == WORKERS:
        found = PadField(seat)
    else:
        category = CATEGORY_BY_KEY.get(match["key"])
        found = PadField(seat, category=category) if category is not None else None
    # Only the field's own spelling counts ("s01-…" or other digits are not "s1-…").
    return found if found is not None and found.name == name else None


@dataclass(frozen=True)
class PadAddress:
    """What a posted field name says before the game is read: the seat's number and the field's
    key within the seat (a category key, "active_workers" or "t<sector position>")."""

    name: str
    seat: int
    key: str

    @property
    def pad(self) -> PadField:
        """The field with stand-ins for its seat and sector: enough to read what was typed into
        it (its kind and limits), not to write it."""
        stand_in = Seat(number=self.seat)
        if self.key.startswith("t") and self.key[1:].isdigit():
            return PadField(stand_in, sector=GameSector(position=int(self.key[1:])))
        return PadField(stand_in, category=CATEGORY_BY_KEY.get(self.key))

    def pad_in(self, state) -> PadField | None:
        """The field in a game as read (services.GameState); None when the game has no such seat
        or sector."""
        seat = state.seat_numbered(self.seat)
        return pad_field([seat], state.sectors, self.name) if seat is not None else None


def pad_field_address(name: str) -> PadAddress | None:
    """The address a posted field name stands for, or None when it cannot be one of any game's."""
    match = _FIELD_NAME.fullmatch(name)
    if not match:
        return None
    if match["sector"] is not None:
        key = f"t{int(match['sector'])}"
    elif match["key"] == WORKERS or match["key"] in CATEGORY_BY_KEY:
        key = match["key"]
    else:
        return None
    address = PadAddress(name=name, seat=int(match["seat"]), key=key)
    return address if f"s{address.seat}-{key}" == name else None  # only the field's own spelling


@dataclass(frozen=True)
class ParsedValue:
    value: int | bool | None  # None: the field was left empty (not entered; counts as 0)
    sum_text: str = ""  # the sum as typed, when it was one ("3+6+2")


def parse_pad_value(field: PadField, raw: str) -> ParsedValue:
    """Turn what was typed into a value for ``field``, or raise ValidationError in words."""
    if field.is_flag:
        return ParsedValue(raw.strip().lower() in {"1", "on", "true", "yes"})
    text = normalize(raw)
    if text == "":
        return ParsedValue(None)
    if any(char.isdigit() and char not in "0123456789" for char in text):
        raise ValidationError(
            _("Type the digits 0 to 9 (not %(text)s)."), code="not_a_number", params={"text": text}
        )
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


def pad_fields(seats: list[Seat], sectors: list[GameSector]) -> list[PadField]:
    """Every field of a game's pad, player by player: the entries, the tokens, the workers."""
    fields = []
    for seat in seats:
        fields += [PadField(seat, category=category) for category in CATEGORIES]
        fields += [PadField(seat, sector=sector) for sector in sectors]
        fields.append(PadField(seat))
    return fields


class PadValueField(forms.CharField):
    """A number, or a sum for score entries, typed into one pad field; cleans to a ParsedValue."""

    def __init__(self, pad: PadField, **kwargs):
        self.pad = pad
        super().__init__(required=False, strip=False, max_length=MAX_SUM_LENGTH, show_hidden_initial=True, **kwargs)

    def clean(self, value):
        return parse_pad_value(self.pad, super().clean(value) or "")

    def has_changed(self, initial, data) -> bool:
        return normalize(str(initial or "")) != normalize(str(data or ""))


class PadFlagField(forms.BooleanField):
    """A yes/no entry (the hive mat); cleans to a ParsedValue."""

    def __init__(self, pad: PadField, **kwargs):
        self.pad = pad
        super().__init__(required=False, show_hidden_initial=True, **kwargs)

    def clean(self, value):
        return ParsedValue(bool(super().clean(value)))


def pad_form_field(pad: PadField) -> forms.Field:
    """The form field that reads what was typed into one pad field."""
    return PadFlagField(pad) if pad.is_flag else PadValueField(pad)


class PadForm(forms.Form):
    """The pad's input: one field per seat and entry, per seat and comb sector, and the active
    workers, named ``s<seat>-<key>``, ``s<seat>-t<sector position>`` and ``s<seat>-active_workers``.

    Every field posts, beside its value, the value the page showed (``initial-<name>``, Django's
    hidden initial), so a plain form post saves only what this phone changed (``changed_data``),
    and only where the stored value is still the one the page showed.
    """

    def __init__(self, seats: list[Seat], sectors: list[GameSector], data=None):
        super().__init__(data)
        self.pads: dict[str, PadField] = {}
        for pad in pad_fields(seats, sectors):
            self.pads[pad.name] = pad
            self.fields[pad.name] = pad_form_field(pad)

    def pad_for(self, name: str) -> PadField | None:
        return self.pads.get(name)

    def clean_one(self, name: str, raw: str) -> ParsedValue:
        """What ``raw``, typed into the field ``name``, stands for (ValidationError in words)."""
        return self.fields[name].clean(raw)

    def shown_value(self, name: str) -> ParsedValue | None:
        """The value the page showed for the field (its hidden initial), or None when the post
        did not say (or it cannot be read: then the write is not checked against it)."""
        key = self.add_initial_prefix(name)
        if key not in self.data:
            return None
        field = self.fields[name]
        try:
            if isinstance(field, PadFlagField):
                return ParsedValue(self.data[key] in ("True", "true", "1", "on"))
            return field.clean(self.data[key])
        except ValidationError:
            return None


# ---------------------------------------------------------------------------------------------
# Starting a game


class PlayerRowForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=MAX_NAME_LENGTH, required=False,
        widget=forms.TextInput(attrs={"list": "known-names", "autocomplete": "off", "autocapitalize": "words"}),
    )
    faction = forms.ChoiceField(
        label=_("Faction"), required=False, choices=[("", _("Faction (optional)"))] + [(f, f) for f in FACTIONS]
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
            problems.append(ValidationError(
                _("A solo game has exactly one player (the Automa is added for you)."), code="solo"))
        seen: set[str] = set()
        for player in players:
            folded = player["name"].strip().casefold()
            if folded in seen or (self.solo and folded == gettext("Automa").casefold()):
                problems.append(ValidationError(
                    _("Two players cannot have the same name: %(name)s."), code="same_name",
                    params={"name": player["name"]}))
            seen.add(folded)
        if problems:
            raise ValidationError(problems)

    def named(self) -> list[dict]:
        """The player rows that have a name, in seat order."""
        return [form.cleaned_data for form in self.forms if form.cleaned_data.get("name", "").strip()]


PlayerRowFormSet = forms.formset_factory(
    PlayerRowForm, formset=BasePlayerRowFormSet, extra=0, min_num=MAX_PLAYERS, max_num=MAX_PLAYERS,
    absolute_max=MAX_PLAYERS, validate_max=True,
)


class SectorRowForm(forms.Form):
    first = forms.IntegerField(
        label=_("1st place VP"), min_value=0, max_value=MAX_SECTOR_VP, required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": _("1st")}),
    )
    second = forms.IntegerField(
        label=_("2nd place VP"), min_value=0, max_value=MAX_SECTOR_VP, required=False,
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
    played_on = forms.DateField(label=_("Date played"),
                                widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    solo = forms.BooleanField(
        label=_("Solo game: one player against the Automa"), required=False,
    )
    end_trigger_token = forms.TypedChoiceField(
        label=_("The game ends when a player places their…"), coerce=int,
        choices=Game._meta.get_field("end_trigger_token").choices, widget=forms.RadioSelect,
        initial=DEFAULT_END_TRIGGER_TOKEN,
    )
    layout = forms.ModelChoiceField(
        label=_("Saved comb layout"), queryset=CombLayout.objects.all(), required=False,
        empty_label=_("New layout"),
    )
    layout_name = forms.CharField(
        label=_("Save this comb as"), max_length=60, required=False,
        help_text=_("A name, to offer these sectors again next time (leave empty not to save)."),
    )
    notes = forms.CharField(label=_("Notes"), required=False, max_length=MAX_NOTES_LENGTH,
                            widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["played_on"].initial = timezone.localdate


def filled_sectors(formset) -> list[tuple[int, int]]:
    return [
        (form.cleaned_data["first"], form.cleaned_data.get("second") or 0)
        for form in formset.forms
        if form.cleaned_data.get("first") is not None
    ]


# ---------------------------------------------------------------------------------------------
# The history's filters


class HistoryFilterForm(forms.Form):
    """What the history is narrowed to: read from the page's address (GET), so every filter is a
    link that can be bookmarked."""

    player = forms.CharField(label=_("Player"), required=False, max_length=MAX_NAME_LENGTH,
                             widget=forms.TextInput(attrs={"type": "search", "list": "known-names"}))
    since = forms.DateField(label=_("From"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    until = forms.DateField(label=_("To"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    players = forms.TypedChoiceField(
        label=_("Players"), required=False, coerce=int, empty_value=None,
        choices=[("", _("Any number"))] + [(n, str(n)) for n in range(1, MAX_PLAYERS + 1)],
    )
    faction = forms.ChoiceField(label=_("Faction"), required=False,
                                choices=[("", _("Any faction"))] + [(f, f) for f in FACTIONS])
    status = forms.ChoiceField(label=_("Games"), required=False, choices=[
        ("", _("Finished and in progress")), ("finished", _("Finished")), ("in-progress", _("In progress")),
    ])

    def clean(self):
        data = super().clean()
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            self.add_error("until", _("The end of the period comes before its start."))
        return data


# ---------------------------------------------------------------------------------------------
# Accounts


class SignUpForm(UserCreationForm):
    """A new account: a user name and a password, typed twice; an email address only if the
    player wants to be able to reset a forgotten password."""

    email = forms.EmailField(
        label=_("Email (optional)"), required=False,
        help_text=_("Only to reset your password if you forget it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # One short form: a line of help each, not the validators' paragraph (they still check).
        self.fields["username"].help_text = _("Letters, digits and @ . + - _ only.")
        self.fields["password1"].help_text = _("At least 8 characters, not only digits, not a common password.")
        self.fields["password2"].help_text = ""


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
