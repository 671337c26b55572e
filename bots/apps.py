from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class BotsConfig(AppConfig):
    name = "bots"
    verbose_name = gettext_lazy("Bots")

    def ready(self) -> None:
        # League rates "bot:<version id>" seats as the bot that owns the version
        # and seats bot entrants with their active version, through this hook.
        from bots import directory

        directory.register()
        from bots import contexts

        contexts.register()
        # Uploaded bots seated with people are driven move by move (bots.live_turns).
        from bots import tasks
        from gameplay.signals import uploaded_bot_turn

        uploaded_bot_turn.connect(tasks.on_uploaded_bot_turn, dispatch_uid="bots-live")
        # Each version's own rating after a rated match (bots.version_ratings).
        from gameplay.signals import match_finished

        match_finished.connect(
            tasks.on_match_finished, dispatch_uid="bots.version_ratings"
        )
