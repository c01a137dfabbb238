"""The two look-ups every signed-in request makes, its session and its account, each one
compiled statement (``scoring.compiled``) instead of a queryset compiled anew per request: on a
save they cost more to compile than to run (docs/performance.md). Same rows, same answers as
Django's own: settings.SESSION_ENGINE names this module, AUTHENTICATION_BACKENDS its backend."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.core.exceptions import SuspiciousOperation
from django.utils import timezone

from scoring.compiled import Compiled

_session = Compiled(lambda key: Session.objects.filter(session_key=key))
_account = Compiled(lambda pk: get_user_model()._default_manager.filter(pk=pk))


class SessionStore(DatabaseSessionStore):
    """Django's database sessions; a session past its expiry date is none, as there."""

    def _get_session_from_db(self):
        try:
            found = next(iter(_session(self.session_key, using=self.model.objects.db)), None)
        except SuspiciousOperation as refused:  # (as Django's own: logged, and no session)
            logging.getLogger(f"django.security.{refused.__class__.__name__}").warning(str(refused))
            found = None
        if found is None or found.expire_date <= timezone.now():
            self._session_key = None
            return None
        return found


class AccountBackend(ModelBackend):
    """Django's ModelBackend: signing in is its own; the account of a session is one compiled
    statement."""

    def get_user(self, user_id):
        user = next(iter(_account(user_id)), None)
        return user if user is not None and self.user_can_authenticate(user) else None
