from django.apps import AppConfig


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
