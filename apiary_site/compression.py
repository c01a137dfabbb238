"""Compression of pages and htmx answers, minding BREACH."""

from __future__ import annotations

from django.http import HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django_minify_html.middleware import MinifyHtmlMiddleware as _MinifyHtmlMiddleware


def keep_uncompressed[Answer: HttpResponseBase](response: Answer) -> Answer:
    """Mark an answer that shows a secret (a share link's token) beside text that others typed:
    ``CompressionMiddleware`` sends it as it is."""
    response.holds_secrets = True  # type: ignore[attr-defined]  # (our own mark, read below)
    return response


class CompressionMiddleware(GZipMiddleware):
    """Django's GZipMiddleware, except for a response marked ``holds_secrets``: a page that shows
    a secret (a share link's token) beside text that others typed is sent as it is, so that the
    size of its compressed form can never tell the secret (BREACH). The CSRF token needs no such
    care: Django masks it anew in every response."""

    def process_response(self, request, response):
        if getattr(response, "holds_secrets", False):
            return response
        return super().process_response(request, response)


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
