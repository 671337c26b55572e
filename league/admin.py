from django.contrib import admin

from league.models import League, Season


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "participants", "invite_only")
    list_filter = ("game", "participants")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [SeasonInline]
