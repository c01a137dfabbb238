"""Every abuse limit is set from the environment, one variable a limit,
``RATE_LIMIT_<RULE>_<KIND>=<requests>/<seconds>`` or ``off`` (``apiary_site/rate_limits.py``);
a value or a name it cannot read stops the site at start-up, saying which and how to write it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from apiary_site.rate_limits import rate_limits, variable
from tests.site.test_production import manage, setting

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = {
    "save": {"session": (300, 60), "user": (1500, 60), "address": (15000, 60)},
    "password_reset": {"address": (10, 3600), "account": (3, 3600)},
}


def test_without_variables_the_limits_are_the_defaults():
    assert rate_limits(DEFAULTS, {"PATH": "/usr/bin", "RATE_LIMIT_PROXIES": "1"}) == DEFAULTS


def test_a_variable_sets_its_rules_limit_of_its_kind():
    environ = {
        "RATE_LIMIT_SAVE_ADDRESS": "20000/60",
        "RATE_LIMIT_PASSWORD_RESET_ACCOUNT": " 5 / 7200 ",  # (spaces around are nothing)
        "RATE_LIMIT_PASSWORD_RESET_SESSION": "2/3600",  # a kind the default leaves out
        "RATE_LIMIT_SAVE_USER": "off",
        "RATE_LIMIT_SAVE_SESSION": "",  # set empty: the default, as the site's other variables
    }

    assert rate_limits(DEFAULTS, environ) == {
        "save": {"session": (300, 60), "address": (20000, 60)},
        "password_reset": {"address": (10, 3600), "account": (5, 7200), "session": (2, 3600)},
    }
    assert DEFAULTS["save"]["user"] == (1500, 60)  # (the defaults themselves untouched)


@pytest.mark.parametrize("value", ["lots", "12000", "12000/", "/60", "0/60", "12000/0", "-5/60", "1.5/60", "1e4/60"])
def test_a_value_that_is_not_a_limit_is_refused_saying_how_to_write_one(value):
    with pytest.raises(ImproperlyConfigured) as refused:
        rate_limits(DEFAULTS, {"RATE_LIMIT_SAVE_ADDRESS": value})
    assert str(refused.value) == (
        f"RATE_LIMIT_SAVE_ADDRESS={value!r} is not a rate limit: write how many requests in how many "
        "seconds, both whole numbers from 1, as RATE_LIMIT_SAVE_ADDRESS=12000/60 (12,000 a minute), "
        "or RATE_LIMIT_SAVE_ADDRESS=off for none."
    )


@pytest.mark.parametrize("name", ["RATE_LIMIT_SAVE_ADRESS", "RATE_LIMIT_SAVES_ADDRESS", "RATE_LIMIT_SAVE"])
def test_a_name_that_is_no_rules_and_kinds_is_refused_naming_them(name):
    """A typo would otherwise leave the limit as it was, and nobody told."""
    with pytest.raises(ImproperlyConfigured) as refused:
        rate_limits(DEFAULTS, {name: "20000/60"})
    assert str(refused.value).startswith(
        f"{name} is not a rate limit's variable: the names are RATE_LIMIT_<RULE>_<KIND>, RULE one of "
        "SAVE, PASSWORD_RESET and KIND one of SESSION, USER, ADDRESS, ACCOUNT"
    )


def test_the_site_takes_its_limits_from_the_environment():
    assert "'address': (20000, 60)" in setting("RATE_LIMITS", DEBUG="true", RATE_LIMIT_SAVE_ADDRESS="20000/60")


def test_the_site_does_not_start_with_a_limit_it_cannot_read():
    started = manage("check", DEBUG="true", RATE_LIMIT_SAVE_ADDRESS="12000 a minute")
    assert started.returncode != 0
    assert "RATE_LIMIT_SAVE_ADDRESS='12000 a minute' is not a rate limit" in started.stderr


def test_every_default_limit_is_in_the_operations_guide():
    """docs/operations.md's table names each limit's variable beside its default."""
    from django.conf import settings

    guide = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(RATE_LIMIT_[A-Z_]+)`", guide))
    defaults = {variable(rule, kind) for rule, kinds in settings.RATE_LIMITS.items() for kind in kinds}
    assert defaults <= named
