"""The engine's explanations in words, ready for translation: each is a whole sentence of the
catalogue (locale/), never a sentence glued from translated pieces.

A sentence that holds a name is HTML (``words``): each name in its own ``<bdi>`` (``isolated``),
so that a name, whatever it holds, never reorders the words around it; the sentence's own words
and every value escaped. ``plain_text`` turns such a sentence into the text the pad's script shows."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.template.defaultfilters import date as date_filter
from django.utils import formats, timezone
from django.utils.html import conditional_escape, format_html, strip_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import get_text_list
from django.utils.timesince import timesince
from django.utils.translation import get_language, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from scoring.engine import SectorOutcome, SectorResult, TieResult

FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"  # a <bdi> in plain text


def isolated(name: str) -> SafeString:
    """A name as the pages show it: escaped, in its own ``<bdi>`` (HTML's bidirectional isolate),
    so that whatever it holds (letters written right to left, a character that reorders text
    stored before ``scoring.names`` refused it) it never reorders the words around it: "by
    <bdi>Ann</bdi> (edit link)" keeps "(edit link)" where it is."""
    return format_html("<bdi>{}</bdi>", name)


def words(message: str, **values) -> SafeString:
    """A sentence of the catalogue with its values put in, as HTML: the sentence's own words
    escaped (a translator's markup is shown as written, never read as markup), each value escaped
    unless it is HTML already (a name ``isolated``, or a sentence made here)."""
    return mark_safe(conditional_escape(message) % {key: conditional_escape(value) for key, value in values.items()})


def plain_text(sentence: str) -> str:
    """A sentence made here as plain text (the pad's script shows its refusals as text): each
    ``<bdi>`` becomes Unicode's first-strong isolate (U+2068 … U+2069, which text reads as a page
    reads a <bdi>), and what was escaped is itself again."""
    isolates = str(sentence).replace("<bdi>", FIRST_STRONG_ISOLATE).replace("</bdi>", POP_DIRECTIONAL_ISOLATE)
    return html.unescape(strip_tags(isolates))


def names_list(names: Sequence[str]) -> SafeString:
    """ "Alice", "Alice and Bruno", "Alice, Bruno and Carla" (Django's get_text_list), each name
    ``isolated``, the words between them escaped."""
    marks = [f"\0{index}\0" for index in range(len(names))]  # (no word of a catalogue holds a NUL)
    listed = conditional_escape(str(get_text_list(marks, _("and"))))
    for mark, name in zip(marks, names, strict=True):
        listed = listed.replace(mark, isolated(name))
    return mark_safe(listed)


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


# ---------------------------------------------------------------------------------------------
# Small phrases with a figure or a label in them, whole in the catalogue (French puts a space
# before a colon and a percent sign: "Fermes construites : 3 PV", "42 %").


def labelled(label: str, value) -> SafeString:
    """ "Player: Alice" (a filter chip), "Farms built, Alice: 120 is far above …" (a value's
    message under its row): one sentence of the catalogue, French "Joueur : Alice" (``words``: a
    name given ``isolated``, a label given as HTML kept as it is)."""
    return words(_("%(label)s: %(value)s"), label=label, value=value)


def vp_title(label: str, vp: int) -> str:
    """A chart segment's title, "Farms built: 3 VP": French "Fermes construites : 3 PV"."""
    return _("%(label)s: %(vp)s VP") % {"label": label, "vp": figure(vp)}


def percent(value) -> str:
    """ "42%": French "42 %"."""
    return _("%(percent)s%%") % {"percent": value}


def name_with_total(name: str, total: int) -> SafeString:
    """ "Alice (80)": a player and their total VP (``words``)."""
    return words(_("%(name)s (%(total)s)"), name=isolated(name), total=figure(total))


# ---------------------------------------------------------------------------------------------
# Numbers, dates and times as the language writes them: the one way each is shown, on every page
# (``scoring/templatetags/words.py`` gives them to the templates) and in every sentence made here.

MINUS = "\u2212"  # a true minus sign: "−3", never the hyphen of "-3"


def figure(value) -> str:
    """A number as a page shows it: in the language's own writing (12.5, in French 12,5), a
    negative one with a true minus sign ("−3"). What a field holds stays as typed (its sums read
    the hyphen, the keypad's "−" types one)."""
    text = str(formats.localize(value))
    return MINUS + text[1:] if text.startswith("-") else text


# The months whose abbreviation the French edition's typography writes otherwise than Django's
# French catalogue ("janv.", "févr."; Django's "jan.", "fév."): the project's catalogue, which
# Django reads before its own, gives them (the context and words are Django's, django/utils/dates.py).
_MONTH_ABBREVIATIONS = (pgettext_lazy("abbrev. month", "Jan."), pgettext_lazy("abbrev. month", "Feb."))


def game_date(value, date_format: str) -> str:
    """A game's day, the one way every page writes it (``{{ game.played_on|game_date:_("D j M Y") }}``):
    Django's ``date`` filter with a format of the catalogue, and in French the first of the month
    written as French writes it, "1er" ("ven. 1er mai 2026", "1er déc. 2026")."""
    if value and getattr(value, "day", None) == 1 and (get_language() or "").split("-")[0] == "fr":
        date_format = _first_of_the_month(date_format)
    return date_filter(value, date_format)


def _first_of_the_month(date_format: str) -> str:
    """The format with "er" (escaped, as Django's date format reads it) after each day of the
    month ("j"), leaving escaped letters alone."""
    written, escaped = [], False
    for letter in date_format:
        written.append(letter)
        if not escaped and letter == "j":
            written.append("\\e\\r")
        escaped = letter == "\\" and not escaped
    return "".join(written)


def time_format() -> str:
    """How a time of day reads, in the letters of Django's date format: "21:14" in English, the
    typographers' "21 h 14" in French (``clock``; the phone side's offline.js reads it from the page)."""
    return pgettext("time of day, in the letters of Django's date format", "H:i")


def clock(moment: datetime) -> str:
    """A moment's time of day where the site is (settings.TIME_ZONE): "21:14", French "21 h 14"."""
    return date_filter(timezone.localtime(moment), time_format())


JUST_NOW = timedelta(minutes=1)  # what happened within it was "just now" (Django's timesince says "0 minutes")


def when_by(moment: datetime, by, now: datetime | None = None) -> SafeString:
    """When something was done and by whom, as the pad's recent changes say it: "just now, by Ann"
    within the last minute, else "5 minutes ago, by Ann" (Django's timesince; ``words``: ``by``
    given ``isolated``)."""
    now = now or timezone.now()
    if now - moment < JUST_NOW:
        return words(_("just now, by %(by)s"), by=by)
    return words(_("%(ago)s ago, by %(by)s"), ago=timesince(moment, now), by=by)
