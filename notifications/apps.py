from importlib import import_module

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Brings players to their games: their own socket, badges, notifications.

    It only listens: gameplay and league announce (signals, the broadcast
    listener hook) and never import this app.
    """

    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from gameplay import broadcast
        from gameplay.signals import challenge_created, match_started
        from league.signals import round_paired
        from notifications import receivers

        # Register the e-mail task under its name: notifications.enqueue looks
        # it up by name instead of importing the task module.
        import_module("notifications.tasks")

        match_started.connect(receivers.on_match_started, dispatch_uid="notify-start")
        challenge_created.connect(
            receivers.on_challenge_created, dispatch_uid="notify-challenge"
        )
        round_paired.connect(receivers.on_round_paired, dispatch_uid="notify-round")
        broadcast.add_listener(receivers.turn_messages)
