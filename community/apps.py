from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class CommunityConfig(AppConfig):
    """Chat, mutes, blocks, reports and moderation.

    It plugs into gameplay without gameplay importing it: a frame type and a
    group event kind on the match socket (``gameplay.consumers``) and the
    lobby's meeting guard (blocks refuse challenges and table seats).
    """

    name = "community"
    verbose_name = gettext_lazy("Community")

    def ready(self) -> None:
        from accounts.profile import register_profile_section
        from community import live, receivers, sanctions, services
        from community.profile import community_section
        from gameplay import consumers, lobby
        from gameplay.signals import match_finished, match_started, seat_changed

        consumers.register_extension(
            frame_type="chat",
            handler=live.on_chat_frame,
            event_kind="chat",
            event_filter=live.chat_event_for,
        )
        lobby.set_meeting_guard(services.may_meet)
        lobby.set_challenge_guard(services.may_challenge)
        lobby.set_rated_guard(sanctions.may_play_rated)
        register_profile_section(community_section, order=200)
        match_started.connect(receivers.on_match_started, dispatch_uid="chat-start")
        match_finished.connect(receivers.on_match_finished, dispatch_uid="chat-end")
        seat_changed.connect(receivers.on_seat_changed, dispatch_uid="chat-seat")
