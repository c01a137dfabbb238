"""An account: signing up, signing in, asking for a new password, and the name it is shown by."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from scoring.forms.names import PersonNameField
from scoring.forms.own_words import OwnWords

# The password's rules in a line (Django's validators, settings.AUTH_PASSWORD_VALIDATORS, check
# them), where Django's help is a list of four.
PASSWORD_HELP = _("At least 8 characters, not only digits, not a common password.")


class SignUpForm(OwnWords, UserCreationForm):
    """A new account: a user name and a password, typed twice; the name others see beside its
    changes (never the user name, which signs in) and an email address, both if the player
    wants."""

    first_name = PersonNameField(
        label=_("Your name (optional)"),
        help_text=_("Shown beside your changes to the people you share a game with; your user name never is."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only to reset your password if you forget it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "first_name", "email")
        error_messages = {"username": {"unique": _("This user name is taken: choose another.")}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # One short form: a line of help each, not the validators' paragraph (they still check).
        self.fields["username"].help_text = _("Letters, digits and @ . + - _ only.")
        self.fields["username"].error_messages["invalid"] = _(
            "A user name holds letters, digits and @ . + - _ only: type it again without the others."
        )
        self.fields["password1"].help_text = PASSWORD_HELP
        self.fields["password2"].help_text = ""


class AccountNameForm(OwnWords, forms.ModelForm):
    """The name an account is shown by to the people it shares games with (``models.display_name``:
    Django's first_name)."""

    first_name = PersonNameField(
        label=_("Your name"),
        help_text=_("Shown beside your changes to the people you share a game with; your user name never is."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )

    class Meta:
        model = User
        fields = ("first_name",)


class SignInForm(OwnWords, AuthenticationForm):
    """Django's sign-in form, its refusal said as a person says it (Django's own French reads
    « Remarquez que chacun de ces champs est sensible à la casse »)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("Wrong user name or password (capital letters count)."),
    }


class PasswordResetAskForm(OwnWords, PasswordResetForm):
    """Django's form to ask for a new password, its field named as the site's other forms name an
    email address (Django's French says « Courriel », the site « E-mail »)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("Email")


class NewPasswordForm(OwnWords, SetPasswordForm):
    """Django's form that sets a new password (from the reset mail's link), its help in a line."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].help_text = PASSWORD_HELP
        self.fields["new_password2"].help_text = ""


class PasswordNewForm(NewPasswordForm, PasswordChangeForm):
    """Django's form that changes the password of the account signed in (its current password
    first), its help in a line as ``NewPasswordForm`` gives it."""
