"""Community reads: the chat lines a reader may see, and their own filters."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from community import visibility
from community.models import (
    Block,
    ChatMessage,
    ChatSetting,
    Follow,
    Mute,
    TableChatOff,
)
from community.services import message_json
from gameplay import selectors as match_selectors
from gameplay.catalog import game_choices
from gameplay.models import Match, MatchStatus, Seat

HISTORY_LINES = 200
LOBBY_LINES = 50


def muted_ids(*, user_id: int) -> set[int]:
    return set(Mute.objects.filter(muter_id=user_id).values_list("muted_id", flat=True))


def chat_is_off(*, user_id: int, match_pk: int) -> bool:
    """The user switched chat off everywhere, or at this match."""
    if ChatSetting.objects.filter(user_id=user_id, chat_off=True).exists():
        return True
    return TableChatOff.objects.filter(user_id=user_id, match_id=match_pk).exists()


def chat_off_everywhere(*, user_id: int) -> bool:
    return ChatSetting.objects.filter(user_id=user_id, chat_off=True).exists()


def match_chat(*, match: Match, user: Any) -> list[dict[str, Any]]:
    """The last lines of ``match``'s chat ``user`` may read now, oldest first:
    by the fair-play rule (``community.visibility``), without the lines of
    anyone they muted, and none at all when they switched chat off."""
    signed_in = user is not None and user.is_authenticated
    if signed_in and chat_is_off(user_id=user.pk, match_pk=match.pk):
        return []
    viewer_seat = match_selectors.viewer_seat(match=match, user=user)
    muted = muted_ids(user_id=user.pk) if signed_in else set()
    lines = (
        ChatMessage.objects.filter(match=match, removed=False)
        .select_related("author")
        .order_by("-created_at", "-pk")[:HISTORY_LINES]
    )
    shown = [
        message_json(line)
        for line in lines
        if line.author_id not in muted
        and visibility.may_read(
            channel=line.channel,
            seat=line.seat,
            to_seat=line.to_seat,
            viewer_seat=viewer_seat,
            rated=match.rated,
            over=match.is_over,
            system=line.author_id is None,
        )
    ]
    shown.reverse()
    return shown


def lobby_chat(
    *, game: str, user: Any, after_id: int | None = None
) -> list[dict[str, Any]]:
    """The last lines of ``game``'s lobby chat (only those after ``after_id``
    when given), oldest first, without the lines of anyone ``user`` muted;
    none when they switched chat off everywhere."""
    signed_in = user is not None and user.is_authenticated
    if signed_in and chat_off_everywhere(user_id=user.pk):
        return []
    lines = ChatMessage.objects.filter(
        game=game, channel="lobby", match__isnull=True, removed=False
    ).select_related("author")
    if after_id is not None:
        lines = lines.filter(pk__gt=after_id)
    if signed_in:
        lines = lines.exclude(author_id__in=muted_ids(user_id=user.pk))
    newest = list(lines.order_by("-pk")[:LOBBY_LINES])
    return [message_json(line) for line in reversed(newest)]


def friends(*, user: User) -> list[dict[str, Any]]:
    """The players ``user`` follows: online or not, and the games they are
    playing now. Anyone who blocked ``user`` is left out (a block never shows
    itself, and a blocked user does not see the blocker in their lists)."""
    from community.presence import online_ids

    blockers = Block.objects.filter(blocked_id=user.pk).values("blocker_id")
    followed = list(
        User.objects.filter(
            pk__in=Follow.objects.filter(follower_id=user.pk).values("followed_id"),
            is_active=True,
        )
        .exclude(pk__in=blockers)
        .order_by("username")
    )
    online = online_ids(user_ids=[person.pk for person in followed])
    playing: dict[int, list[str]] = {}
    names = dict(game_choices())
    for user_id, game in Seat.objects.filter(
        user_id__in=[person.pk for person in followed],
        match__status=MatchStatus.ACTIVE,
        forfeited=False,
    ).values_list("user_id", "match__game"):
        games = playing.setdefault(user_id, [])
        if names.get(game, game) not in games:
            games.append(names.get(game, game))
    followed.sort(
        key=lambda person: (not (person.pk in online or person.pk in playing),)
    )
    return [
        {
            "user": person,
            "online": person.pk in online or person.pk in playing,
            "playing": playing.get(person.pk, []),
        }
        for person in followed
    ]
