from typing import Any

from django import template

from community.models import ReportReason

register = template.Library()


@register.simple_tag
def report_reasons() -> list[tuple[str, str]]:
    """(value, label) of the reasons a report may give."""
    return [(value, str(label)) for value, label in ReportReason.choices]


@register.simple_tag
def relation(viewer: object, subject: object) -> dict[str, bool]:
    """Whether ``viewer`` follows, mutes or blocks ``subject`` (their own settings only;
    nothing here tells anyone who blocked them)."""
    from community.models import Block, Follow, Mute

    viewer_id = getattr(viewer, "pk", None)
    subject_id = getattr(subject, "pk", None)
    if viewer_id is None or subject_id is None or viewer_id == subject_id:
        return {"muted": False, "blocked": False, "following": False}
    return {
        "following": Follow.objects.filter(
            follower_id=viewer_id, followed_id=subject_id
        ).exists(),
        "muted": Mute.objects.filter(muter_id=viewer_id, muted_id=subject_id).exists(),
        "blocked": Block.objects.filter(
            blocker_id=viewer_id, blocked_id=subject_id
        ).exists(),
    }


@register.simple_tag
def chat_off_everywhere(viewer: object) -> bool:
    from community.selectors import chat_off_everywhere as off

    viewer_id = getattr(viewer, "pk", None)
    return viewer_id is not None and off(user_id=viewer_id)


@register.simple_tag
def friends_of(viewer: object) -> list[dict[str, Any]]:
    """The home page's friends list (``community.selectors.friends``)."""
    from accounts.models import User
    from community.selectors import friends

    if not isinstance(viewer, User):
        return []
    return friends(user=viewer)


@register.simple_tag
def challenge_games() -> list[tuple[str, str]]:
    from gameplay.catalog import game_choices

    return game_choices()
