from django.urls import include, path

from apiary_site.health import healthz
from scoring.views import accounts, install, preferences
from scoring.views.offline import service_worker

# A body over what its page takes is answered 413 in words (apiary_site/bodies.py); any other 400, templates/400.html.
handler400 = "apiary_site.bodies.bad_request"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # What a phone reads to install the app on its home screen (scoring/views/install.py).
    path("manifest.webmanifest", install.manifest, name="manifest"),
    # The service worker, from the root: its scope is every page (scoring/views/offline.py).
    path("sw.js", service_worker, name="service_worker"),
    # The language switch of every page: Django's set_language, the choice also kept for the account.
    # The same URLs serve every language (no language prefix).
    path("i18n/setlang/", preferences.language_set, name="set_language"),
    path("accounts/signup/", accounts.sign_up, name="signup"),
    path("accounts/name/", accounts.account_name, name="account_name"),
    # Before Django's own: sign-in and password reset with the abuse limits (scoring/web/limits.py).
    path("accounts/login/", accounts.SignInView.as_view(), name="login"),
    path("accounts/password_reset/", accounts.PasswordResetRequestView.as_view(), name="password_reset"),
    path("accounts/reset/<uidb64>/<token>/", accounts.password_reset_confirm, name="password_reset_confirm"),
    path("accounts/password_change/", accounts.password_change, name="password_change"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("scoring.urls")),
]
