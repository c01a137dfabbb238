"""Which player an edit link's holder is (*Which player are you?*), and which page follows the
table to its next game (*Go to the next game*)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.own_words import OwnWords
from scoring.models import Seat
from scoring.rules.categories import MAX_PLAYERS

EVERYONE = "everyone"


class SeatChoiceForm(OwnWords, forms.Form):
    """Which player an edit link's holder is: one of the game's seats (by its number), or
    everyone. The page shows one button per choice; ``cleaned_data["seat"]`` is the Seat, or None
    for everyone."""

    seat = forms.ChoiceField(error_messages={"invalid_choice": _("This player is not in the game.")})

    def __init__(self, seats, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = {str(seat.number): seat for seat in seats}
        self.fields["seat"].choices = [  # type: ignore[attr-defined]  # (a ChoiceField: declared above)
            *((number, seat.name) for number, seat in self.seats.items()),
            (EVERYONE, _("Everyone")),
        ]

    def clean_seat(self) -> Seat | None:
        return self.seats.get(self.cleaned_data["seat"])


class NextGameFollowForm(OwnWords, forms.Form):
    """*Go to the next game*: the sheet the phone is on (``?player=``, the seat's number; none:
    everyone's) and where it goes on (``to=table``: the next game's table view; else its pad)."""

    player = forms.IntegerField(required=False, min_value=1, max_value=MAX_PLAYERS)
    to = forms.ChoiceField(required=False, choices=[("", "pad"), ("table", "table view")])  # (never shown)
