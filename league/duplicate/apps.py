from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class DuplicateConfig(AppConfig):
    name = "league.duplicate"
    label = "duplicate"
    verbose_name = gettext_lazy("Duplicate events")

    def ready(self) -> None:
        """Hook duplicate events into gameplay and community without either
        importing this app: the match page's description, the sealing of a
        round's matches, the chat guard and the finish announcement."""
        from community.guards import register_chat_guard
        from gameplay.contexts import (
            register_context_describer,
            register_sealed_context,
        )
        from gameplay.signals import match_finished
        from league.duplicate import receivers, selectors

        register_context_describer(selectors.CONTEXT_PREFIX, selectors.describe_game)
        register_sealed_context(selectors.CONTEXT_PREFIX, selectors.game_is_sealed)
        register_chat_guard(selectors.chat_refusal)
        match_finished.connect(
            receivers.on_match_finished, dispatch_uid="duplicate.match_finished"
        )
