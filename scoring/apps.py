from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Apiary scoring")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_logged_out
        from django.utils.translation import gettext

        from scoring import gamefile
        from scoring.services import uploads
        from scoring.views import preferences

        # The game file's problems in the language being spoken (the game file stays plain Python).
        gamefile.translate_with(gettext)
        # An account's language applies at every sign-in (scoring/views/preferences.py).
        user_logged_in.connect(preferences.on_sign_in, dispatch_uid="scoring.views.preferences.on_sign_in")
        # Signing out frees the session's place in the import's waiting room (scoring/services/uploads.py).
        user_logged_out.connect(uploads.upload_forget_on_sign_out, dispatch_uid="scoring.services.uploads.sign_out")
