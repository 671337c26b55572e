"""Admin for bots: staff can inspect versions and disable a bot."""

from django.contrib import admin

from bots.models import Bot, BotMatchLog, BotVersion, LadderRound


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    extra = 0
    can_delete = False
    fields = ("number", "status", "status_detail", "sha256", "created_at")
    readonly_fields = fields


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "owner", "status", "disabled", "created_at")
    list_filter = ("game", "status", "disabled")
    search_fields = ("name", "owner__username")
    inlines = [BotVersionInline]
    readonly_fields = ("active_version",)


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "sha256", "created_at")
    list_filter = ("status",)
    # Versions are immutable: the admin shows them, it does not edit them.
    readonly_fields = [field.name for field in BotVersion._meta.fields]


@admin.register(BotMatchLog)
class BotMatchLogAdmin(admin.ModelAdmin):
    list_display = ("version", "match", "seat", "decisions", "fault", "created_at")
    list_filter = ("fault",)


@admin.register(LadderRound)
class LadderRoundAdmin(admin.ModelAdmin):
    list_display = ("game", "slot", "duplicate", "match_count", "created_at")
