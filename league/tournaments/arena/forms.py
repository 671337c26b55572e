"""The arena creation form on /arenas/."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from gameplay.catalog import game_choices
from league.models import ParticipantKind
from league.tournaments.arena.services import MAX_MINUTES, MIN_MINUTES


class ArenaForm(forms.Form):
    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=game_choices)
    minutes = forms.IntegerField(
        min_value=MIN_MINUTES,
        max_value=MAX_MINUTES,
        initial=30,
        help_text=gettext_lazy("How long the arena runs."),
    )
    starts_in = forms.IntegerField(
        min_value=0,
        max_value=30 * 24 * 60,
        initial=0,
        help_text=gettext_lazy("Minutes from now until the start (0: at once)."),
    )
    participants = forms.ChoiceField(
        choices=ParticipantKind.choices, initial=ParticipantKind.MIXED
    )
    clock = forms.IntegerField(
        min_value=30,
        max_value=7 * 86400,
        required=False,
        initial=300,
        label=gettext_lazy("Clock (seconds per player)"),
        help_text=gettext_lazy(
            "Each player's total time per game; empty: no clock (no berserk)."
        ),
    )
    increment = forms.IntegerField(
        min_value=0,
        max_value=60,
        required=False,
        label=gettext_lazy("Increment (seconds per move)"),
        help_text=gettext_lazy("Added to the clock after each move (needs a clock)."),
    )
    rated = forms.BooleanField(required=False, initial=True)
    berserk = forms.BooleanField(
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Players may halve their own clock for one more point per win."
        ),
    )
