"""The app installed on a phone's home screen (scoring/views/install.py): the web app manifest every page
links, with what a phone needs to offer "Install" (a name, a start page, a standalone display,
icons of 192 and 512 pixels, whole and maskable), in the language of the request; and the icons
themselves, PNGs of the sizes they are declared at.

The browser's own reading of the manifest and its icons is tests/browser/test_install.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from scoring.views.install import BACKGROUND
from tests.support.pages import page

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
FR = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9,en;q=0.5"}


def manifest_of(response) -> dict:
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == "application/manifest+json"
    return json.loads(response.content)


def png_size(address: str) -> tuple[int, int]:
    """The width and height a static file's PNG header gives (it must be a PNG)."""
    assert address.startswith(settings.STATIC_URL), address
    found = finders.find(address.removeprefix(settings.STATIC_URL))
    assert found, f"{address} is not one of the static files"
    head = Path(found).read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{address} is not a PNG"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_the_manifest_has_what_a_phone_needs_to_install_the_app(client):
    manifest = manifest_of(client.get(reverse("manifest")))

    assert manifest["name"] == "Apiary Scorepad"
    assert manifest["short_name"] == "Apiary"
    assert manifest["description"].startswith("Score your Apiary games")
    assert manifest["start_url"] == manifest["id"] == manifest["scope"] == reverse("scoring:history") == "/"
    assert manifest["display"] == "standalone"
    assert (manifest["lang"], manifest["dir"]) == ("en", "ltr")


def test_the_manifest_offers_icons_of_192_and_512_pixels_whole_and_maskable(client):
    icons = manifest_of(client.get(reverse("manifest")))["icons"]

    offered = {(icon["sizes"], purpose) for icon in icons for purpose in icon["purpose"].split()}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= offered


def test_every_icon_of_the_manifest_is_a_png_of_the_size_it_declares(client):
    for icon in manifest_of(client.get(reverse("manifest")))["icons"]:
        width, height = (int(side) for side in icon["sizes"].split("x"))
        assert icon["type"] == "image/png"
        assert png_size(icon["src"]) == (width, height), icon


def test_every_icon_a_page_links_is_a_static_file_and_each_png_of_the_size_it_declares(client):
    html = page(client.get(reverse("scoring:history")))
    links = [link for link in html.find_all("link") if {"icon", "apple-touch-icon"} & set(link["rel"].split())]

    assert {link["rel"] for link in links} == {"icon", "apple-touch-icon"}
    assert any(link.get("type") == "image/svg+xml" for link in links)
    for link in links:
        if link.get("type") == "image/svg+xml":
            found = finders.find(link["href"].removeprefix(settings.STATIC_URL))
            assert found and Path(found).read_text().lstrip().startswith("<svg"), link
        else:
            width, height = (int(side) for side in link["sizes"].split("x"))
            assert png_size(link["href"]) == (width, height), link
    assert ("apple-touch-icon", "180x180") in {(link["rel"], link.get("sizes")) for link in links}


def test_the_manifest_is_in_french_for_a_phone_that_speaks_french(client):
    manifest = manifest_of(client.get(reverse("manifest"), **FR))

    assert manifest["name"] == "Bloc de score Apiary"
    assert manifest["short_name"] == "Apiary"
    assert manifest["description"].startswith("Comptez les points de vos parties d’Apiary sur votre téléphone\u202f: ")
    assert (manifest["lang"], manifest["dir"]) == ("fr", "ltr")


def test_the_manifest_is_in_the_language_chosen_with_the_switch(client):
    """The switch's choice (the language cookie) wins over the browser's Accept-Language, as on
    every page."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"

    manifest = manifest_of(client.get(reverse("manifest"), HTTP_ACCEPT_LANGUAGE="en"))

    assert manifest["name"] == "Bloc de score Apiary"
    assert manifest["lang"] == "fr"


def test_the_manifest_whose_address_names_a_language_is_in_that_language(client):
    """Every page links the manifest of its own language: a browser fetches it without cookies."""
    manifest = manifest_of(client.get(reverse("manifest") + "?lang=fr", HTTP_ACCEPT_LANGUAGE="en"))

    assert (manifest["name"], manifest["lang"]) == ("Bloc de score Apiary", "fr")
    assert manifest_of(client.get(reverse("manifest") + "?lang=xx", HTTP_ACCEPT_LANGUAGE="en"))["lang"] == "en"


def test_the_manifest_is_kept_an_hour_and_varies_with_the_language(client):
    """A cache keeps it apart per language cookie and per Accept-Language, and a phone that
    switches language reads the new one within the hour at most."""
    response = client.get(reverse("manifest"))

    assert re.search(r"\bmax-age=3600\b", response["Cache-Control"])
    assert "no-store" not in response["Cache-Control"]
    vary = {header.strip().lower() for header in response["Vary"].split(",")}
    assert {"cookie", "accept-language"} <= vary


def test_the_manifests_colours_are_the_light_themes_background(client):
    """The splash screen and title bar of the installed app: the stylesheet's --bg, the colour of
    the pages' own theme-color for a light phone."""
    manifest = manifest_of(client.get(reverse("manifest")))
    stylesheet = (ROOT / "static" / "scoring" / "app.css").read_text()
    light = page(client.get(reverse("scoring:history"))).one(
        "meta", name="theme-color", media="(prefers-color-scheme: light)"
    )

    assert manifest["theme_color"] == manifest["background_color"] == BACKGROUND == light["content"]
    assert re.search(r"--bg:\s*" + BACKGROUND + ";", stylesheet)
