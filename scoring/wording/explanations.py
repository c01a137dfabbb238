"""The rules' outcome in words (``scoring.rules.engine``'s results): who took each comb sector's places
and why, how a tie on VP was broken, and why a value is one to check."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.rules.categories import Category, Kind
from scoring.rules.engine import SectorOutcome, SectorResult, TieResult
from scoring.wording.numbers_and_dates import figure, ordinal, tokens_words
from scoring.wording.sentences import isolated, listed, names_list, sentence, words


def sector_sentence(result: SectorResult, names: Sequence[str]) -> SafeString:
    """Who took 1st and 2nd place in a sector, and why, in one or two sentences (``words``)."""
    sector = result.sector
    if result.outcome is SectorOutcome.EMPTY:
        return words(_("No tokens yet: nobody scores."))
    leaders = [names[p] for p in result.first_place]
    if result.outcome is SectorOutcome.TIED_FIRST:
        # (a share that does not divide evenly is rounded down, and says so: issue 50)
        rounded = result.pool != result.first_each * len(leaders)
        return sentence(
            _(
                "%(names)s tie for 1st with %(tokens)s: %(pool)s VP shared, %(each)s each, rounded down. "
                "Nobody scores 2nd place."
            )
            if rounded
            else _(
                "%(names)s tie for 1st with %(tokens)s: %(pool)s VP shared, %(each)s each. Nobody scores 2nd place."
            ),
            names=names_list(leaders),
            tokens=tokens_words(result.first_tokens),
            pool=result.pool,
            each=result.first_each,
        )
    first = sentence(
        _("%(name)s leads with %(tokens)s: %(vp)s VP."),
        name=isolated(leaders[0]),
        tokens=tokens_words(result.first_tokens),
        vp=result.first_each,
    )
    if result.second_unawarded_reason == "nobody":
        if sector.second:
            return format_html("{} {}", first, _("Nobody else has a token here, so 2nd place is not awarded."))
        return first
    if result.second_unawarded_reason == "no_award":
        return format_html("{} {}", first, _("This sector awards nothing for 2nd place."))
    seconds = [names[p] for p in result.second_place]
    if len(seconds) == 1:
        second = sentence(
            _("%(name)s is 2nd with %(tokens)s: %(vp)s VP."),
            name=isolated(seconds[0]),
            tokens=tokens_words(result.second_tokens),
            vp=result.second_each,
        )
    else:
        rounded = sector.second != result.second_each * len(seconds)
        second = sentence(
            _("%(names)s tie for 2nd with %(tokens)s: %(pool)s VP shared, %(each)s each, rounded down.")
            if rounded
            else _("%(names)s tie for 2nd with %(tokens)s: %(pool)s VP shared, %(each)s each."),
            names=names_list(seconds),
            tokens=tokens_words(result.second_tokens),
            pool=sector.second,
            each=result.second_each,
        )
    return format_html("{} {}", first, second)


def tie_sentence(tie: TieResult, names: Sequence[str]) -> SafeString:
    """How a tie on VP was broken by active workers, or that a place is shared: one sentence per
    situation, naming the place (or the victory), each group of players once, and each figure
    with its players (``words``).

    "Bruno wins the tie-break with 3 active workers, ahead of Alice (2) and Carla (1)." /
    "Alice and Bruno share the victory: 80 VP and 2 active workers each." When players still tie
    on workers below the first, each group has a sentence of its own, in order: "Alice takes 2nd
    place on the tie-break with 3 active workers. Bruno and Carla share 3rd place with 1 active
    worker each."
    """
    groups: list[tuple[int, list[int]]] = []  # (workers, players with them), most workers first
    for player, workers in zip(tie.players, tie.workers, strict=True):
        if groups and groups[-1][0] == workers:
            groups[-1][1].append(player)
        else:
            groups.append((workers, [player]))
    victory = tie.rank == 1
    if len(groups) == 1:
        return sentence(
            _shared_on_vp_and_workers(victory, tie.workers[0]),
            names=_who(tie.players, names),
            total=figure(tie.total),
            workers=tie.workers[0],
            place=ordinal(tie.rank),
        )
    (top_workers, top), behind = groups[0], groups[1:]
    if len(top) == 1 and all(len(players) == 1 for _workers, players in behind):
        others = [
            words(_("%(name)s (%(workers)s)"), name=isolated(names[players[0]]), workers=workers)
            for workers, players in behind
        ]
        return sentence(
            _won_ahead_of_others(victory, top_workers),
            name=isolated(names[top[0]]),
            workers=top_workers,
            place=ordinal(tie.rank),
            others=listed(others),
        )
    sentences = []
    place = tie.rank
    for workers, players in groups:
        sentences.append(
            sentence(
                _group_on_workers(place == 1, len(players), workers),
                names=_who(players, names),
                workers=workers,
                place=ordinal(place),
            )
        )
        place += len(players)
    return format_html_join(" ", "{}", ((sentence,) for sentence in sentences))


def _who(players: Sequence[int], names: Sequence[str]) -> SafeString:
    return names_list([names[player] for player in players])


def _shared_on_vp_and_workers(victory: bool, workers: int) -> str:
    """Players level on VP and on active workers: they share the victory, or their place."""
    if victory:
        return ngettext(
            "%(names)s share the victory: %(total)s VP and %(workers)s active worker each.",
            "%(names)s share the victory: %(total)s VP and %(workers)s active workers each.",
            workers,
        )
    return ngettext(
        "%(names)s share %(place)s place: %(total)s VP and %(workers)s active worker each.",
        "%(names)s share %(place)s place: %(total)s VP and %(workers)s active workers each.",
        workers,
    )


def _won_ahead_of_others(victory: bool, workers: int) -> str:
    """One player takes the place on active workers, each of the others behind with their own
    ("%(others)s": "Alice (2) and Carla (1)")."""
    if victory:
        return ngettext(
            "%(name)s wins the tie-break with %(workers)s active worker, ahead of %(others)s.",
            "%(name)s wins the tie-break with %(workers)s active workers, ahead of %(others)s.",
            workers,
        )
    return ngettext(
        "%(name)s takes %(place)s place on the tie-break with %(workers)s active worker, ahead of %(others)s.",
        "%(name)s takes %(place)s place on the tie-break with %(workers)s active workers, ahead of %(others)s.",
        workers,
    )


def _group_on_workers(victory: bool, players: int, workers: int) -> str:
    """The place a group of the tie takes with its active workers: one player's, or shared by
    ``players`` of them."""
    if players == 1:
        if victory:
            return ngettext(
                "%(names)s wins the tie-break with %(workers)s active worker.",
                "%(names)s wins the tie-break with %(workers)s active workers.",
                workers,
            )
        return ngettext(
            "%(names)s takes %(place)s place on the tie-break with %(workers)s active worker.",
            "%(names)s takes %(place)s place on the tie-break with %(workers)s active workers.",
            workers,
        )
    if victory:
        return ngettext(
            "%(names)s share the victory with %(workers)s active worker each.",
            "%(names)s share the victory with %(workers)s active workers each.",
            workers,
        )
    return ngettext(
        "%(names)s share %(place)s place with %(workers)s active worker each.",
        "%(names)s share %(place)s place with %(workers)s active workers each.",
        workers,
    )


def unusual_sentence(category: Category, value: int | bool | None) -> str:
    """Why an entered value is one to check, in words ("999 is far above what this category
    usually scores (0 to 25)."; the mark beside the value, and *Finish*, say to check it), or ""
    when it lies within its usual range."""
    if category.usual is None or value is None or not category.is_unusual(value):
        return ""
    low, high = category.usual
    words = {"value": figure(value), "low": figure(low), "high": figure(high)}
    if category.kind is Kind.COUNT:
        if value > high:
            return _("%(value)s is far more than usual here (usually %(low)s to %(high)s).") % words
        return _("%(value)s is fewer than usual here (usually %(low)s to %(high)s).") % words
    if value > high:
        return _("%(value)s is far above what this category usually scores (%(low)s to %(high)s).") % words
    return _("%(value)s is below what this category usually scores (%(low)s to %(high)s).") % words
