"""The results in figures: the breakdown (each category's VP per player, then the subtotals),
the standings as the table's view says them, and the charts drawn on the server as SVG (no
inline style: the CSP forbids it): the VP of each player by category, and a player's totals over
time on their page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext as _

from scoring.presenters.board import Scoreboard, SeatView
from scoring.rules.categories import END_CATEGORIES, MAJORITY_LABEL, MAJORITY_SHORT_LABEL, Category
from scoring.rules.engine import PlayerResult
from scoring.selectors.people import ScorePoint
from scoring.wording.numbers_and_dates import figure, ordinal, vp_title


@dataclass
class Chart:
    """A bar per player, points by category, drawn as SVG on the server, each with its own legend
    (its categories in words and VP) under it, so that a phone reads it without matching colours
    across the page. Each bar ends at its player's total: the categories that score stacked from
    zero, then each negative one drawn back from their end over what it takes away (``negative``,
    drawn dashed), so that equal totals draw bars of equal length. ``zero`` is where 0 VP lies
    (beyond the left edge only when a total is negative)."""

    width: int
    zero: float
    bars: list[dict]


CHART_COLORS = (
    "#5b8def",
    "#e8a33d",
    "#4caf7a",
    "#c2566b",
    "#8e6cc9",
    "#2fa8b5",
    "#d9773b",
    "#7a9a2e",
    "#b05fb0",
    "#5d6f86",
    "#d4b106",
)


def breakdown(board: Scoreboard) -> list[dict]:
    """One row per category with each player's VP, then the subtotals: the results table. A
    category's row is headed by its short words (the pad's), its full words a tap away
    (``full``); a subtotal's words are short already."""
    players = board.result.players

    def entry(category: Category) -> dict:
        return {
            "label": _(category.short_label or category.label),
            "full": _(category.label),
            "values": [p.category_vp[category.key] for p in players],
            "kind": "entry",
        }

    rows = [entry(c) for c in board.during_categories]
    rows.append({"label": _("During the game"), "values": [p.during for p in players], "kind": "sub"})
    rows += [entry(c) for c in END_CATEGORIES]
    rows.append(
        {
            "label": _(MAJORITY_SHORT_LABEL),
            "full": _(MAJORITY_LABEL),
            "values": [p.majority for p in players],
            "kind": "entry",
        }
    )
    rows.append({"label": _("End of the game"), "values": [p.end for p in players], "kind": "sub"})
    rows.append({"label": _("Total"), "values": [p.total for p in players], "kind": "total"})
    rows.append({"label": _("Active workers"), "values": [p.active_workers for p in players], "kind": "workers"})
    return rows


def standings(board: Scoreboard) -> list[tuple[SeatView, str]]:
    """The ranking as the table's view shows it, each player with where they stand, in words that
    follow the ranking: the leader by how much they lead, or that they lead on the tie-break, or
    share the lead (still level after it); a player level on VP with the lead who lost the
    tie-break, at which place; the others how far behind they are. Nothing before anybody has
    scored (``Scoreboard.scoring_started``)."""
    ranking = board.ranking
    if not board.scoring_started:
        return [(view, "") for view in ranking]
    lead = ranking[0].result.total if ranking else 0
    second = next((view.result.total for view in ranking[1:] if view.result.total < lead), None)
    level = [view for view in ranking if view.result.total == lead]  # on the lead's VP
    first = [view for view in level if view.result.rank == 1]
    return [(view, _standing_words(view, lead, second, level, first)) for view in ranking]


def _standing_words(view: SeatView, lead: int, second: int | None, level: list[SeatView], first: list[SeatView]) -> str:
    behind = lead - view.result.total
    if behind:
        return _("%(vp)s VP behind") % {"vp": figure(behind)}  # (a figure and its unit never parted)
    if view.result.rank > 1:  # level on VP with the lead, behind on the tie-break
        return _("tied on VP, %(place)s on the tie-break") % {"place": ordinal(view.result.rank)}
    if len(first) > 1:
        return _("shares the lead")
    if len(level) > 1:
        return _("leads on the tie-break")
    if second is None:
        return ""  # (alone at the table: the Automa aside, nobody to lead)
    return _("leads by %(vp)s VP") % {"vp": figure(lead - second)}


def _category_vp(key: str) -> Callable[[PlayerResult], int]:
    return lambda result: result.category_vp[key]


def vp_chart(board: Scoreboard) -> Chart:
    groups: list[tuple[str, Callable[[PlayerResult], int]]] = [(_("During the game"), lambda p: p.during)]
    groups += [(_(c.label), _category_vp(c.key)) for c in END_CATEGORIES]
    groups.append((_(MAJORITY_LABEL), lambda p: p.majority))
    width = 340
    earned = [sum(max(0, get(p)) for _label, get in groups) for p in board.result.players]
    below_zero = max([-p.total for p in board.result.players] + [0])  # room for a negative total
    scale = width / max(max(earned + [0]) + below_zero, 1)
    zero = below_zero * scale
    bars = []
    for view in board.views:
        scored = [(index, label, get(view.result)) for index, (label, get) in enumerate(groups)]
        segments, legend, x = [], [], zero
        for index, label, vp in scored:  # what scores, left to right from zero
            if vp > 0:
                color = CHART_COLORS[index % len(CHART_COLORS)]
                segments.append(
                    {
                        "x": round(x, 2),
                        "w": round(vp * scale, 2),
                        "color": color,
                        "negative": False,
                        "title": vp_title(label, vp),
                    }
                )
                legend.append({"color": color, "negative": False, "text": vp_title(label, vp)})
                x += vp * scale
        for _index, label, vp in scored:  # what is taken away, back from the end
            if vp < 0:
                x += vp * scale
                segments.append(
                    {
                        "x": round(x, 2),
                        "w": round(-vp * scale, 2),
                        "color": "",
                        "negative": True,
                        "title": vp_title(label, vp),
                    }
                )
                legend.append({"color": "", "negative": True, "text": vp_title(label, vp)})
        bars.append({"name": view.name, "total": view.result.total, "segments": segments, "legend": legend})
    return Chart(width=width, zero=round(zero, 2), bars=bars)


@dataclass
class ScoreChart:
    width: int
    height: int
    points: str  # the polyline's points
    dots: list[dict]
    axis: list[dict]  # the labelled values on the y axis
    left: int
    bottom: int
    first: date  # the first and last games' dates, written in the page's language
    last: date


def score_chart(scores: list[ScorePoint], *, width: int = 340, height: int = 160) -> ScoreChart | None:
    """A line of the totals by game date, oldest first, a dot per game (a winning game's filled)."""
    if not scores:
        return None
    left, right, top, bottom = 30, width - 8, 10, height - 22
    low = min(0, *(point.total for point in scores))
    high = max(1, *(point.total for point in scores))
    step = (right - left) / (len(scores) - 1) if len(scores) > 1 else 0

    def y_of(total: int) -> float:
        return round(bottom - (total - low) / (high - low) * (bottom - top), 2)

    dots = []
    for index, point in enumerate(scores):
        x = round(left + index * step if len(scores) > 1 else (left + right) / 2, 2)
        dots.append(
            {"x": x, "y": y_of(point.total), "total": point.total, "date": point.played_on, "winner": point.winner}
        )
    return ScoreChart(
        width=width,
        height=height,
        points=" ".join(f"{dot['x']},{dot['y']}" for dot in dots),
        dots=dots,
        axis=[{"y": y_of(value), "label_y": y_of(value) + 4, "value": value} for value in sorted({low, high})],
        left=left,
        bottom=bottom,
        first=scores[0].played_on,
        last=scores[-1].played_on,
    )
