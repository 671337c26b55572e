from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class ArenaConfig(AppConfig):
    """Arena tournaments: their own app label and migrations, so they sit
    beside the round-based formats without sharing their tables."""

    name = "league.tournaments.arena"
    label = "arena"
    verbose_name = gettext_lazy("Arena tournaments")

    def ready(self) -> None:
        from gameplay.contexts import (
            register_context_describer,
            register_tournament_context,
        )
        from gameplay.signals import match_finished
        from league.tournaments.arena import live, receivers

        match_finished.connect(
            receivers.on_match_finished, dispatch_uid="arena.match_finished"
        )
        register_context_describer("arena:", receivers.describe_arena_game)
        register_tournament_context(receivers.PREFIX)
        live.connect_signals()
