from typing import Any

from django import forms
from django.contrib import admin

from gameplay.errors import refusal_text
from gameplay.options import OptionError, clean_table_options
from league.models import (
    Entrant,
    Invitation,
    League,
    MatchVoid,
    Pairing,
    Participant,
    Rating,
    RatingPool,
    Registration,
    Round,
    Season,
    Tournament,
)


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0


class LeagueAdminForm(forms.ModelForm):
    """League options are every league game's options: only the public ones."""

    class Meta:
        model = League
        fields = "__all__"  # noqa: DJ007 - the admin edits every field

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        options = cleaned.get("options") or {}
        game = cleaned.get("game")
        if isinstance(options, dict) and game:
            game_options = {k: v for k, v in options.items() if k != "elo"}
            try:
                clean_table_options(game, game_options)
            except OptionError as exc:
                self.add_error("options", refusal_text(exc))
        return cleaned


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = LeagueAdminForm
    list_display = ("name", "game", "participants", "invite_only", "division_size")
    list_filter = ("game", "participants")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)
    inlines = [SeasonInline]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "type", "owner")
    list_filter = ("type",)
    search_fields = ("name", "key")
    raw_id_fields = ("user", "owner")


@admin.register(RatingPool)
class RatingPoolAdmin(admin.ModelAdmin):
    """Read-mostly: ratings change only through the services (apply, recompute)."""

    list_display = ("__str__", "game", "scope", "rated_matches", "rating_count")
    list_filter = ("game", "scope")
    readonly_fields = ("last_seq", "rated_matches", "rating_count", "recomputed_at")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("participant", "pool", "rating", "games", "peak")
    list_filter = ("pool",)
    search_fields = ("participant__name",)
    raw_id_fields = ("participant",)
    readonly_fields = [f.name for f in Rating._meta.fields]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("participant", "season", "status", "created_at")
    list_filter = ("status", "season__league")
    raw_id_fields = ("participant", "registered_by")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("participant", "league", "invited_by", "created_at")
    raw_id_fields = ("participant", "invited_by")


@admin.register(MatchVoid)
class MatchVoidAdmin(admin.ModelAdmin):
    list_display = ("match", "voided_by", "reason", "created_at")
    raw_id_fields = ("match", "voided_by")


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ("participant",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "format", "status", "league")
    list_filter = ("format", "status", "game")
    search_fields = ("name",)
    filter_horizontal = ("organisers",)
    inlines = [EntrantInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "starts_at", "deadline")
    list_filter = ("status",)


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "table", "first", "second", "status")
    list_filter = ("status", "outcome")
    raw_id_fields = ("round", "first", "second", "winner", "match")
