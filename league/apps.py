from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = gettext_lazy("Leagues, ratings and tournaments")

    def ready(self) -> None:
        """Hook league into gameplay and accounts without them importing league."""
        from accounts.profile import register_profile_section
        from gameplay import lobby
        from gameplay.signals import match_finished
        from league import profile, receivers
        from league.ratings.selectors import rating_for_user

        match_finished.connect(
            receivers.on_match_finished, dispatch_uid="league.match_finished"
        )
        from gameplay.frames import add_result_extra
        from league.ratings.selectors import match_rating_changes

        add_result_extra(match_rating_changes)
        from league import contexts, live

        contexts.register()
        live.connect_signals()
        lobby.set_rating_provider(
            lambda user, game: rating_for_user(user=user, game=game)
        )
        register_profile_section(profile.ratings_section, order=20)
        register_profile_section(profile.head_to_head_section, order=30)
