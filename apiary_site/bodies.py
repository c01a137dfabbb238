"""Request bodies: one over what its page takes is refused with a 413 in words, before it is read.

Django refuses a form (or any body it is asked to read whole) larger than
``DATA_UPLOAD_MAX_MEMORY_SIZE`` by its Content-Length, but not the file parts of a multipart body:
those go, whatever their size, to memory or to the temporary folder, and reading a form is the
first thing the CSRF check does for any POST. ``BodyLimitUploadHandler``, the first of the
settings' ``FILE_UPLOAD_HANDLERS``, refuses a multipart body over its page's limit
(``body_limit``) before any of it is read, by its Content-Length, and while it streams, should it
be longer than it said (a WSGI request is read no further than its Content-Length; an ASGI server
hands the body over whole), before a byte past the limit reaches the handlers that keep files.
Both refusals are Django's ``RequestDataTooBig``, which ``bad_request`` (the site's ``handler400``)
answers with a 413 in words: for the pad's script one sentence, for a page ``413.html``.

A reverse proxy in front refuses far bigger bodies before the site sees them (docs/operations.md, Production).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views import defaults

from scoring.forms.transfer import MAX_UPLOAD_BYTES
from scoring.web.refusals import sentence, wants_sentence
from scoring.wording.numbers_and_dates import file_size

# Around the game file, the import's form: its CSRF token, the parts' headers, the boundaries.
FORM_AROUND_THE_FILE = 64 * 1024


def takes_a_game_file(request: HttpRequest) -> bool:
    return request.path_info == reverse("scoring:import")


def body_limit(request: HttpRequest) -> int:
    """The most a request's body may hold, in bytes: 256 KB (``DATA_UPLOAD_MAX_MEMORY_SIZE``;
    a save posts a few hundred bytes, the pad without JavaScript some kilobytes), and on the
    import a game file of 2 MB with its form."""
    if takes_a_game_file(request):
        return MAX_UPLOAD_BYTES + FORM_AROUND_THE_FILE
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


class BodyLimitUploadHandler(FileUploadHandler):
    """Keeps nothing itself: it counts what a multipart body holds and refuses it past its page's
    limit, before the handlers after it (Django's, in memory or in the temporary folder) are
    handed a byte over it. Its fields' values are Django's to limit (``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        assert self.request is not None  # (Django makes every upload handler with the request)
        self.limit, self.received = body_limit(self.request), 0
        if content_length > self.limit:
            raise RequestDataTooBig(f"Request body of {content_length} bytes refused: this address takes {self.limit}.")

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > self.limit:
            raise RequestDataTooBig(
                f"Request body refused past its first {self.limit} bytes: this address takes no more."
            )
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # (the file is the next handler's)


def too_big(request: HttpRequest) -> HttpResponse:
    """413 in words: what the page takes at most, and that nothing of it was kept."""
    if takes_a_game_file(request):
        message = _(
            "This file is bigger than a game file can be (at most %(limit)s): it was refused, and nothing was kept."
        ) % {"limit": file_size(MAX_UPLOAD_BYTES)}
    else:
        message = _(
            "What was sent is bigger than the pad takes (at most %(limit)s): it was refused, and nothing was saved."
        ) % {"limit": file_size(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}
    if wants_sentence(request):
        response = sentence(message, 413)
    else:
        response = render(request, "413.html", {"message": message}, status=413)
    add_never_cache_headers(response)
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 400 page (``templates/400.html``, Django's view), except for a body over the
    limit (``RequestDataTooBig``): ``too_big``."""
    if isinstance(exception, RequestDataTooBig):
        return too_big(request)
    return defaults.bad_request(request, exception)
