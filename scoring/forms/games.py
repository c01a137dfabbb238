"""Starting a game (its players in seat order and its comb's sectors) and the history's filters."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.forms.names import NameField
from scoring.forms.own_words import OwnWords
from scoring.models import CombLayout, Game
from scoring.rules.categories import (
    DEFAULT_DURING,
    DEFAULT_END_TRIGGER_TOKEN,
    DURING_LABELS,
    END_TRIGGER_TOKEN_BY_LANGUAGE,
    FACTIONS,
    MAX_NAME_LENGTH,
    MAX_NOTES_LENGTH,
    MAX_PLAY_MINUTES,
    MAX_PLAYERS,
    MAX_SECTOR_VP,
    MAX_SECTORS,
    During,
)
from scoring.rules.names import name_key
from scoring.wording.sentences import isolated, words


class PlayerRowForm(OwnWords, forms.Form):
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
            folded = name_key(player["name"])
            if folded in seen or (self.solo and folded == name_key(gettext("Automa"))):
                problems.append(
                    ValidationError(
                        words(
                            gettext("Two players cannot have the same name: %(name)s."), name=isolated(player["name"])
                        ),
                        code="same_name",
                    )
                )
            seen.add(folded)
        if problems:
            raise ValidationError(problems)

    def named(self) -> list[dict]:
        """The player rows that have a name, in seat order."""
        return [form.cleaned_data for form in self.forms if form.cleaned_data.get("name", "").strip()]


PlayerRowFormSet: type[BasePlayerRowFormSet] = forms.formset_factory(  # type: ignore[assignment]  # (typed as the base)
    PlayerRowForm,
    formset=BasePlayerRowFormSet,
    extra=0,
    min_num=MAX_PLAYERS,
    max_num=MAX_PLAYERS,
    absolute_max=MAX_PLAYERS,
    validate_max=True,
)


class SectorRowForm(OwnWords, forms.Form):
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
        super().clean()
        data = self.cleaned_data
        if data.get("first") is None and data.get("second") not in (None, 0):
            self.add_error("first", _("Give the 1st place VP of this sector too."))
        return data


SectorRowFormSet = forms.formset_factory(
    SectorRowForm, extra=0, min_num=MAX_SECTORS, max_num=MAX_SECTORS, absolute_max=MAX_SECTORS, validate_max=True
)


class GameStartForm(OwnWords, forms.Form):
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
            "The game also ends when every space of the comb holds a token. The English rulebook ends it "
            "at the 6th token, the French at the 7th: choose the rule your table plays by."
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
        help_text=_("A name, to offer these sectors again next time (optional)."),
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, max_length=MAX_NOTES_LENGTH, widget=forms.Textarea(attrs={"rows": 2})
    )

    # *Play again*: the game whose table this one is the next game of (its public id, as the
    # results' link gave it), if it is the keeper's own.
    again_of = forms.CharField(required=False, max_length=32, widget=forms.HiddenInput)

    def __init__(self, *args, keeper, **kwargs):
        super().__init__(*args, **kwargs)
        self.keeper = keeper
        self.fields["played_on"].initial = timezone.localdate
        # The rule of the edition in the page's language, until the players choose.
        language = (get_language() or "").split("-")[0]
        self.fields["end_trigger_token"].initial = END_TRIGGER_TOKEN_BY_LANGUAGE.get(
            language, DEFAULT_END_TRIGGER_TOKEN
        )
        self.fields["layout"].queryset = keeper.layouts()  # type: ignore[attr-defined]  # (a ModelChoiceField)  # the account's (or browser's) own, never another's

    def clean_again_of(self) -> Game | None:
        """The game played before, when it is one of the keeper's (anything else: a game started
        afresh, since a start never fails over the game it follows)."""
        public_id = self.cleaned_data["again_of"]
        return self.keeper.games().filter(public_id=public_id).first() if public_id else None


def filled_sectors(formset) -> list[tuple[int, int]]:
    return [
        (form.cleaned_data["first"], form.cleaned_data.get("second") or 0)
        for form in formset.forms
        if form.cleaned_data.get("first") is not None
    ]


class PlayLengthForm(OwnWords, forms.Form):
    """How long the play lasted, asked once it is finished (for BG Stats): whole minutes, or
    nothing (not said)."""

    minutes = forms.IntegerField(
        label=_("How long did you play?"),
        required=False,
        min_value=1,
        max_value=MAX_PLAY_MINUTES,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        help_text=_("In minutes, optional: BG Stats keeps it with the play."),
        error_messages={
            "min_value": _("Type the minutes played: at least 1."),
            "max_value": _("Type the minutes played: at most a day."),
        },
    )


class HistoryFilterForm(OwnWords, forms.Form):
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
        label=_("Number of players"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", pgettext_lazy("number of players", "Any"))] + [(n, str(n)) for n in range(1, MAX_PLAYERS + 1)],
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
        super().clean()
        data = self.cleaned_data
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            self.add_error("until", _("The end of the period comes before its start."))
        return data
