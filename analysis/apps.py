from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Post-game analysis"

    def ready(self) -> None:
        # Registers the task, which ``analysis.services`` sends by name.
        from analysis import tasks  # noqa: F401
