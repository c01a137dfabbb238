"""The French catalogue (locale/fr/LC_MESSAGES): every entry has its French translation (no empty
or fuzzy one), each translation keeps its placeholders and writes French typography and the
edition's words (each typography rule shown to find what it forbids and to let good French be),
each ``.mo`` holds exactly what its ``.po`` says, and the catalogue holds every string
``makemessages`` collects and no other. The categories are the French edition's words, taken from
the catalogue (the msgstr of the English labels of ``scoring/rules/categories.py``), and agree
with the table of docs/scoring-rules.md.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from gettext import GNUTranslations
from pathlib import Path

import pytest
from django.utils import translation

from scoring.rules.categories import CATEGORIES, MAJORITY_LABEL
from tests.i18n.helpers import NEEDS_GETTEXT, PO, ROOT, gettext_tool, translations

# The French edition's words for the categories (its end-of-game rule text, as
# docs/scoring-rules.md quotes them), by key.
FRENCH_CATEGORIES = {
    "vp_track": "PV sur la piste à la fin de la partie",
    "starting_vp": "PV de départ",
    "explore_tokens": "Bonus des jetons Exploration",
    "farm_income": "Revenus des Fermes",
    "comb_pods": "Bonus des Alvéoles d’Hibernation",
    "hive_build_bonuses": "Bonus construits sur les alvéoles du plateau Ruche",
    "advance_strength4": "Ouvrier de force 4 sur l’action Évolution",
    "explore_strength4": "Bonus des planètes pour les ouvriers de force 4 sur l’action Exploration",
    "tile_abilities": "Activation des capacités des tuiles",
    "seed_card_benefits": "Bénéfices à usage unique sur les cartes Graine jouées",
    "planted_seed_cards": "Conditions des cartes Graine plantées",
    "farms": "Fermes construites",
    "recruits": "Recrues",
    "developments": "Innovations",
    "carvings": "Conditions des Sculptures construites",
    "queens_favor": "Position sur la piste Faveur de la Reine",
    "hive_mat_full": "Plateau Ruche rempli",
    "frames_filled": "Cadres remplis",
    "faction_ability": "Capacité de fin de partie de la faction",
}


def messages_of(mo: Path) -> dict:
    """What a .mo holds, as Python's gettext (and so Django) reads it."""
    with mo.open("rb") as handle:
        return GNUTranslations(handle)._catalog


def compiled(po: Path, mo: Path) -> dict:
    """The messages of ``po`` compiled into ``mo`` by ``msgfmt``, run as compilemessages runs it
    (``--check-format``)."""
    done = gettext_tool("msgfmt", "--check-format", "-o", str(mo), str(po))
    assert done.returncode == 0, done.stderr
    return messages_of(mo)


def stale_catalogues(locale_dir: Path, work: Path) -> list[Path]:
    """The .po files under ``locale_dir`` whose .mo is missing or does not hold exactly what
    ``msgfmt`` compiles from them (the messages compared, not the bytes)."""
    out_of_date = []
    for number, po in enumerate(sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))):
        fresh = compiled(po, work / f"fresh-{number}.mo")
        if not po.with_suffix(".mo").exists() or messages_of(po.with_suffix(".mo")) != fresh:
            out_of_date.append(po)
    return out_of_date


@NEEDS_GETTEXT
def test_every_entry_of_the_catalogue_has_its_french_translation(tmp_path):
    assert len(compiled(PO, tmp_path / "django.mo")) > 400
    untranslated = gettext_tool("msgattrib", "--untranslated", "--no-obsolete", str(PO))
    fuzzy = gettext_tool("msgattrib", "--only-fuzzy", "--no-obsolete", str(PO))
    assert untranslated.returncode == fuzzy.returncode == 0, untranslated.stderr + fuzzy.stderr
    assert untranslated.stdout == "", f"not translated:\n{untranslated.stdout}"
    assert fuzzy.stdout == "", f"fuzzy (to be checked, and left out by msgfmt):\n{fuzzy.stdout}"


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%|\{\}")


@NEEDS_GETTEXT
def test_each_translation_keeps_its_placeholders():
    forms = translations(PO)
    assert len(forms) > 400
    for english, french in forms:
        assert sorted(PLACEHOLDER.findall(french)) == sorted(PLACEHOLDER.findall(english)), (english, french)


# French as the edition writes it: a narrow no-break space (U+202F) before : ; ! ? and %, and
# inside « »; the comb always by its full name (a row's short words aside, its full words a tap
# away); a form that reads right before any name (no "de Alice", which French writes "d'Alice");
# the tie-break as the rules word it. And as a proofreader finishes it (issue 28): curly
# apostrophes and French quotation marks, never straight ones (Django's own French writes
# "Nom d’utilisateur" beside ours); no "(s)" for a plural a number decides (each number its own
# plural forms); a number and its unit never parted at the end of a line ("13 PV": a no-break space).
SPACE_BEFORE_SIGN = re.compile(
    r"[ \u00a0](?:[:;!?»]|%%(?!\())|«[ \u00a0]"
)  # (%%(time)s: a placeholder, in a template's text)
SIGN_WITHOUT_NARROW_SPACE = re.compile(r"[^\s\u202f/](?:[;!?»]|:(?=\s|$))|«[^\u202f]")
COMB_ALONE = re.compile(r"Alvéoles(?! d’Hibernation)")
BEFORE_A_NAME = re.compile(r"\b(?:[dD]e|[qQ]ue|[jJ]e) %\((?:name|names|keep|merged|site_name|player|who)\)s")
STRAIGHT_QUOTE = re.compile(r"['\"]")
PLURAL_SHORTCUT = re.compile(r"\w\((?:e?s|e)\)")
UNIT_APART = re.compile(
    r"(?:%\((?:count|counter|games|total|max|min|vp|workers|minutes|spaces|each|players|done|pool|nth|shown|amount|"
    r"limit_value|show_value)\)[sd]|\d) "
    r"(?:PV|chacun|pions?|ouvriers?|parties|partie|problèmes?|valeurs?|joueurs?|secteurs?|cases?|caractères|"
    r"minutes?|fichiers?)\b"
)  # (a number and its unit or noun: one unit, a no-break space between them)
# A person described by a gendered word (issue 50: « Élodie (gagnant) »): a name says nothing of
# its holder's gender, so the words are of the game ("victoire"), never of the person.
GENDERED_PERSON = re.compile(r"\b(?:[gG]agnante?s?|[vV]ainqueurs?|[pP]erdante?s?)\b")
FRENCH_RULES = (
    GENDERED_PERSON,
    SPACE_BEFORE_SIGN,
    SIGN_WITHOUT_NARROW_SPACE,
    COMB_ALONE,
    BEFORE_A_NAME,
    STRAIGHT_QUOTE,
    PLURAL_SHORTCUT,
    UNIT_APART,
)
SHORT_LABELS = {category.short_label for category in CATEGORIES} | {"Comb majorities"}


@NEEDS_GETTEXT
def test_the_french_catalogue_writes_french_typography_and_the_editions_words():
    wrong = []
    for english, french in translations(PO):
        for rule in FRENCH_RULES:
            if rule.search(french) and not (rule is COMB_ALONE and english in SHORT_LABELS):
                wrong.append(f"{rule.pattern}: {french!r}")
        if PLURAL_SHORTCUT.search(english):
            wrong.append(f"{PLURAL_SHORTCUT.pattern}: {english!r}")
        if "tie on active workers" in english or "win the tie" in english or "wins the tie" in english:
            assert "remport" not in french, french  # "l’emporte au départage"
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("french", "rule"),
    [
        ("Total : 12", SPACE_BEFORE_SIGN),
        ("Total\u00a0: 12", SPACE_BEFORE_SIGN),
        ("« oui »", SPACE_BEFORE_SIGN),
        ("50 %%", SPACE_BEFORE_SIGN),
        ("Total: 12", SIGN_WITHOUT_NARROW_SPACE),
        ("Vraiment?", SIGN_WITHOUT_NARROW_SPACE),
        ("les Alvéoles", COMB_ALONE),
        ("les Alvéoles d'Hibernation", COMB_ALONE),
        ("pions de %(name)s", BEFORE_A_NAME),
        ("l'Automa", STRAIGHT_QUOTE),
        ('pas d’utilisateur "%(name)s"', STRAIGHT_QUOTE),
        ("%(skipped)s déjà enregistrée(s)", PLURAL_SHORTCUT),
        ("ignoré(e)", PLURAL_SHORTCUT),
        ("%(vp)s PV de retard", UNIT_APART),
        ("8 PV par cadre", UNIT_APART),
        ("sur %(games)s parties terminées", UNIT_APART),
        ("avec %(workers)s ouvriers actifs", UNIT_APART),
        ("Au plus %(limit_value)d caractères", UNIT_APART),
        ("(gagnant)", GENDERED_PERSON),
        ("%(name)s, vainqueur de la partie", GENDERED_PERSON),
        ("Score gagnant moyen", GENDERED_PERSON),
    ],
)
def test_the_french_typography_rules_find_what_they_forbid(french, rule):
    assert rule.search(french)


@pytest.mark.parametrize(
    "french",
    [
        "Total\u202f: 12",
        "«\u202foui\u202f»",
        "50\u202f%%",
        "21:14",
        "https://x",
        "les Alvéoles d’Hibernation",
        "%(name)s\u202f: pions",
        "de %(count)s\u00a0parties",
        "à %%(time)s",
        "l’Automa",
        "pas d’utilisateur «\u202f%(name)s\u202f»",
        "(%(count)s\u00a0problèmes)",
        "%(vp)s\u00a0PV de retard",
        "sur %(games)s\u00a0parties terminées",
        "%(name)s a placé",
        "les PV de départ",
        "(victoire)",
        "Total moyen d’une victoire",
    ],
)
def test_the_french_typography_rules_let_good_french_be(french):
    assert not any(rule.search(french) for rule in FRENCH_RULES)


# Refusals and warnings as a person writes them, in both languages (issue 37): the value refused
# follows in parentheses, "(not 120)", « (et non 120) », never after a comma (", pas 120" is an
# English construction in French); no parentheses inside parentheses (a placeholder's own are
# not parentheses); after a colon inside a sentence the words go on in lowercase, "Farms built,
# Alice: the value must…" (a name of the game, or a word of capitals such as "BG Stats", stays).
NOT_AFTER_A_COMMA = re.compile(r", (?:not|pas) (?=%\(\w+\)[sd]|[\d−-])")
PLACEHOLDER_NAME = re.compile(r"%\((\w+)\)[sd]")
NESTED_PARENTHESES = re.compile(r"\([^()]*\(")
CAPITAL_AFTER_A_COLON = re.compile(r"\w\)?[\u202f\u00a0]?: ([A-ZÀ-Ý][a-zà-ÿ]+(?:[ ’'][A-ZÀ-Ý]?[a-zà-ÿ]+)*)")
NAMES_OF_THE_GAME = frozenset(
    re.findall(
        r"[A-ZÀ-Ý][a-zà-ÿ]+",
        " ".join(["Automa Apiary", *(category.label for category in CATEGORIES), *FRENCH_CATEGORIES.values()]),
    )
)  # (a category's name after a colon, "Catégorie : Fermes construites", is no sentence going on)


def sentence_faults(text: str) -> list[str]:
    """What a message of the catalogue (English or French) writes as a person would not."""
    faults = [rule.pattern for rule in (NOT_AFTER_A_COMMA,) if rule.search(text)]
    if NESTED_PARENTHESES.search(PLACEHOLDER_NAME.sub("x", text)):
        faults.append(NESTED_PARENTHESES.pattern)
    faults += [
        f"{CAPITAL_AFTER_A_COLON.pattern} ({words})"
        for words in CAPITAL_AFTER_A_COLON.findall(text)
        if re.split(r"[ ’']", words)[0] not in NAMES_OF_THE_GAME
    ]
    return faults


@NEEDS_GETTEXT
def test_the_catalogue_writes_refusals_as_a_person_writes_them():
    wrong = [
        f"{fault}: {text!r}"
        for english, french in translations(PO)
        for text in (english, french)
        for fault in sentence_faults(text)
    ]
    assert not wrong, "\n".join(wrong)


# The English, as the rulebook prints it, writes its apostrophes curly ("Queen’s Favor"), as the
# French does.
STRAIGHT_APOSTROPHE = re.compile(r"[A-Za-z]'(?:[A-Za-z]|\s)")


@NEEDS_GETTEXT
def test_the_english_writes_curly_apostrophes():
    straight = [english for english, _french in translations(PO) if STRAIGHT_APOSTROPHE.search(english)]
    assert not straight, "\n".join(straight)
    assert STRAIGHT_APOSTROPHE.search("Queen's Favor") and STRAIGHT_APOSTROPHE.search("the players' figures")
    assert not STRAIGHT_APOSTROPHE.search("Queen’s Favor, the players’ figures, 'track'")


@pytest.mark.parametrize(
    "text",
    [
        "Must be from %(low)s to %(high)s, not %(value)s.",
        "doit être un nombre entier de %(low)s à %(high)s, pas %(value)s",
        "must have 1 to 5 players, not 0",
        "(values already entered (%(what)s))",
        "Fermes construites, %(name)s\u202f: Doit être compris entre 0 et 99.",
        "Farms built, %(name)s: Must be from 0 to 99.",
        "Recrues\u202f: La valeur est refusée.",
    ],
)
def test_the_sentence_rules_find_what_they_forbid(text):
    assert sentence_faults(text)


@pytest.mark.parametrize(
    "text",
    [
        "The value must be from %(low)s to %(high)s (not %(value)s).",
        "La valeur doit être comprise entre %(low)s et %(high)s (et non %(value)s).",
        "At least 8 characters, not only digits, not a common password.",
        "Lecture seule\u202f: ce lien permet de suivre la partie, pas de la modifier.",
        "(%(count)s\u00a0problèmes)",
        "%(names)s (%(what)s)",
        "En minutes, facultatif\u202f: BG Stats l’enregistre avec la partie.",
        "Détail\u202f: PV de départ et chaque source de PV",
        "%(what)s\u202f: Faveur de la Reine",
        "%(label)s: %(value)s",
        "à 21:14",
    ],
)
def test_the_sentence_rules_let_good_sentences_be(text):
    assert not sentence_faults(text)


@NEEDS_GETTEXT
def test_each_compiled_catalogue_holds_exactly_what_its_po_says(tmp_path):
    assert stale_catalogues(ROOT / "locale", tmp_path) == [], (
        "run: scripts/messages.sh compile (Django's compilemessages), and commit the .mo"
    )


@NEEDS_GETTEXT
def test_a_compiled_catalogue_behind_its_po_is_found_out(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", locale)
    po = locale / "fr" / "LC_MESSAGES" / "django.po"
    assert stale_catalogues(locale, tmp_path) == []
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Recrues"', 'msgstr "Recrutées"', 1), encoding="utf-8")
    assert stale_catalogues(locale, tmp_path) == [po]  # a translation changed
    po.with_suffix(".mo").unlink()
    assert stale_catalogues(locale, tmp_path) == [po]  # none compiled


def test_the_categories_are_the_french_editions_words_from_the_catalogue():
    with translation.override("fr"):
        french = {category.key: translation.gettext(category.label) for category in CATEGORIES}
        majority = translation.gettext(MAJORITY_LABEL)
    assert french == FRENCH_CATEGORIES
    assert majority == "Majorité sur les secteurs des Alvéoles d’Hibernation"
    assert not any(hasattr(category, "label_fr") for category in CATEGORIES), "one label, the catalogue translates"


def test_docs_scoring_rules_name_the_categories_as_the_catalogue_does():
    rows = re.findall(
        r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \|", (ROOT / "docs" / "scoring-rules.md").read_text(), re.MULTILINE
    )
    documented = {key: french.strip() for key, french in rows}
    assert documented == FRENCH_CATEGORIES


@pytest.mark.skipif(
    shutil.which("xgettext") is None and os.environ.get("CI") != "true",
    reason="collecting the strings needs GNU gettext's xgettext (scripts/test.sh installs it)",
)
def test_the_catalogue_holds_every_string_makemessages_collects(tmp_path):
    """Django's makemessages, run on a copy of the project, finds no string that the committed
    catalogue lacks, and the catalogue keeps no string that is no longer used."""
    assert shutil.which("xgettext"), "GNU gettext (xgettext) is needed here"
    for name in ("scoring", "templates", "apiary_site", "static", "manage.py"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    (tmp_path / "locale" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(PO, tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.po")

    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "--locale",
            "fr",
            "--no-obsolete",
            "--add-location",
            "file",
            "-v",
            "0",
        ],
        cwd=tmp_path,
        check=True,
        timeout=300,
        env={
            **os.environ,
            "PYTHONPATH": str(tmp_path),
            "DJANGO_SETTINGS_MODULE": "apiary_site.settings",
            "DEBUG": "true",
        },
    )

    # msgcmp DEF REF: every message of REF is in DEF (its translation aside)
    collected = str(tmp_path / "locale/fr/LC_MESSAGES/django.po")
    new = gettext_tool("msgcmp", "--use-fuzzy", "--use-untranslated", "--no-fuzzy-matching", str(PO), collected)
    assert new.returncode == 0, f"new strings: run scripts/messages.sh and translate them\n{new.stderr}"
    gone = gettext_tool("msgcmp", "--use-fuzzy", "--use-untranslated", "--no-fuzzy-matching", collected, str(PO))
    assert gone.returncode == 0, f"strings no longer used: run scripts/messages.sh\n{gone.stderr}"


# Every refusal a person can meet on a page is the app's own, in its words (issue 50): never one of
# Django's (« Saisissez une adresse de courriel valide. » beside a page that says e-mail, "Ensure
# this value is less than or equal to 1440."). A message is the app's when the catalogue holds it.


def refusals_of(form) -> dict[str, str]:
    """Each refusal ``form`` can say (its own, and each field's and validator's, by code), in English."""
    said = {f"form.{code}": text for code, text in getattr(form, "error_messages", {}).items()}
    for name, field in form.fields.items():
        codes = dict(field.error_messages)
        for validator in field.validators:
            code = getattr(validator, "code", None)
            if getattr(validator, "message", None) and code not in codes:
                codes[code] = validator.message
        said.update({f"{name}.{code}": text for code, text in codes.items()})
    with translation.override("en"):
        return {where: str(text) for where, text in said.items()}


@functools.cache
def catalogue_english() -> frozenset[str]:
    """Every message of the catalogue, in English (read once: msgexec runs a shell a message)."""
    return frozenset(english for english, _french in translations(PO))


def not_the_apps(form) -> list[str]:
    """The refusals of ``form`` that are not the catalogue's (and so Django's own, or nobody's)."""
    return [f"{where}: {text}" for where, text in refusals_of(form).items() if text not in catalogue_english()]


def every_form_of_a_page():
    """One of each form a page shows (the start form's formsets' rows, Django's password pages')."""
    from django.contrib.auth.models import User

    from scoring.actors import Keeper
    from scoring.forms import accounts, games, pad, sharing, transfer

    someone = User(username="someone")
    return [
        accounts.SignUpForm(),
        accounts.AccountNameForm(),
        accounts.SignInForm(),
        accounts.PasswordResetAskForm(),
        accounts.NewPasswordForm(someone),
        accounts.PasswordNewForm(someone),
        games.PlayerRowForm(),
        games.SectorRowForm(),
        games.GameStartForm(keeper=Keeper()),
        games.PlayLengthForm(),
        games.HistoryFilterForm(),
        pad.FieldSaveForm({"field": "s1-farms"}),
        pad.LinkHolderNameForm(),
        pad.GameModeForm(),
        sharing.NextGameFollowForm(),
        transfer.GameFileUploadForm(),
    ]


@NEEDS_GETTEXT
def test_every_refusal_a_page_can_say_is_the_apps_own():
    faults = [fault for form in every_form_of_a_page() for fault in not_the_apps(form)]
    assert not faults, "Django's words on a page:\n" + "\n".join(faults)


@NEEDS_GETTEXT
def test_the_rule_finds_a_djangos_message_on_a_form():
    from django import forms

    class Plain(forms.Form):
        minutes = forms.IntegerField(max_value=1440)
        email = forms.EmailField()

    assert {
        "email.invalid: Enter a valid email address.",
        "email.required: This field is required.",
        "minutes.invalid: Enter a whole number.",
        "minutes.max_value: Ensure this value is less than or equal to %(limit_value)s.",
    } <= set(not_the_apps(Plain()))


def test_every_refusal_of_the_password_rules_is_the_apps_own():
    """Django's rules check the password (settings.AUTH_PASSWORD_VALIDATORS); each says why in
    the app's words, not in Django's (its parent's)."""
    from django.contrib.auth.password_validation import get_default_password_validators

    rules = get_default_password_validators()
    assert len(rules) == 4
    for language in ("en", "fr"):
        with translation.override(language):
            djangos = [
                rule for rule in rules if rule.get_error_message() == super(type(rule), rule).get_error_message()
            ]
        assert not djangos, (language, djangos)


# A page never names a file of the repository (issue 50: "(docs/game-file.md)" in the upload's hint):
# a person reading it has no repository. (A command's help may: its reader runs the code.)
REPOSITORY_PATH = re.compile(r"\b(?:docs|scoring|templates|static|tests|apiary_site|scripts)/[\w./-]*\w")


def page_messages(po_text: str) -> list[str]:
    """The English of each message of a .po text that a page can show: one used anywhere but in
    a command (its ``#:`` references)."""
    shown = []
    for entry in po_text.split("\n\n"):
        references = [word for line in entry.splitlines() if line.startswith("#:") for word in line[2:].split()]
        if references and all(reference.startswith("scoring/management/") for reference in references):
            continue
        english = re.search(r'^msgid ((?:".*"\n?)+)', entry, re.M)
        if english:
            shown.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', english.group(1))))
    return shown


def test_no_page_names_a_file_of_the_repository():
    named = [text for text in page_messages(PO.read_text()) if REPOSITORY_PATH.search(text)]
    assert not named, named


def test_the_rule_finds_a_repository_path_on_a_page_and_not_in_a_command():
    po = (
        '#: scoring/forms/transfer.py\nmsgid "A .json file (docs/game-file.md), at most 2 MB."\nmsgstr ""\n\n'
        '#: scoring/management/commands/restore.py\nmsgid "loaddata (docs/operations.md)"\nmsgstr ""\n'
    )
    assert [text for text in page_messages(po) if REPOSITORY_PATH.search(text)] == [
        "A .json file (docs/game-file.md), at most 2 MB."
    ]
