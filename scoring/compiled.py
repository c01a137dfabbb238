"""Querysets compiled to SQL once per process, then run again with new arguments.

A save runs the same few statements every time, and Django compiles a queryset's SQL anew each
time it runs it: for the statement that reads a game's seats with its comb, compiling took 1.5 ms
and running it 0.1 ms (docs/performance.md). ``Compiled`` keeps the queryset as the ORM writes it
(readable, the same on SQLite and PostgreSQL) and compiles it the first time it is run; each run
after that is the same SQL with the argument put where the first run's marker was, through
``Manager.raw``, which turns the rows into model instances (annotations included) with the
fields' own conversions.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import RawQuerySet

# The stand-in argument of the compiling run: a number no key holds, found again in the
# compiled parameters to be replaced by each run's own argument. Within a 32-bit integer column's
# range (an out-of-range lookup compiles to "no row" instead of a parameter).
MARKER = -2_147_480_001


class Compiled:
    """``build(argument)`` is a queryset of model instances; ``compiled(argument)`` runs it."""

    def __init__(self, build: Callable[[object], QuerySet]):
        self._build = build
        self._sql: dict[tuple[str, str], tuple[type[Model], str, tuple]] = {}

    def __call__(self, argument: int | str, using: str = DEFAULT_DB_ALIAS) -> RawQuerySet:
        key = (using, connections[using].vendor)
        if key not in self._sql:
            queryset = self._build(MARKER)
            sql, params = queryset.query.get_compiler(using=using).as_sql()
            if not any(_marks(param) for param in params):
                raise ValueError("the queryset does not use its argument as a parameter")
            self._sql[key] = queryset.model, sql, tuple(params)
        model, sql, params = self._sql[key]
        return model._default_manager.using(using).raw(sql, [argument if _marks(param) else param for param in params])


def _marks(param) -> bool:
    """Whether a compiled parameter is the marker (a text field's lookup holds it as text)."""
    return param == MARKER or param == str(MARKER)
