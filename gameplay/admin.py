"""Staff views of matches. Read-mostly: moves go through the services, never here."""

from django.contrib import admin

from gameplay.models import Challenge, Match, MatchAction, QueueEntry, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "agent", "connected", "forfeited", "placement")
    readonly_fields = ("connected", "placement")


class ActionInline(admin.TabularInline):
    model = MatchAction
    extra = 0
    can_delete = False
    fields = ("version", "seat", "action_id", "kind", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("public_id", "game", "status", "rated", "version", "created_at")
    list_filter = ("game", "status", "rated")
    search_fields = ("public_id", "seats__user__username", "context")
    readonly_fields = (
        "public_id",
        "seed",
        "seed_hash",
        "state",
        "version",
        "result",
        "started_at",
        "finished_at",
        "finish_announced_at",
    )
    inlines = [SeatInline, ActionInline]


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("challenger", "challenged", "game", "status", "created_at")
    list_filter = ("status", "game")


@admin.register(QueueEntry)
class QueueEntryAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "players", "rated", "rating", "joined_at")
