"""The layers a request reads down (docs/architecture.md): import-linter keeps who imports whom
(pyproject.toml's contracts, scripts/layers.sh); this keeps what import-linter cannot see, that
no view or presenter reads the database itself. Each takes what a selector or a service returns."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Methods only a model's manager or a queryset has: a call of one is a query.
QUERYSET_METHODS = frozenset(
    {"filter", "exclude", "select_related", "prefetch_related", "values_list", "annotate", "aggregate", "order_by"}
)
NOT_QUERYING = ("scoring/views", "scoring/presenters")


def queries_in(source: str) -> list[str]:
    """Each ``.objects`` or queryset method the source uses, as ``line: name``, in line order."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            found.append((node.lineno, ".objects"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in QUERYSET_METHODS or node.func.attr in {"exists", "count"} and not node.args:
                found.append((node.lineno, f".{node.func.attr}()"))
        elif isinstance(node, ast.Name) and node.id in {"get_object_or_404", "get_list_or_404"}:
            found.append((node.lineno, node.id))
    return [f"{line}: {name}" for line, name in sorted(found)]


@pytest.mark.parametrize(
    "path",
    sorted(str(path.relative_to(ROOT)) for folder in NOT_QUERYING for path in (ROOT / folder).rglob("*.py")),
)
def test_views_and_presenters_run_no_query_of_their_own(path):
    assert queries_in((ROOT / path).read_text()) == []


def test_the_check_finds_a_query_written_in_a_view():
    written = """
def page(request, pk):
    game = Game.objects.get(pk=pk)
    seats = game.seats.filter(is_automa=False).order_by("number")
    if not seats.exists():
        raise Http404
    return get_object_or_404(Change, pk=1)
"""
    assert queries_in(written) == [
        "3: .objects",
        "4: .filter()",
        "4: .order_by()",
        "5: .exists()",
        "7: get_object_or_404",
    ]
