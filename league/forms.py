"""Forms for the organiser tools and tournament creation on the pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from gameplay.catalog import game_choices
from gameplay.forms import TimeControlForm
from league.models import ParticipantKind, SeedingMethod, TournamentFormat


class SeasonDatesForm(TimeControlForm):
    """A new season's dates, its games' time control and whether vacation
    pauses their clocks (docs/time-controls.md)."""

    name = forms.CharField(max_length=80, required=False)
    registration_opens_at = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    registration_closes_at = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    starts_at = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    ends_at = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    vacation_allowed = forms.BooleanField(
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Correspondence: a player's vacation pauses their clocks."
        ),
    )

    field_order = [
        "name",
        "registration_opens_at",
        "registration_closes_at",
        "starts_at",
        "ends_at",
    ]

    def service_kwargs(self) -> dict:
        data = {
            key: value
            for key, value in self.cleaned_data.items()
            if key not in ("per_move", "total", "increment", "days")
        }
        return {**data, "time_control": self.time_control()}


class DivisionsForm(forms.Form):
    division_size = forms.IntegerField(
        min_value=2,
        max_value=64,
        required=False,
        label=gettext_lazy("Players per division"),
        help_text=gettext_lazy("Empty: no divisions, one table per season."),
    )
    promotion_count = forms.IntegerField(
        min_value=0,
        max_value=32,
        initial=2,
        label=gettext_lazy("Promoted from each division"),
    )
    relegation_count = forms.IntegerField(
        min_value=0,
        max_value=32,
        initial=2,
        label=gettext_lazy("Relegated from each division"),
    )


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150)


class TournamentForm(TimeControlForm):
    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=game_choices)
    format = forms.ChoiceField(choices=TournamentFormat.choices)
    participants = forms.ChoiceField(
        choices=ParticipantKind.choices,
        initial=ParticipantKind.MIXED,
        help_text=gettext_lazy("Ignored in a league: the league decides."),
    )
    swiss_rounds = forms.IntegerField(
        min_value=1,
        max_value=20,
        required=False,
        help_text=gettext_lazy(
            "Swiss only. Leave empty for the usual number for the field, "
            "set at the start: ⌈log₂ entrants⌉ (one fewer, at least two, for tables)."
        ),
    )
    third_place = forms.BooleanField(
        required=False,
        help_text=gettext_lazy("Single elimination: play for third place."),
    )
    rated = forms.BooleanField(required=False, initial=True)
    seeding = forms.ChoiceField(choices=SeedingMethod.choices)
    round_hours = forms.FloatField(
        min_value=0.05,
        max_value=720,
        initial=24,
        required=False,
        help_text=gettext_lazy("Deadline of each round (live play)."),
    )
    starts_at = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=gettext_lazy("When round 1 may start; empty: now."),
    )
    checkin_minutes = forms.IntegerField(
        min_value=1,
        max_value=24 * 60,
        required=False,
        label=gettext_lazy("Check-in minutes"),
        help_text=gettext_lazy(
            "Entrants must check in during this many minutes before the "
            "start; who does not is removed when it starts. Empty: no check-in."
        ),
    )
    round_days = forms.IntegerField(
        min_value=1,
        max_value=30,
        required=False,
        label=gettext_lazy("Round deadline in days"),
        help_text=gettext_lazy(
            "Correspondence: each round's deadline, at least one move's "
            "days. No-shows are forfeited only at the deadline."
        ),
    )
    vacation_allowed = forms.BooleanField(
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Correspondence: a player's vacation pauses their clocks."
        ),
    )

    field_order = [
        "name",
        "game",
        "format",
        "participants",
        "swiss_rounds",
        "third_place",
        "rated",
        "seeding",
    ]

    def service_kwargs(self) -> dict:
        """The form as ``tournament_create``'s keyword arguments."""
        data = {
            key: value
            for key, value in self.cleaned_data.items()
            if key not in ("per_move", "total", "increment", "days", "round_days")
        }
        days = self.cleaned_data.get("round_days")
        data["round_hours"] = days * 24 if days else (data.get("round_hours") or 24)
        return {**data, "time_control": self.time_control()}
