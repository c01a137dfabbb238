"""The engine's explanations in words, ready for translation."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import SectorOutcome, SectorResult, TieResult


def names_list(names: Sequence[str]) -> str:
    """ "Alice", "Alice and Bruno", "Alice, Bruno and Carla" (Django's get_text_list)."""
    return str(get_text_list(list(names), _("and")))


def tokens_words(count: int) -> str:
    return ngettext("%(count)s token", "%(count)s tokens", count) % {"count": count}


def sector_sentence(result: SectorResult, names: Sequence[str]) -> str:
    """Who took 1st and 2nd place in a sector, and why, in one or two sentences."""
    sector = result.sector
    if result.outcome is SectorOutcome.EMPTY:
        return _("No tokens yet: nobody scores.")
    leaders = [names[p] for p in result.first_place]
    if result.outcome is SectorOutcome.TIED_FIRST:
        return _(
            "%(names)s tie for 1st with %(tokens)s: %(pool)s VP shared, %(each)s each. Nobody scores 2nd place."
        ) % {
            "names": names_list(leaders), "tokens": tokens_words(result.first_tokens),
            "pool": result.pool, "each": result.first_each,
        }
    first = _("%(name)s leads with %(tokens)s: %(vp)s VP.") % {
        "name": leaders[0], "tokens": tokens_words(result.first_tokens), "vp": result.first_each,
    }
    if result.second_unawarded_reason == "nobody":
        if sector.second:
            return first + " " + _("Nobody else has a token here, so 2nd place is not awarded.")
        return first
    if result.second_unawarded_reason == "no_award":
        return first + " " + _("This sector has no 2nd-place award.")
    seconds = [names[p] for p in result.second_place]
    if len(seconds) == 1:
        return first + " " + _("%(name)s is 2nd with %(tokens)s: %(vp)s VP.") % {
            "name": seconds[0], "tokens": tokens_words(result.second_tokens), "vp": result.second_each,
        }
    return first + " " + _("%(names)s tie for 2nd with %(tokens)s: %(pool)s VP shared, %(each)s each.") % {
        "names": names_list(seconds), "tokens": tokens_words(result.second_tokens),
        "pool": sector.second, "each": result.second_each,
    }


def tie_sentence(tie: TieResult, names: Sequence[str]) -> str:
    """How a tie on VP was broken by active workers, or that the place is shared.

    "Bruno wins the tie on active workers, 3 to 1." / "Alice and Bruno tie on 80 VP and on
    active workers (2 each): they share the victory."
    """
    groups: list[list[int]] = []  # players with the same workers, most workers first
    for player, workers in zip(tie.players, tie.workers, strict=True):
        if groups and workers == tie.workers[tie.players.index(groups[-1][0])]:
            groups[-1].append(player)
        else:
            groups.append([player])

    def who(group: Sequence[int]) -> str:
        return names_list([names[p] for p in group])

    if len(groups) == 1:
        params = {"names": who(tie.players), "total": tie.total, "workers": tie.workers[0], "place": ordinal(tie.rank)}
        if tie.rank == 1:
            return _("%(names)s tie on %(total)s VP and on active workers (%(workers)s each): "
                     "they share the victory.") % params
        return _("%(names)s tie on %(total)s VP and on active workers (%(workers)s each): "
                 "they share %(place)s place.") % params

    figures = _(" to ").join(str(tie.workers[tie.players.index(group[0])]) for group in groups)
    params = {"names": who(groups[0]), "figures": figures, "place": ordinal(tie.rank)}
    if tie.rank == 1:
        sentence = ngettext(
            "%(names)s wins the tie on active workers, %(figures)s.",
            "%(names)s win the tie on active workers, %(figures)s.", len(groups[0]),
        ) % params
    else:
        sentence = ngettext(
            "%(names)s takes %(place)s place on active workers, %(figures)s.",
            "%(names)s take %(place)s place on active workers, %(figures)s.", len(groups[0]),
        ) % params
    if len(tie.players) > 2 or len(groups[0]) > 1:
        sentence = _("%(names)s tie on %(total)s VP.") % {"names": who(tie.players), "total": tie.total} + " " + sentence
    for group in groups:
        if len(group) > 1:
            sentence += " " + _("%(names)s also tie on active workers and share their place.") % {"names": who(group)}
    return sentence
