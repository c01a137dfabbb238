"""The engine's explanations in words, ready for translation: each is a whole sentence of the
catalogue (locale/), never a sentence glued from translated pieces."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from scoring.engine import SectorOutcome, SectorResult, TieResult


def names_list(names: Sequence[str]) -> str:
    """ "Alice", "Alice and Bruno", "Alice, Bruno and Carla" (Django's get_text_list)."""
    return str(get_text_list(list(names), _("and")))


# The ordinal's words by the last digit, in humanize's contexts (the catalogue's; translated when used).
_ORDINAL_BY_LAST_DIGIT = (
    pgettext_lazy("ordinal 0", "{}th"),
    pgettext_lazy("ordinal 1", "{}st"),
    pgettext_lazy("ordinal 2", "{}nd"),
    pgettext_lazy("ordinal 3", "{}rd"),
    pgettext_lazy("ordinal 4", "{}th"),
    pgettext_lazy("ordinal 5", "{}th"),
    pgettext_lazy("ordinal 6", "{}th"),
    pgettext_lazy("ordinal 7", "{}th"),
    pgettext_lazy("ordinal 8", "{}th"),
    pgettext_lazy("ordinal 9", "{}th"),
)


def ordinal(value: int) -> str:
    """ "1st", "2nd", "3rd", "11th" in English; "1er", "2e", "11e" in French: plain text (never
    the HTML of Django's own French ordinals, "1<sup>er</sup>", which would show as tags in a
    sentence, an attribute or a spreadsheet).

    The contexts and words are those of ``django.contrib.humanize``'s ``ordinal``, so the
    project's catalogue, which Django reads before the apps' ones, also gives that filter (and
    ``scoring.scoreboard``'s ranks) the same plain-text ordinals."""
    if value < 0:
        return str(value)
    if value == 1:
        return pgettext("ordinal is 1", "{}st").format(value)
    if value % 100 in (11, 12, 13):
        return pgettext("ordinal 11, 12, 13", "{}th").format(value)
    return str(_ORDINAL_BY_LAST_DIGIT[value % 10]).format(value)


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

    figures = [tie.workers[tie.players.index(group[0])] for group in groups]
    params = {"names": who(groups[0]), "place": ordinal(tie.rank),
              **{name: figure for name, figure in zip("abcde", figures, strict=False)}}
    sentence = _won_on_workers(tie.rank == 1, len(figures), len(groups[0])) % params
    if len(tie.players) > 2 or len(groups[0]) > 1:
        sentence = _("%(names)s tie on %(total)s VP.") % {"names": who(tie.players), "total": tie.total} + " " + sentence
    for group in groups:
        if len(group) > 1:
            sentence += " " + _("%(names)s also tie on active workers and share their place.") % {"names": who(group)}
    return sentence


def _won_on_workers(victory: bool, figures: int, winners: int) -> str:
    """The sentence of a tie broken by active workers, whole: who wins (``victory``) or takes
    their place, and the workers of each group from most to fewest (``figures`` of them: 2 to
    5, as %(a)s to %(e)s). One sentence per case, so that no language has to glue "3", " to " and
    "1" together."""
    if victory:
        if figures == 2:
            return ngettext("%(names)s wins the tie on active workers, %(a)s to %(b)s.",
                            "%(names)s win the tie on active workers, %(a)s to %(b)s.", winners)
        if figures == 3:
            return ngettext("%(names)s wins the tie on active workers, %(a)s to %(b)s to %(c)s.",
                            "%(names)s win the tie on active workers, %(a)s to %(b)s to %(c)s.", winners)
        if figures == 4:
            return ngettext("%(names)s wins the tie on active workers, %(a)s to %(b)s to %(c)s to %(d)s.",
                            "%(names)s win the tie on active workers, %(a)s to %(b)s to %(c)s to %(d)s.", winners)
        return ngettext("%(names)s wins the tie on active workers, %(a)s to %(b)s to %(c)s to %(d)s to %(e)s.",
                        "%(names)s win the tie on active workers, %(a)s to %(b)s to %(c)s to %(d)s to %(e)s.",
                        winners)
    if figures == 2:
        return ngettext("%(names)s takes %(place)s place on active workers, %(a)s to %(b)s.",
                        "%(names)s take %(place)s place on active workers, %(a)s to %(b)s.", winners)
    if figures == 3:
        return ngettext("%(names)s takes %(place)s place on active workers, %(a)s to %(b)s to %(c)s.",
                        "%(names)s take %(place)s place on active workers, %(a)s to %(b)s to %(c)s.", winners)
    if figures == 4:
        return ngettext("%(names)s takes %(place)s place on active workers, %(a)s to %(b)s to %(c)s to %(d)s.",
                        "%(names)s take %(place)s place on active workers, %(a)s to %(b)s to %(c)s to %(d)s.",
                        winners)
    return ngettext(
        "%(names)s takes %(place)s place on active workers, %(a)s to %(b)s to %(c)s to %(d)s to %(e)s.",
        "%(names)s take %(place)s place on active workers, %(a)s to %(b)s to %(c)s to %(d)s to %(e)s.", winners)


# ---------------------------------------------------------------------------------------------
# Small phrases with a figure or a label in them, whole in the catalogue (French puts a space
# before a colon and a percent sign: "Fermes construites : 3 PV", "42 %").


def labelled(label: str, value) -> str:
    """ "Player: Alice" (a filter chip, a line of a list): French "Joueur : Alice"."""
    return _("%(label)s: %(value)s") % {"label": label, "value": value}


def label_colon(label: str) -> str:
    """ "Farms built:" before a message about it: French "Fermes construites :"."""
    return _("%(label)s:") % {"label": label}


def vp_title(label: str, vp: int) -> str:
    """A chart segment's title, "Farms built: 3 VP": French "Fermes construites : 3 PV"."""
    return _("%(label)s: %(vp)s VP") % {"label": label, "vp": vp}


def percent(value) -> str:
    """ "42%": French "42 %"."""
    return _("%(percent)s%%") % {"percent": value}


def name_with_total(name: str, total: int) -> str:
    """ "Alice (80)": a player and their total VP."""
    return _("%(name)s (%(total)s)") % {"name": name, "total": total}
