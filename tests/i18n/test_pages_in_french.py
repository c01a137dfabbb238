"""Every page a player meets, rendered in French, shows French text and not one English word: the
pad, the comb's explanations, the tie-break sentences, the results and their chart, the history,
the start form, the error messages (the pages', the forms', the game file's, the rate limits'),
the spreadsheet and the mail. Numbers, dates and ordinals follow the language (1er, 2e; « 13 PV
partagés : 6\u00a0chacun », with the narrow no-break spaces of French typography), and a chart's
coordinates stay numbers an SVG reads. The detector of English words these tests rely on is
shown first to find English and let French be.
"""

from __future__ import annotations

import json
import re
from datetime import date
from html import unescape

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from scoring.actors import Actor
from scoring.models import Seat
from scoring.rules.engine import Sector, score_sector
from scoring.services.sharing import link_renew
from scoring.wording.explanations import sector_sentence
from scoring.wording.numbers_and_dates import ordinal
from tests.i18n.helpers import (
    FR,
    UNGROUPED_NUMBER,
    assert_french,
    english_in,
    shown,
    text_of,
    typography_in,
    ungrouped_numbers,
    url,
)
from tests.support.factories import game_scored, game_started, player, save_tokens, save_value, seat_of
from tests.support.pages import markup, parse

HTMX = {"HX-Request": "true"}


@pytest.fixture
def tied_game(owner):
    """A finished game with every kind of sentence: a tie for 1st in a sector (the French
    example, 13 VP shared by two), a sole leader with a 2nd, a tie on VP broken by workers, and a
    tie on VP and workers (a shared place)."""
    return game_scored(
        player("Alice", workers=1, farm_income=40, tokens=[2, 1, 0]),
        player("Bruno", workers=3, farm_income=34, tokens=[2, 0, 1]),
        player("Carla", workers=2, farm_income=20, farms=3, tokens=[0, 0, 3]),
        player("Dana", workers=2, farm_income=29, tokens=[0, 0, 0]),
        finished=True,
    )


def test_the_english_detector_finds_english_and_lets_french_be():
    assert english_in("<p>Bruno wins the tie-break with 3 active workers, ahead of Alice (1).</p>")
    assert english_in('<button aria-label="Add one: Farms built">+</button>')
    assert english_in("<li>2nd Bruno</li>")
    assert english_in("<li>(document) : n’est pas du JSON valide : Expecting property name enclosed</li>")
    assert english_in("<li>Invalid control character</li>")
    assert not english_in("<p>Bruno l'emporte au départage aux ouvriers actifs, 3 contre 1. On compte les points.</p>")
    assert not english_in('<form><button lang="en">English</button></form><script>var saved = "yes";</script>')


@pytest.mark.parametrize(
    "html",
    [
        pytest.param("<h1>Scores <small>mar. 1er déc. 2026</small></h1>", id="a-date-with-spaces"),
        pytest.param("<p>le 5 déc.\u00a02026</p>", id="a-day-apart-from-its-month"),
        pytest.param("<span>80 PV</span>", id="a-figure-apart-from-its-unit"),
        pytest.param("<p>Sur 2 parties terminées.</p>", id="a-number-apart-from-its-noun"),
        pytest.param("<td>-1,7\u202f%</td>", id="a-hyphen-for-a-minus"),
        pytest.param("<p>Sculptures -3</p>", id="a-hyphen-for-a-minus-after-a-word"),
    ],
)
def test_the_typography_detector_finds_what_breaks_apart_or_reads_as_a_hyphen(html):
    assert typography_in(html)


def test_the_typography_detector_lets_whole_dates_and_figures_be():
    assert not typography_in(
        "<p>mar.\u00a01er\u00a0déc.\u00a02026, 80\u00a0PV, −1,7\u202f%, 2026-12-05, Jean-Marie, AAAA-MM-JJ, "
        "3 contre 1, à 21\u202fh\u202f14</p>"
    )


@pytest.mark.django_db
def test_the_pad_in_french_shows_the_french_editions_words_and_no_english(french):
    game = game_started("Alice", "Bruno", "Carla")

    html = assert_french(french.get(url("pad", game)), status=200)

    text = text_of(html)
    for words in (
        "Au cours de la partie",
        "Fin de la partie",
        "Revenus des Fermes",
        "Alvéoles d’Hibernation",
        "Majorité sur les secteurs des Alvéoles d’Hibernation",
        "Position sur la piste Faveur de la Reine",
        "Cadres remplis",
        "Ouvriers actifs",
        "Classement",
        "Terminer la partie",
        "Tout enregistrer",
    ):
        assert words in text, words
    assert 'aria-label="Revenus des Fermes, Alice"' in html
    script_words = json.loads(re.search(r'<script[^>]*id="?pad-words"?[^>]*>(.*?)</script>', html).group(1))
    assert script_words["msgSaving"] == "Enregistrement…"
    assert script_words["msgWaitingMany"] == "%(count)s\u00a0valeurs ne sont pas encore enregistrées."


@pytest.mark.django_db
def test_the_comb_explanations_in_french(french, tied_game):
    html = assert_french(french.get(url("pad", tied_game)), status=200)

    text = text_of(html)
    assert (
        "Alice et Bruno sont à égalité pour la 1re place avec 2\u00a0pions. "
        "13\u00a0PV partagés\u202f: 6\u00a0chacun, arrondi "
        "à l’inférieur. Aucun PV pour la 2e place."
    ) in text
    assert "Alice est majoritaire avec 1\u00a0pion\u202f: 13\u00a0PV." in text
    assert (
        "Carla est majoritaire avec 3\u00a0pions\u202f: 6\u00a0PV. Bruno est 2e avec 1\u00a0pion\u202f: 3\u00a0PV."
        in text
    )


@pytest.mark.parametrize(
    ("first", "second", "tokens", "expected"),
    [
        pytest.param(9, 4, [0, 0, 0], "Aucun pion pour l’instant\u202f: personne ne marque de points.", id="empty"),
        pytest.param(
            9,
            4,
            [2, 2, 0],
            "Alice et Bruno sont à égalité pour la 1re place avec 2\u00a0pions. 13\u00a0PV partagés\u202f: "
            "6\u00a0chacun, arrondi à l’inférieur. Aucun PV pour la 2e place.",
            id="the-french-example",
        ),
        pytest.param(
            9,
            4,
            [0, 3, 0],
            "Bruno est majoritaire avec 3\u00a0pions\u202f: 9\u00a0PV. Personne d’autre n’a de pion ici\u202f: "
            "la 2e place n’est pas attribuée.",
            id="alone",
        ),
        pytest.param(
            13,
            0,
            [3, 1, 0],
            "Alice est majoritaire avec 3\u00a0pions\u202f: 13\u00a0PV. Ce secteur n’accorde rien pour la 2e place.",
            id="no-2nd-award",
        ),
        pytest.param(
            9,
            5,
            [3, 1, 1],
            "Alice est majoritaire avec 3\u00a0pions\u202f: 9\u00a0PV. Bruno et Carla sont à égalité pour "
            "la 2e place avec 1\u00a0pion. 5\u00a0PV partagés\u202f: 2\u00a0chacun, arrondi à l’inférieur.",
            id="tie-for-2nd",
        ),
    ],
)
def test_sector_sentences_in_french(first, second, tokens, expected):
    with translation.override("fr"):
        assert shown(sector_sentence(score_sector(0, Sector(first, second), tokens), ["Alice", "Bruno", "Carla"])) == (
            expected
        )


@pytest.mark.parametrize(
    ("number", "english", "french"),
    [
        (1, "1st", "1er"),
        (2, "2nd", "2e"),
        (3, "3rd", "3e"),
        (4, "4th", "4e"),
        (11, "11th", "11e"),
        (21, "21st", "21e"),
    ],
)
def test_ordinals_are_plain_text_in_both_languages(number, english, french):
    from django.contrib.humanize.templatetags.humanize import ordinal as humanize_ordinal

    assert ordinal(number) == english
    with translation.override("fr"):
        assert ordinal(number) == french
        assert humanize_ordinal(number) == french, "the catalogue gives Django's filter the same plain words"


@pytest.mark.django_db
def test_the_results_in_french_rank_with_french_ordinals_shared_places_included(french, tied_game):
    html = assert_french(french.get(url("results", tied_game)), status=200)

    text = text_of(html)
    ranks = re.findall(r'<span class="rank">([^<]*)</span>', html)
    assert ranks == ["1er", "2e", "3e", "3e"], "Carla and Dana share 3rd place"
    assert "Alice gagne" in text
    assert "Alice l’emporte au départage" not in text  # Alice leads on VP alone
    assert "Carla et Dana se partagent la 3e place\u202f: 29\u00a0PV et 2\u00a0ouvriers actifs chacun." in text
    assert "Points par catégorie" in text and "Détail" in text
    legend = [unescape(item) for item in re.findall(r"</svg> ([^<]+)</li>", html)]  # each bar's, in the edition's words
    assert re.fullmatch(r"Au cours de la partie\s:\s\d+\sPV", legend[0]), legend[0]
    assert any(
        re.fullmatch(r"Majorité sur les secteurs des Alvéoles d’Hibernation\s:\s\d+\sPV", item) for item in legend
    )
    assert "Secteur 1\u202f: Alice et Bruno sont à égalité pour la 1re place" in text


@pytest.mark.django_db
def test_a_shared_victory_in_french(french):
    game = game_scored(
        player("Alice", workers=2, farm_income=30), player("Bruno", workers=2, farm_income=30), finished=True
    )

    text = text_of(assert_french(french.get(url("results", game)), status=200))

    assert "Victoire partagée\u202f: Alice et Bruno" in text
    assert "Alice et Bruno se partagent la victoire\u202f: 30\u00a0PV et 2\u00a0ouvriers actifs chacun." in text


@pytest.mark.django_db
def test_the_history_in_french_with_french_dates(french, owner):

    game_scored(player("Alice", farm_income=3), player("Bruno"), played_on=date(2026, 11, 29), finished=True)
    game_started("Alice", "Carla", played_on=date(2026, 5, 1))

    html = assert_french(french.get(url("history")), status=200)

    text = text_of(html)
    assert (
        "dim.\u00a029\u00a0nov.\u00a02026" in text and "ven.\u00a01er\u00a0mai\u00a02026" in text
    )  # the first of the month: "1er"
    assert "2\u00a0parties" in text and "en cours" in text and "Chercher des parties" in text
    filtered = assert_french(
        french.get(url("history") + "?player=Alice&status=finished&since=2026-12-01&until=2026-01-01")
    )
    assert "La fin de la période précède son début." in text_of(filtered)
    assert parse(filtered).one("input", name="since")["value"] == "2026-12-01"


@pytest.mark.parametrize(
    ("language", "day", "written"),
    [
        ("fr", date(2026, 12, 1), "mar.\u00a01er\u00a0déc.\u00a02026"),
        ("fr", date(2026, 12, 2), "mer.\u00a02\u00a0déc.\u00a02026"),
        ("en", date(2026, 12, 1), "Tue\u00a01\u00a0Dec\u00a02026"),
    ],
)
def test_a_games_date_is_written_as_the_language_writes_it(language, day, written):
    """One unit: its parts joined by no-break spaces, never broken across lines."""
    from scoring.templatetags.words import game_date

    with translation.override(language):
        assert game_date(day, translation.gettext("D j M Y")) == written


@pytest.mark.django_db
def test_the_start_form_in_french_and_its_errors(french):
    html = assert_french(french.get(url("start")), status=200)

    text = text_of(html)
    assert "Joueurs, dans l’ordre du tour" in text and "Secteurs des Alvéoles d’Hibernation" in text
    assert "Quand un joueur place son 7e pion Hibernation (règles françaises)" in text
    assert "Quand un joueur place son 6e pion Hibernation (règles anglaises)" in text
    today = timezone.localdate().isoformat()
    assert parse(html).one("input", type="date", name="played_on")["value"] == today, (
        "a date field holds YYYY-MM-DD in every language (30/11/2026 is no date to a browser)"
    )
    data = {
        "player-TOTAL_FORMS": "5",
        "player-INITIAL_FORMS": "0",
        "sector-TOTAL_FORMS": "20",
        "sector-INITIAL_FORMS": "0",
        "played_on": "",
        "end_trigger_token": "7",
        "sector-0-second": "4",
        "sector-1-first": "120",
    }
    refused = text_of(assert_french(french.post(url("start"), data), status=422))
    assert "Saisissez le nom d’au moins un joueur." in refused
    assert "Ce champ est à remplir." in refused  # the app's own words, never Django's (issue 50)
    assert "Indiquez aussi les PV de la 1re place de ce secteur." in refused
    solo = dict(data, solo="on", **{"player-0-name": "Alice", "player-1-name": "Bruno"})
    assert "Une partie en solo a exactement un joueur" in text_of(assert_french(french.post(url("start"), solo)))


@pytest.mark.django_db
def test_the_pads_error_messages_in_french(french):
    game = game_started("Alice", "Bruno")

    answer = french.post(
        url("save", game), {"field": "s1-farms", "value": "120", "version": "0", "page": "a", "seq": "1"}, headers=HTMX
    )
    assert answer.status_code == 422
    assert re.search(
        r"Fermes construites, Alice\u202f: la valeur doit être comprise entre 0 et 99 \(et non 120\)\.",
        text_of(assert_french(answer)),
    )

    answer = french.post(
        url("save", game),
        {"field": "s2-farm_income", "value": "3+x", "version": "0", "page": "a", "seq": "2"},
        headers=HTMX,
    )
    assert "Bruno\u202f: saisissez un nombre entier, comme 12, ou une somme, comme 3+6+2." in text_of(
        assert_french(answer)
    )

    save_tokens(seat=seat_of(game, 1), sector=game.sectors.get(position=0), count=6)
    answer = french.post(
        url("save", game), {"field": "s1-t1", "value": "4", "version": "0", "page": "a", "seq": "3"}, headers=HTMX
    )
    assert (
        "Alice ne possède que 7\u00a0pions Hibernation et en a 6 dans d’autres secteurs\u202f: 1 au plus ici."
        in text_of(assert_french(answer))
    )

    finish = text_of(assert_french(french.post(url("finish", game)), status=200))
    assert "Rien n’a encore été saisi pour\u202f:" in finish and "Revenus des Fermes" in finish


@pytest.mark.django_db
def test_refusals_in_french(french, client, settings):
    assert_french(french.get("/games/no-such-game/"), status=404)
    gone = french.get(reverse("scoring:join", args=["no-such-link"]))
    assert "Ce lien ne fonctionne pas (ou plus)" in text_of(assert_french(gone, status=404))

    settings.RATE_LIMITS = {"login": {"address": (1, 900)}}
    stranger = Client(**FR)
    stranger.post(reverse("login"), {"username": "x", "password": "y"})
    refused = stranger.post(reverse("login"), {"username": "x", "password": "y"})
    assert "Trop de tentatives de connexion" in text_of(assert_french(refused, status=429))


@pytest.mark.django_db
def test_who_made_a_change_in_french_a_link_holder_always_marked_as_one(french, owner):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3, by=Actor(user=owner))
    holder = Actor(link=link_renew(game=game, access="edit"), name="Olivia")
    save_value(seat=seat_of(game, 2), key="farms", value=4, by=holder)

    assert "par Olivia (lien de saisie)" in text_of(markup(french.get(url("pad", game))))
    assert "par le propriétaire" in text_of(markup(french.get(url("pad", game))))  # no name given
    owner.first_name = "Olivia"
    owner.save()
    shown = text_of(markup(french.get(url("pad", game))))
    assert "par Olivia (lien de saisie)" in shown and re.search(r"par Olivia(?! \()", shown)


@pytest.mark.django_db
def test_every_other_page_in_french(french, tied_game):
    pages = [
        url("players"),
        url("statistics"),
        url("data"),
        url("delete", tied_game),
        url("start"),
        url("again", tied_game),
        reverse("password_change"),
        reverse("account_name"),
        reverse("scoring:player", args=[tied_game.seats.first().player_id]),
    ]
    for address in pages:
        assert_french(french.get(address), status=200)
    anonymous = Client(**FR)
    for address in (url("history"), reverse("login"), reverse("signup"), reverse("password_reset")):
        assert_french(anonymous.get(address), status=200)
    wrong = anonymous.post(reverse("login"), {"username": "owner", "password": "nope"})
    assert_french(wrong, status=200)
    assert "Nom d’utilisateur ou mot de passe incorrect (attention aux majuscules)." in text_of(markup(wrong))
    assert "E-mail" in text_of(markup(anonymous.get(reverse("password_reset"))))  # (Django: « Courriel »)


@pytest.mark.django_db
def test_numbers_follow_the_language(owner, french):
    game_scored(player("Alice", farm_income=20), player("Bruno", farm_income=10), finished=True)
    game_scored(player("Alice", farm_income=5), player("Bruno", farm_income=30), finished=True)
    english = Client()
    english.force_login(owner)
    alice = reverse("scoring:player", args=[Seat.objects.filter(name="Alice").first().player_id])

    french_figures = text_of(assert_french(french.get(alice), status=200))
    english_figures = text_of(markup(english.get(alice)))

    assert "Moyenne 12,5" in french_figures and "Revenus des Fermes 12,5" in french_figures
    assert "Taux de victoire 50\u202f%" in french_figures, "a narrow no-break space before the percent sign"
    assert "Average 12.5" in english_figures and "Win rate 50%" in english_figures
    today = timezone.localdate()
    with translation.override("fr"):
        day = "1er" if today.day == 1 else today.day  # the first of the month, as French writes it
        french_date = f"{day} {formats.date_format(today, 'N Y')}".replace(" ", "\u00a0")  # (one unit)
    assert french_figures.count(french_date) >= 3, "the chart's dates follow the language too"


@pytest.mark.django_db
def test_the_charts_are_drawn_with_numbers_an_svg_reads_in_every_language(owner, french):
    """A chart's coordinates are written for the browser, not for the reader: 12.5 stays 12.5 in
    French (12,5 is no length to an SVG, which then drew no bar and logged an error per rect)."""
    game = game_scored(
        player("Alice", farm_income=7, farms=3), player("Bruno", farm_income=10, recruits=3), finished=True
    )
    game_scored(player("Alice", farm_income=5), player("Bruno", farm_income=30), finished=True)
    alice = reverse("scoring:player", args=[Seat.objects.filter(name="Alice").first().player_id])
    geometry = re.compile(r'\s(x|y|x1|y1|x2|y2|cx|cy|r|width|height|viewBox|points)="([^"]*)"')
    number = r"-?\d+(\.\d+)?"
    grammar = {"viewBox": rf"{number}( {number}){{3}}", "points": rf"{number},{number}( {number},{number})*"}

    for page in (url("results", game), alice):
        html = assert_french(french.get(page), status=200)
        charts = re.findall(r'<svg [^>]*class="(?:chart|bar-svg).*?</svg>', html, flags=re.DOTALL)
        assert charts, page
        attributes = [attribute for chart in charts for attribute in geometry.findall(chart)]
        assert any(re.search(r"\d[.,]\d", value) for name, value in attributes if name != "points"), (
            "the test needs a coordinate with decimals"
        )
        assert [
            (name, value) for name, value in attributes if not re.fullmatch(grammar.get(name, number), value)
        ] == [], page


@pytest.mark.django_db
def test_a_game_files_problems_in_french(french):
    from django.core.files.uploadedfile import SimpleUploadedFile

    document = {
        "format": "apiary-scorepad",
        "version": 1,
        "games": [{"players": [{"name": "Alice", "end": {"farms": 120}}, {"name": " "}]}],
    }
    upload = SimpleUploadedFile("partie.json", json.dumps(document).encode(), content_type="application/json")

    text = text_of(assert_french(french.post(url("import"), {"file": upload}), status=422))

    assert "partie.json ne peut pas être importé (2\u00a0problèmes)\u202f: rien n’a été ajouté." in text
    assert "games[0].players[0].end.farms\u202f: doit être un nombre entier de 0 à 99 (et non 120)" in text
    assert "games[0].players[1].name\u202f: ne doit pas être vide" in text


@pytest.mark.django_db
def test_a_file_that_is_not_json_is_said_in_french(french):
    """Python's json module words its findings in English: the page says them in French."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(
        "partie.json", b'{\n  "games": [\n    {players: []}\n  ]\n}', content_type="application/json"
    )

    text = text_of(assert_french(french.post(url("import"), {"file": upload}), status=422))

    assert (
        "(document)\u202f: n’est pas du JSON valide à la ligne 3, colonne 6\u202f: "
        "une clé entre guillemets droits est attendue" in text
    )


# A column of an export named by its key in the code (issue 50: "played_on", "vp_track").
RAW_KEY = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+")


@pytest.mark.parametrize(
    ("name", "raw"), [("played_on", True), ("vp_track", True), ("Date", False), ("Farm income", False)]
)
def test_the_rule_finds_a_raw_key_in_an_exports_header(name, raw):
    assert bool(RAW_KEY.fullmatch(name)) is raw


@pytest.mark.django_db
def test_the_spreadsheet_speaks_the_language_of_the_page(owner, french, tied_game):
    english = Client()
    english.force_login(owner)
    english_header = english.get(url("export_csv")).content.decode("utf-8-sig").splitlines()[0]
    french_rows = french.get(url("export_csv")).content.decode("utf-8-sig").splitlines()

    assert english_header.startswith("Date,Game,Finished,Seat,Player,Faction,Automa,")
    for header in (english_header.split(","), french_rows[0].split(";")):  # a column named in words, never a key
        assert not [name for name in header if RAW_KEY.fullmatch(name)]
    header = french_rows[0]  # columns separated by semicolons, as a French spreadsheet opens them
    assert header.startswith(
        "Date;Partie;Terminée;Place;Joueur;Faction;Automa;PV sur la piste à la fin de la partie;PV de départ;"
    )
    assert "Revenus des Fermes" in header and "Capacité de fin de partie de la faction" in header
    assert not english_in(f"<p>{header}</p>")
    assert ";oui;" in french_rows[1]


@pytest.mark.django_db
def test_the_password_reset_mail_in_french(owner):
    owner.email = "owner@example.com"
    owner.save()

    Client(**FR).post(reverse("password_reset"), {"email": "owner@example.com"})

    (message,) = mail.outbox
    assert message.subject.startswith("Choisissez un nouveau mot de passe pour le bloc de score Apiary")
    assert message.body.startswith("Bonjour owner,")
    assert not english_in(f"<p>{message.subject} {message.body.replace('://', ' ')}</p>")


# A number over 999 is written with its thousands separator (issue 50: « Plus de 10000 parties »,
# "1500"), on every page in either language: French « 1 500 » (a narrow no-break space), "1,500".


def big_statistics():
    from scoring.selectors.statistics import OverallStatistics, Share, WinRate

    return OverallStatistics(
        games=1500,
        average_winning_score=1234.5,
        shares=[Share(label="Farm income", vp=123456, percent=60.0, short="Farm income")],
        by_faction=[WinRate(label="Ana", seats=1200, wins=1100)],
        by_seat=[WinRate(label="1", seats=1500, wins=1001)],
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", ["1,500", "1,234.5", "123,456", "1,200", "1,100", "1,001"]),
        ("fr", ["1\u202f500", "1\u202f234,5", "123\u202f456", "1\u202f200", "1\u202f100", "1\u202f001"]),
    ],
)
def test_the_statistics_write_numbers_over_999_with_their_thousands_separator(owner, monkeypatch, language, written):
    monkeypatch.setattr("scoring.views.games.overall_statistics", lambda user: big_statistics())
    phone = Client(HTTP_ACCEPT_LANGUAGE=language)
    phone.force_login(owner)

    html = markup(phone.get(url("statistics")))

    assert not ungrouped_numbers(html)
    assert all(number in text_of(html) for number in written), text_of(html)


@pytest.mark.parametrize("text", ["Plus de 10000 parties", "1500 PV", "Sur 1234 parties terminées.", "over 1500 games"])
def test_the_rule_finds_a_number_over_999_without_its_separator(text):
    assert UNGROUPED_NUMBER.search(text)


@pytest.mark.parametrize(
    "text", ["Plus de 10\u202f000 parties", "1,500 VP", "6 déc. 2026", "999 PV", "21:14", "2026-11-29"]
)
def test_the_rule_lets_grouped_numbers_years_and_times_be(text):
    assert not UNGROUPED_NUMBER.search(text)
