from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = gettext_lazy("Post-game analysis")

    def ready(self) -> None:
        from accounts.profile import register_profile_section
        from analysis.profile import accuracy_section

        register_profile_section(accuracy_section, order=60)

        # Registers the tasks (``analysis.services`` sends them by name), and
        # the operator's automatic analysis of rated tournament games.
        from analysis import receivers, tasks  # noqa: F401
        from gameplay.signals import match_finished

        match_finished.connect(
            receivers.on_match_finished, dispatch_uid="analysis.auto_tournaments"
        )
