"""Refusals in words: a request the site will not serve now (over a rate limit, a database that
refuses to write, a game out of reach) is answered with the reason, as a page in the site's style
or, for the pad's script, one sentence of plain text, which it shows as it is."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import SafeData

from scoring.wording.sentences import plain_text


def sentence(message: str, status: int) -> HttpResponse:
    """The reason as one sentence of plain text (what the pad's script shows in its banner); a
    sentence made as HTML, its names isolated (``wording.sentences.words``), as its text."""
    text = plain_text(message) if isinstance(message, SafeData) else message
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


def wants_sentence(request: HttpRequest) -> bool:
    """Whether the request comes from the pad's script rather than a page being loaded: htmx says
    so (``HX-Request``), and the script's own requests prefer plain text (their ``Accept``)."""
    if request.headers.get("HX-Request") == "true":
        return True
    return request.get_preferred_type(["text/html", "text/plain"]) == "text/plain"


def refusal(request: HttpRequest, message: str, *, status: int, template: str, retry_after: int) -> HttpResponse:
    """The reason as ``template`` (a page, given ``message`` and ``retry_after``) or, for htmx, as a
    sentence (``wants_sentence``); never cached, with the seconds to wait before trying again (``Retry-After``)."""
    if wants_sentence(request):
        response = sentence(message, status)
    else:
        response = render(request, template, {"message": message, "retry_after": retry_after}, status=status)
    response["Retry-After"] = str(retry_after)
    add_never_cache_headers(response)
    return response
