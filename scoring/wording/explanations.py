"""The rules' outcome in words (``scoring.rules.engine``'s results): who took each comb sector's places
and why, how a tie on VP was broken, and why a value is one to check."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.rules.categories import Category, Kind
from scoring.rules.engine import SectorOutcome, SectorResult, TieResult
from scoring.wording.numbers_and_dates import figure, ordinal, tokens_words
from scoring.wording.sentences import isolated, names_list, words


def sector_sentence(result: SectorResult, names: Sequence[str]) -> SafeString:
    """Who took 1st and 2nd place in a sector, and why, in one or two sentences (``words``)."""
    sector = result.sector
    if result.outcome is SectorOutcome.EMPTY:
        return words(_("No tokens yet: nobody scores."))
    leaders = [names[p] for p in result.first_place]
    if result.outcome is SectorOutcome.TIED_FIRST:
        return words(
            _("%(names)s tie for 1st with %(tokens)s: %(pool)s VP shared, %(each)s each. Nobody scores 2nd place."),
            names=names_list(leaders),
            tokens=tokens_words(result.first_tokens),
            pool=result.pool,
            each=result.first_each,
        )
    first = words(
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
        return format_html("{} {}", first, _("This sector has no 2nd-place award."))
    seconds = [names[p] for p in result.second_place]
    if len(seconds) == 1:
        second = words(
            _("%(name)s is 2nd with %(tokens)s: %(vp)s VP."),
            name=isolated(seconds[0]),
            tokens=tokens_words(result.second_tokens),
            vp=result.second_each,
        )
    else:
        second = words(
            _("%(names)s tie for 2nd with %(tokens)s: %(pool)s VP shared, %(each)s each."),
            names=names_list(seconds),
            tokens=tokens_words(result.second_tokens),
            pool=sector.second,
            each=result.second_each,
        )
    return format_html("{} {}", first, second)


def tie_sentence(tie: TieResult, names: Sequence[str]) -> SafeString:
    """How a tie on VP was broken by active workers, or that the place is shared (``words``).

    "Bruno wins the tie on active workers, 3 to 1." / "Alice and Bruno tie on 80 VP and on
    active workers (2 each): they share the victory."
    """
    groups: list[list[int]] = []  # players with the same workers, most workers first
    for player, workers in zip(tie.players, tie.workers, strict=True):
        if groups and workers == tie.workers[tie.players.index(groups[-1][0])]:
            groups[-1].append(player)
        else:
            groups.append([player])

    def who(group: Sequence[int]) -> SafeString:
        return names_list([names[p] for p in group])

    if len(groups) == 1:
        params = {
            "names": who(tie.players),
            "total": figure(tie.total),
            "workers": tie.workers[0],
            "place": ordinal(tie.rank),
        }
        if tie.rank == 1:
            return words(
                _("%(names)s tie on %(total)s VP and on active workers (%(workers)s each): they share the victory."),
                **params,
            )
        return words(
            _("%(names)s tie on %(total)s VP and on active workers (%(workers)s each): they share %(place)s place."),
            **params,
        )

    figures = [tie.workers[tie.players.index(group[0])] for group in groups]
    params = {
        "names": who(groups[0]),
        "place": ordinal(tie.rank),
        **dict(zip("abcde", figures, strict=False)),
    }
    sentence = words(_won_on_workers(tie.rank == 1, len(figures), len(groups[0])), **params)
    if len(tie.players) > 2 or len(groups[0]) > 1:
        sentence = format_html(
            "{} {}",
            words(_("%(names)s tie on %(total)s VP."), names=who(tie.players), total=figure(tie.total)),
            sentence,
        )
    for group in groups:
        if len(group) > 1:
            sentence = format_html(
                "{} {}",
                sentence,
                words(_("%(names)s also tie on active workers and share their place."), names=who(group)),
            )
    return sentence


def _won_on_workers(victory: bool, figures: int, winners: int) -> str:
    """The sentence of a tie broken by active workers, whole: who wins (``victory``) or takes
    their place, and the workers of each group from most to fewest (``figures`` of them: 2 to
    5, as %(a)s to %(e)s): "3 to 1" for two, a list for more ("3, 2 and 1"). One sentence per case,
    so that no language has to glue "3", ", " and "and 1" together."""
    if victory:
        if figures == 2:
            return ngettext(
                "%(names)s wins the tie on active workers, %(a)s to %(b)s.",
                "%(names)s win the tie on active workers, %(a)s to %(b)s.",
                winners,
            )
        if figures == 3:
            return ngettext(
                "%(names)s wins the tie on active workers (%(a)s, %(b)s and %(c)s).",
                "%(names)s win the tie on active workers (%(a)s, %(b)s and %(c)s).",
                winners,
            )
        if figures == 4:
            return ngettext(
                "%(names)s wins the tie on active workers (%(a)s, %(b)s, %(c)s and %(d)s).",
                "%(names)s win the tie on active workers (%(a)s, %(b)s, %(c)s and %(d)s).",
                winners,
            )
        return ngettext(
            "%(names)s wins the tie on active workers (%(a)s, %(b)s, %(c)s, %(d)s and %(e)s).",
            "%(names)s win the tie on active workers (%(a)s, %(b)s, %(c)s, %(d)s and %(e)s).",
            winners,
        )
    if figures == 2:
        return ngettext(
            "%(names)s takes %(place)s place on active workers, %(a)s to %(b)s.",
            "%(names)s take %(place)s place on active workers, %(a)s to %(b)s.",
            winners,
        )
    if figures == 3:
        return ngettext(
            "%(names)s takes %(place)s place on active workers (%(a)s, %(b)s and %(c)s).",
            "%(names)s take %(place)s place on active workers (%(a)s, %(b)s and %(c)s).",
            winners,
        )
    if figures == 4:
        return ngettext(
            "%(names)s takes %(place)s place on active workers (%(a)s, %(b)s, %(c)s and %(d)s).",
            "%(names)s take %(place)s place on active workers (%(a)s, %(b)s, %(c)s and %(d)s).",
            winners,
        )
    return ngettext(
        "%(names)s takes %(place)s place on active workers (%(a)s, %(b)s, %(c)s, %(d)s and %(e)s).",
        "%(names)s take %(place)s place on active workers (%(a)s, %(b)s, %(c)s, %(d)s and %(e)s).",
        winners,
    )


def unusual_sentence(category: Category, value: int | bool | None) -> str:
    """Why an entered value is one to check, in words ("999 is far above what this category
    usually scores (0 to 25): check it."), or "" when it lies within its usual range."""
    if category.usual is None or value is None or not category.is_unusual(value):
        return ""
    low, high = category.usual
    words = {"value": figure(value), "low": figure(low), "high": figure(high)}
    if category.kind is Kind.COUNT:
        if value > high:
            return _("%(value)s is far above the usual count here (%(low)s to %(high)s): check it.") % words
        return _("%(value)s is below the usual count here (%(low)s to %(high)s): check it.") % words
    if value > high:
        return _("%(value)s is far above what this category usually scores (%(low)s to %(high)s): check it.") % words
    return _("%(value)s is below what this category usually scores (%(low)s to %(high)s): check it.") % words
