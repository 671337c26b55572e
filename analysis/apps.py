from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Post-game analysis"

    def ready(self) -> None:
        from accounts.profile import register_profile_section
        from analysis.profile import accuracy_section

        register_profile_section(accuracy_section, order=60)

        # Registers the task, which ``analysis.services`` sends by name.
        from analysis import tasks  # noqa: F401
