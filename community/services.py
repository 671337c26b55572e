"""Community writes: chat lines, mutes, blocks and the chat switch.

Every chat line is checked here (length, rate, flood, word filter, who may
write where); the socket and the pages only parse and call.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import ChallengesFrom, User
from community import guards, visibility
from community.errors import ChatRefused, NotAvailable, RateLimited
from community.models import (
    Block,
    Channel,
    ChatMessage,
    ChatSetting,
    Follow,
    Mute,
    TableChatOff,
)
from community.sanctions import chat_silenced
from gameplay import broadcast, selectors
from gameplay.models import Match
from gameplay.rules import game_meta

MAX_LENGTH = 300
# A person types a line every few seconds; more is a flood.
RATE_MESSAGES = 5
RATE_WINDOW_SECONDS = 10
# The same line again this soon is a flood too.
REPEAT_SECONDS = 30

logger = logging.getLogger(__name__)


def _clean_text(text: object) -> str:
    if not isinstance(text, str):
        raise ChatRefused(_("a message is text"))
    # Control and format characters (bidi overrides, zero-width) go: a line
    # must read as it looks. The page shows it as text, never as HTML.
    kept = "".join(
        ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf") or ch == " "
    )
    kept = " ".join(kept.split())
    if not kept:
        raise ChatRefused(_("the message is empty"))
    if len(kept) > MAX_LENGTH:
        raise ChatRefused(
            _("a message has at most %(max_length)s characters")
            % {"max_length": MAX_LENGTH}
        )
    return _filtered(kept)


def _filtered(text: str) -> str:
    words: list[str] = list(getattr(settings, "COMMUNITY_WORD_FILTER", []))
    for word in words:
        if word:
            text = re.sub(
                rf"\b{re.escape(word)}\b",
                lambda m: "*" * len(m.group(0)),
                text,
                flags=re.IGNORECASE,
            )
    return text


def _silenced(user: User) -> bool:
    """A moderator's mute or a ban in force (``community.sanctions``)."""
    return chat_silenced(user)


def _take_rate(user: User, text: str) -> None:
    # The window opens with the first line and lasts its timeout (INCR keeps
    # the key's expiry): at most RATE_MESSAGES lines in any fresh window.
    key = f"chat-rate:{user.pk}"
    cache.add(key, 0, RATE_WINDOW_SECONDS)
    if cache.incr(key) > RATE_MESSAGES:
        raise RateLimited(_("too many messages; wait a few seconds"))
    last_key = f"chat-last:{user.pk}"
    if cache.get(last_key) == text:
        raise RateLimited(_("you just sent that message"))
    cache.set(last_key, text, REPEAT_SECONDS)


def is_blocked_between(one_id: int, other_id: int) -> bool:
    """Either has blocked the other (a block works both ways for meeting)."""
    return Block.objects.filter(
        Q(blocker_id=one_id, blocked_id=other_id)
        | Q(blocker_id=other_id, blocked_id=one_id)
    ).exists()


def may_meet(one: User, other: User) -> bool:
    """The lobby's guard: neither has blocked the other."""
    return one.pk == other.pk or not is_blocked_between(one.pk, other.pk)


def may_challenge(challenger: User, challenged: User) -> bool:
    """The lobby's challenge guard: the challenged player's profile setting."""
    setting = challenged.accept_challenges
    if setting == ChallengesFrom.NOBODY:
        return False
    if setting == ChallengesFrom.FRIENDS:
        return Follow.objects.filter(
            follower_id=challenged.pk, followed_id=challenger.pk
        ).exists()
    return True


def message_json(message: ChatMessage) -> dict[str, Any]:
    """A chat line as the page and the socket carry it (text, never HTML)."""
    author = message.author
    return {
        "id": message.pk,
        "channel": message.channel,
        "system": author is None,
        "author_id": author.pk if author else None,
        "author": (author.display_name or author.username) if author else "",
        "author_username": author.username if author else "",
        "seat": message.seat,
        "to_seat": message.to_seat,
        "text": message.body,
        "at": message.created_at.isoformat(),
    }


def chat_post(
    *,
    user: User,
    match_id: int,
    channel: str,
    text: object,
    to_seat: object = None,
) -> ChatMessage:
    """A person's line at a match, checked and sent live to who may read it."""
    if not user.is_authenticated or not user.is_active:
        raise ChatRefused(_("sign in to chat"))
    if channel not in (Channel.TABLE, Channel.SPECTATORS, Channel.PRIVATE):
        raise ChatRefused(_("unknown chat channel"))
    match = Match.objects.filter(pk=match_id).prefetch_related("seats").first()
    if match is None:
        raise ChatRefused(_("no such match"))
    if _silenced(user):
        raise ChatRefused(_("a moderator has muted you for now"))
    refusal = guards.chat_refusal(user=user, match=match)
    if refusal:
        raise ChatRefused(refusal)
    body = _clean_text(text)
    viewer_seat = selectors.viewer_seat(match=match, user=user)
    private_allowed = game_meta(match.game).private_messages
    if not visibility.may_write(
        channel=channel, viewer_seat=viewer_seat, private_allowed=private_allowed
    ):
        if channel == Channel.PRIVATE and not private_allowed:
            raise ChatRefused(_("this game has no private messages"))
        raise ChatRefused(
            _("only the seated players write here")
            if channel != Channel.SPECTATORS
            else _("players write in the players' chat")
        )
    recipient: int | None = None
    if channel == Channel.PRIVATE:
        seats = {s.number: s for s in match.seats.all()}
        if (
            isinstance(to_seat, bool)
            or not isinstance(to_seat, int)
            or to_seat not in seats
            or to_seat == viewer_seat
        ):
            raise ChatRefused(_("choose another seat at this table"))
        other = seats[to_seat]
        if other.user_id is None:
            raise ChatRefused(_("that seat is played by a bot"))
        if is_blocked_between(user.pk, other.user_id):
            raise NotAvailable(_("that player is not available"))
        recipient = to_seat
    _take_rate(user, body)
    message = ChatMessage.objects.create(
        match=match,
        game=match.game,
        channel=channel,
        author=user,
        seat=viewer_seat,
        to_seat=recipient,
        body=body,
    )
    _send_live(match, message)
    return message


def lobby_chat_post(*, user: User, game: str, text: object) -> ChatMessage:
    """A line in a game's lobby chat: the same limits as at a table."""
    from gameplay.rules import GameError, get_game

    if not user.is_authenticated or not user.is_active:
        raise ChatRefused(_("sign in to chat"))
    try:
        get_game(game)
    except GameError as exc:
        raise ChatRefused(_("no such game")) from exc
    if _silenced(user):
        raise ChatRefused(_("a moderator has muted you for now"))
    refusal = guards.chat_refusal(user=user, match=None)
    if refusal:
        raise ChatRefused(refusal)
    body = _clean_text(text)
    _take_rate(user, body)
    message = ChatMessage.objects.create(
        game=game, channel=Channel.LOBBY, author=user, body=body
    )
    _group_send_after_commit(
        lobby_group(game),
        {"type": "lobby.chat", "message": message_json(message)},
        message,
    )
    return message


def lobby_group(game: str) -> str:
    """The channel group of a game's lobby chat (its consumer joins it)."""
    return f"lobby-chat.{game}"


def chat_system(*, match_id: int, text: str, once: bool = True) -> ChatMessage | None:
    """A system line in the players' chat. ``once``: written at most once per
    match (the start, the end: their announcements may come again); a seat's
    line (a join, a leave, a resignation) may rightly say the same twice."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    fields = {"match": match, "channel": Channel.TABLE, "author": None, "body": text}
    if once:
        message, created = ChatMessage.objects.get_or_create(
            **fields, defaults={"game": match.game}
        )
    else:
        message, created = ChatMessage.objects.create(**fields, game=match.game), True
    if created:
        _send_live(match, message)
    return message


def _send_live(match: Match, message: ChatMessage) -> None:
    event = {
        "type": "match.extension",
        "kind": "chat",
        "message": message_json(message),
        "rated": match.rated,
        "over": match.is_over,
    }
    _group_send_after_commit(broadcast.match_group(match.public_id), event, message)


def _group_send_after_commit(
    group: str, event: dict[str, Any], message: ChatMessage
) -> None:
    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(group, event)
        except Exception:  # the line is stored: pages read it from the history
            logger.warning("chat line %s was not sent live", message.pk, exc_info=True)

    transaction.on_commit(send)


def send_removal_live(message: ChatMessage) -> None:
    """Tell every open page that shows ``message`` to take it away (after the
    commit). The frame carries only the line's id."""
    if message.match_id is not None:
        group = broadcast.match_group(
            Match.objects.values_list("public_id", flat=True).get(pk=message.match_id)
        )
        event = {"type": "match.extension", "kind": "chat", "removed": message.pk}
        _group_send_after_commit(group, event, message)
    elif message.channel == Channel.LOBBY:
        event = {"type": "lobby.chat", "removed": message.pk}
        _group_send_after_commit(lobby_group(message.game), event, message)


def mute_set(*, user: User, target: User, muted: bool) -> None:
    if target.pk == user.pk:
        raise ChatRefused(_("you cannot mute yourself"))
    if muted:
        Mute.objects.get_or_create(muter=user, muted=target)
    else:
        Mute.objects.filter(muter=user, muted=target).delete()


def block_set(*, user: User, target: User, blocked: bool) -> None:
    if target.pk == user.pk:
        raise ChatRefused(_("you cannot block yourself"))
    if blocked:
        Block.objects.get_or_create(blocker=user, blocked=target)
        # A block mutes too: their words are gone from your pages at once.
        Mute.objects.get_or_create(muter=user, muted=target)
    else:
        Block.objects.filter(blocker=user, blocked=target).delete()


def follow_set(*, user: User, target: User, following: bool) -> None:
    """Follow ``target`` (one way) or stop; following someone who blocked you
    is accepted like any other (a block never shows itself) and simply never
    lists them."""
    if target.pk == user.pk:
        raise ChatRefused(_("you cannot follow yourself"))
    if following:
        Follow.objects.get_or_create(follower=user, followed=target)
    else:
        Follow.objects.filter(follower=user, followed=target).delete()


def chat_switch(*, user: User, off: bool, match_id: int | None = None) -> None:
    """Chat off (or on again) for ``user``: at one match, or everywhere."""
    if match_id is None:
        ChatSetting.objects.update_or_create(user=user, defaults={"chat_off": off})
        return
    if off:
        TableChatOff.objects.get_or_create(user=user, match_id=match_id)
    else:
        TableChatOff.objects.filter(user=user, match_id=match_id).delete()
