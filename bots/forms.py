"""Upload and staff forms. The services do every real check; forms only parse."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy

from bots.uploads import MAX_UPLOAD_BYTES
from gameplay.catalog import game_choices

UPLOAD_HELP = (
    "A single source file (.py, .js, .c, .cpp, .wasm), or a .zip with one entry "
    "point (main.py, main.js, main.c, main.cpp or main.wasm) at its top (up to "
    "1 MiB, 5 MiB unpacked, 200 files). The entry point picks the runtime; the "
    "SDK (kungfu_bot.py, kungfu_bot.js, kungfu_bot.h) is provided."
)


class BotCreateForm(forms.Form):
    name = forms.CharField(max_length=40)
    game = forms.ChoiceField(choices=())
    description = forms.CharField(max_length=200, required=False)
    source_public = forms.BooleanField(
        required=False, label=gettext_lazy("Anyone may read the source")
    )
    file = forms.FileField(help_text=UPLOAD_HELP)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game"]).choices = game_choices()


class VersionUploadForm(forms.Form):
    file = forms.FileField(help_text=UPLOAD_HELP)
    keep_data = forms.BooleanField(
        required=False,
        label=gettext_lazy("Keep the bot's data directory"),
        help_text=gettext_lazy(
            "By default a new version starts with an empty data directory."
        ),
    )


class BotSettingsForm(forms.Form):
    description = forms.CharField(max_length=200, required=False)
    source_public = forms.BooleanField(
        required=False, label=gettext_lazy("Anyone may read the source")
    )


class DisableForm(forms.Form):
    reason = forms.CharField(max_length=200, required=False)


def read_upload(upload) -> bytes:
    """At most one byte over the limit, so the service can refuse it by size."""
    return upload.read(MAX_UPLOAD_BYTES + 1)


class ChallengeBotForm(forms.Form):
    """Play an uploaded bot now (it accepts every challenge at once)."""

    rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False)
    per_move = forms.IntegerField(
        label=gettext_lazy("Seconds per move"),
        required=False,
        min_value=5,
        max_value=3600,
        help_text=gettext_lazy(
            "Your limit per move; leave empty for none. The bot keeps its own."
        ),
    )


SCOPE_CHOICES = [
    ("read", "read: its event stream and games"),
    ("play", "play: move, answer challenges, be seated while online"),
]


class BotAccountForm(forms.Form):
    """A connected bot: an account of its own and its first token."""

    name = forms.CharField(
        max_length=30,
        help_text=gettext_lazy("Its username on the site: 3 to 30 characters."),
    )
    game = forms.ChoiceField(choices=())
    scopes = forms.MultipleChoiceField(
        choices=SCOPE_CHOICES,
        initial=["read", "play"],
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_account_%s")
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game"]).choices = game_choices()


class BotTokenForm(forms.Form):
    scopes = forms.MultipleChoiceField(
        choices=SCOPE_CHOICES,
        initial=["read", "play"],
        widget=forms.CheckboxSelectMultiple,
    )


class ScrimmageForm(forms.Form):
    """Unrated games now against an opponent of the owner's choosing."""

    opponent = forms.ChoiceField(choices=())
    version = forms.TypedChoiceField(
        coerce=int, choices=(), label=gettext_lazy("Your version")
    )
    games = forms.IntegerField(
        min_value=1,
        max_value=50,
        initial=10,
        help_text=gettext_lazy(
            "Played in duplicate deals (each deal once per seat order), so "
            "the number is rounded up to whole deals."
        ),
    )

    def __init__(self, *args, opponents=(), versions=(), **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_scrim_%s")
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["opponent"]).choices = [
            (o.agent, o.label) for o in opponents
        ]
        cast(forms.ChoiceField, self.fields["version"]).choices = [
            (v.number, f"v{v.number}") for v in versions
        ]
