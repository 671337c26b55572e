from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = "Gameplay"

    def ready(self) -> None:
        from accounts.profile import register_profile_section
        from gameplay.profile import recent_games_section

        register_profile_section(recent_games_section, order=50)
        from gameplay.vacation import vacation_profile_section

        register_profile_section(vacation_profile_section, order=5)

        from gameplay import broadcast
        from gameplay.table_watch import table_messages

        broadcast.add_listener(table_messages)

        # Registers the tasks, which ``gameplay.enqueue`` sends by name.
        from gameplay import tasks  # noqa: F401

        post_migrate.connect(_call_off_outdated_matches, sender=self)


def _call_off_outdated_matches(sender: AppConfig, **kwargs: Any) -> None:
    """After every ``migrate`` (each deploy runs one, ``make run`` too): the
    unfinished matches of a rules version the engines no longer play are
    called off with the reason (``gameplay.services.outdated``)."""
    from django.db import connections

    from gameplay.models import Match
    from gameplay.services.outdated import matches_call_off_outdated

    connection = connections[kwargs.get("using", "default")]
    # Migrated back past the table (``migrate gameplay zero``): nothing to do.
    if Match._meta.db_table in connection.introspection.table_names():
        matches_call_off_outdated()
