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
        from gameplay.signals import (
            challenge_answered,
            challenge_created,
            match_finished,
            match_opened,
            match_started,
        )
        from league.signals import checkin_opened, round_paired
        from notifications import receivers

        # Register the e-mail task under its name: notifications.enqueue looks
        # it up by name instead of importing the task module.
        import_module("notifications.tasks")

        match_started.connect(receivers.on_match_started, dispatch_uid="notify-start")
        challenge_created.connect(
            receivers.on_challenge_created, dispatch_uid="notify-challenge"
        )
        round_paired.connect(receivers.on_round_paired, dispatch_uid="notify-round")
        checkin_opened.connect(
            receivers.on_checkin_opened, dispatch_uid="notify-check-in"
        )
        # News stops asking for attention once its subject no longer waits.
        match_opened.connect(receivers.on_match_opened, dispatch_uid="notify-opened")
        match_finished.connect(
            receivers.on_match_finished, dispatch_uid="notify-finished"
        )
        challenge_answered.connect(
            receivers.on_challenge_answered, dispatch_uid="notify-answered"
        )
        broadcast.add_listener(receivers.turn_messages)
