"""Django's password validators (settings.AUTH_PASSWORD_VALIDATORS), each refusal in the app's
words (issue 50: Django's reach the sign-up and password pages otherwise). What they check is
Django's; only what they say is ours."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import gettext as _


class UserAttributeSimilarityValidator(password_validation.UserAttributeSimilarityValidator):
    def get_error_message(self) -> str:
        return _("This password is too close to your user name, name or e-mail: choose another.")


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return _("At least %(count)s characters: this password is shorter.") % {"count": self.min_length}


class CommonPasswordValidator(password_validation.CommonPasswordValidator):
    def get_error_message(self) -> str:
        return _("This password is one of the most common: choose another.")


class NumericPasswordValidator(password_validation.NumericPasswordValidator):
    def get_error_message(self) -> str:
        return _("A password of digits only is easy to guess: add letters.")
