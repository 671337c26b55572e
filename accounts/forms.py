"""Account forms: sign-up and profile editing with clear validation errors."""

from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from accounts import selectors
from accounts.models import User
from accounts.names import name_skeleton

LANGS = settings.LANGUAGES

NAME_IMITATES = _(
    "This name looks too much like another player's name (letters that look alike, "
    "case and spacing count as the same). Choose another."
)


def _check_public_name(name: str, *, exclude: User | None = None) -> None:
    if name and not name_skeleton(name):
        raise forms.ValidationError(_("A name needs at least one letter or digit."))
    if name and selectors.name_imitated(name=name, exclude=exclude):
        raise forms.ValidationError(NAME_IMITATES)


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=True, help_text=_("Used only for password resets.")
    )

    class Meta:
        model = User
        fields = ("username", "email", "display_name")
        labels = {"display_name": _("Display name")}

    def clean_email(self) -> str:
        # Whether the address already has an account is never said here: the
        # sign-up answers the same either way (accounts.services.user_sign_up).
        return self.cleaned_data["email"].strip().lower()

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This username is taken."))
        return username

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        shown_field = "display_name" if cleaned.get("display_name") else "username"
        name = cleaned.get(shown_field)
        if name and shown_field not in self.errors:
            try:
                _check_public_name(name)
            except forms.ValidationError as exc:
                self.add_error(shown_field, exc)
        return cleaned


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = (
            "display_name",
            "email",
            "email_tournament_rounds",
            "your_move_email",
            "your_move_push",
            "your_move_site",
            "bio",
            "country",
            "time_zone",
            "language",
            "accept_challenges",
        )
        widgets = {"bio": forms.Textarea(attrs={"rows": 3, "maxlength": 300})}
        labels = {
            "display_name": _("Display name"),
            "email": _("E-mail address"),
            "bio": _("Bio"),
            "country": _("Country"),
            "time_zone": _("Time zone"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["accept_challenges"].required = False
        self.fields["your_move_email"].required = False
        zones = sorted(available_timezones())
        self.fields["time_zone"].widget = forms.Select(
            choices=[("", _("UTC (not set)")), *((zone, zone) for zone in zones)]
        )
        # Each language by its own name, whatever the page's language.
        self.fields["language"].widget = forms.Select(
            choices=[
                ("", _("Follow my browser")),
                *((code, get_language_info(code)["name_local"]) for code, _n in LANGS),
            ]
        )

    def clean_accept_challenges(self) -> str:
        # A form sent without the field (an older page, a script) keeps the
        # setting as it was rather than failing.
        return self.cleaned_data.get("accept_challenges") or (
            self.instance.accept_challenges
        )

    def clean_your_move_email(self) -> str:
        # Like accept_challenges: a form without the field keeps the setting.
        return self.cleaned_data.get("your_move_email") or (
            self.instance.your_move_email
        )

    def clean_bio(self) -> str:
        return " ".join(self.cleaned_data.get("bio", "").split())

    def clean_country(self) -> str:
        return " ".join(self.cleaned_data.get("country", "").split())

    def clean_display_name(self) -> str:
        name = self.cleaned_data.get("display_name", "").strip()
        _check_public_name(name or self.instance.username, exclude=self.instance)
        return name

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email", "").strip().lower()
        if email and selectors.email_in_use(email=email, exclude=self.instance):
            raise forms.ValidationError(
                _("Another account already uses this e-mail address.")
            )
        return email
