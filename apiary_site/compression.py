"""Compression of pages and htmx answers, minding BREACH."""

from __future__ import annotations

import re

import brotli
from django.http import HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers
from django_minify_html.middleware import MinifyHtmlMiddleware as _MinifyHtmlMiddleware


def keep_uncompressed[Answer: HttpResponseBase](response: Answer) -> Answer:
    """Mark an answer that shows a secret (a share link's token) beside text that others typed:
    ``CompressionMiddleware`` sends it as it is."""
    response.holds_secrets = True  # type: ignore[attr-defined]  # (our own mark, read below)
    return response


# Brotli's quality for pages and answers, made for each request: 5 compresses the 20-sector pad
# (114 KB) to 9.6 KB in 0.8 ms, where gzip (Django's, level 6) gives 12.2 KB in the same time;
# quality 11, WhiteNoise's for the static files compressed ahead, takes 110 ms.
BROTLI_QUALITY = 5
_ACCEPTS_BROTLI = re.compile(r"\bbr\b")


class CompressionMiddleware(GZipMiddleware):
    """Django's GZipMiddleware, with Brotli first for a phone that accepts it (a browser asks for
    it over HTTPS; over a home network's plain HTTP it asks for gzip only): 20 % fewer bytes for
    the same work (``BROTLI_QUALITY``). Except for a response marked ``holds_secrets``: a page
    that shows a secret (a share link's token) beside text that others typed is sent as it is, so
    that the size of its compressed form can never tell the secret (BREACH). The CSRF token needs
    no such care: Django masks it anew in every response."""

    def process_response(self, request, response):
        if getattr(response, "holds_secrets", False):
            return response
        if (
            response.streaming
            or response.has_header("Content-Encoding")
            or not _ACCEPTS_BROTLI.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
        ):
            return super().process_response(request, response)  # (gzip, or nothing, as Django decides)
        if len(response.content) < 200:  # (as Django's: not worth it)
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        compressed = brotli.compress(response.content, quality=BROTLI_QUALITY)
        if len(compressed) >= len(response.content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        if (etag := response.get("ETag")) and etag.startswith('"'):  # (a strong ETag is for these bytes only)
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "br"
        return response


class MinifyHtmlMiddleware(_MinifyHtmlMiddleware):
    """django-minify-html's middleware: every page and htmx answer minified (minify-html) before
    ``CompressionMiddleware`` compresses it, so that the templates are laid out for people. It
    keeps what a reader of the answer relies on: the closing tags and the <html> and <head> tags
    (the parsers of the tests, and a person reading an answer in the browser's tools), and the
    text inputs' ``type`` (the stylesheets select them by it)."""

    minify_args = {
        **_MinifyHtmlMiddleware.minify_args,
        "keep_closing_tags": True,
        "keep_html_and_head_opening_tags": True,
        "keep_input_type_text_attr": True,
    }
