"""The organiser's form for a new duplicate event."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from gameplay.catalog import game_choices
from gameplay.rules.bots import available_bots, bot_display_name
from league.duplicate.services import DEFAULT_PER_MOVE, MAX_DEALS, MAX_ROUNDS


def _bot_choices() -> list[tuple[str, str]]:
    return [(name, bot_display_name(name)) for name in available_bots()]


class DuplicateEventForm(forms.Form):
    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=game_choices)
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, initial=1)
    deals = forms.IntegerField(
        min_value=1,
        max_value=MAX_DEALS,
        required=False,
        help_text=gettext_lazy(
            "Deals per round. Empty: as many as seats at a table, so "
            "everyone holds every seat once."
        ),
    )
    table_size = forms.IntegerField(
        min_value=2,
        max_value=8,
        required=False,
        help_text=gettext_lazy("Players at each table. Empty: the game's usual table."),
    )
    par_bot = forms.ChoiceField(
        choices=_bot_choices,
        initial="heuristic",
        label=gettext_lazy("Par bot"),
        help_text=gettext_lazy("The built-in bot that plays every deal for par."),
    )
    per_move = forms.IntegerField(
        min_value=10,
        max_value=600,
        required=False,
        initial=DEFAULT_PER_MOVE,
        label=gettext_lazy("Seconds per move"),
        help_text=gettext_lazy(
            "Empty: no clock. Real-time games keep their own time limit."
        ),
    )
