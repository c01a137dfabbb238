"""A HEAD request is answered as GET is, without the body (RFC 9110, 9.3.2)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse


def head_without_body(get_response: Callable[[HttpRequest], HttpResponseBase]):
    """The answer to HEAD is GET's, status and headers (its Content-Length too), with no body,
    whatever server runs the site: Django's runserver leaves the body out itself,
    but Django's WSGI application hands it over, and a server that sends what it is handed
    (Python's wsgiref) would send it. Outermost of the middleware, so that it sees the answer as
    it leaves (compressed, with every header)."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = get_response(request)
        if request.method == "HEAD":
            if isinstance(response, StreamingHttpResponse):
                response.streaming_content = []
            elif isinstance(response, HttpResponse):
                response.content = b""
        return response

    return middleware
