from django.urls import include, path

from scoring import accounts

urlpatterns = [
    path("accounts/signup/", accounts.sign_up, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("scoring.urls")),
]
