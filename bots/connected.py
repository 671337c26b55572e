"""Connected bots: bot accounts, their tokens, presence and what they are told.

A bot that runs on its author's machine plays through the bot API
(``bots.bot_api``, docs/protocol/bot-api.md). It is a :class:`BotAccount`: a
user of its own that sits in seats like a person (so clocks, the grace
period, claims and the seat's view are the same rules, not a copy of them),
owned by the person who made it, reached with :class:`BotToken` keys that
carry scopes (``read``, ``play``).

Keys are shown once and kept as SHA-256 only. A bot is *online* while an
event stream opened with a ``play`` token is open (a cache mark refreshed by
the stream; :func:`bot_account_seen`); only online bots are offered
challenges from the bot page and seated on the ladder.

The event and game streams are built here as plain reads, one poll at a
time (``event_poll`` and ``game_poll``); the views only loop and write lines.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.names import name_skeleton
from bots.errors import BotError, BotForbidden, BotNotFound
from bots.models import BotAccount, BotToken, BotTokenScope
from gameplay.models import Challenge, ChallengeStatus, Match, MatchStatus, Seat
from gameplay.moverule import is_realtime
from gameplay.options import public_config
from gameplay.rules import available_games, get_game
from gameplay.selectors import events_since

#: Every key starts with this, so a leaked one is easy to recognise (and scan for).
KEY_PREFIX = "kfb_"
SCOPES = tuple(BotTokenScope.values)
ONLINE_KEY = "bots:online:{account}"


def online_seconds() -> int:
    """How long an event stream's word that its bot is online stays good."""
    return int(getattr(settings, "BOT_API_ONLINE_SECONDS", 30))


def accounts_per_owner() -> int:
    return int(getattr(settings, "BOT_API_ACCOUNTS_PER_OWNER", 3))


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _clean_scopes(scopes: list[str] | None) -> list[str]:
    chosen = list(dict.fromkeys(scopes or SCOPES))
    unknown = [s for s in chosen if s not in SCOPES]
    if unknown:
        raise BotError(
            _("Unknown scope(s): %(scopes)s; a token may have %(allowed)s.")
            % {"scopes": ", ".join(unknown), "allowed": ", ".join(SCOPES)}
        )
    return chosen


@dataclass(frozen=True)
class IssuedToken:
    """A new token: the key is in here once and never stored."""

    token: BotToken
    key: str


def _issue(account: BotAccount, scopes: list[str]) -> IssuedToken:
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    token = BotToken.objects.create(
        account=account,
        key_sha256=_digest(key),
        prefix=key[: len(KEY_PREFIX) + 6],
        scopes=scopes,
    )
    return IssuedToken(token=token, key=key)


@transaction.atomic
def bot_account_create(
    *, owner: User, name: str, game: str, scopes: list[str] | None = None
) -> IssuedToken:
    """Turn ``owner``'s sign-in into a bot account named ``name`` for ``game``,
    and its first token (``scopes``: default every scope).

    The name becomes the account's username, so it is checked like one and
    may not read like anyone's name (``accounts.names``).
    """
    if not owner.is_authenticated or hasattr(owner, "bot_account"):
        raise BotForbidden(_("Only a person's account can make bot accounts."))
    if game not in available_games():
        raise BotError(_("Unknown game %(game)s.") % {"game": repr(game)})
    chosen = _clean_scopes(scopes)
    name = (name or "").strip()
    if not 3 <= len(name) <= 30:
        raise BotError(_("A bot account's name has 3 to 30 characters."))
    try:
        UnicodeUsernameValidator()(name)
    except ValidationError as exc:
        raise BotError(
            _("A bot account's name may hold letters, digits and @ . + - _ only.")
        ) from exc
    if User.objects.filter(username__iexact=name).exists() or (
        User.objects.filter(name_skeleton=name_skeleton(name)).exists()
    ):
        raise BotError(
            _("The name %(name)s is taken (or reads like one that is).")
            % {"name": repr(name)}
        )
    if BotAccount.objects.filter(owner=owner).count() >= accounts_per_owner():
        raise BotError(
            _("You have %(count)s bot accounts already, the most allowed.")
            % {"count": accounts_per_owner()}
        )
    # Shown at tables as "<name> [bot]": people know they play a program.
    user = User(username=name, display_name=f"{name} [bot]")
    user.set_unusable_password()
    user.save()
    account = BotAccount.objects.create(owner=owner, user=user, game=game)
    return _issue(account, chosen)


def _owned_account(*, owner: User, account_id: int) -> BotAccount:
    account = BotAccount.objects.select_related("user").filter(pk=account_id).first()
    if account is None:
        raise BotNotFound(_("No such bot account."))
    if account.owner_id != owner.pk:
        raise BotForbidden(_("Only the bot account's owner can manage its tokens."))
    return account


@transaction.atomic
def bot_token_issue(
    *, owner: User, account_id: int, scopes: list[str] | None = None
) -> IssuedToken:
    """Another token for the owner's bot account (the older ones keep working)."""
    account = _owned_account(owner=owner, account_id=account_id)
    return _issue(account, _clean_scopes(scopes))


def bot_token_revoke(*, owner: User, token_id: int) -> BotToken:
    """Stop a token at once (its streams end at their next poll)."""
    token = BotToken.objects.select_related("account").filter(pk=token_id).first()
    if token is None or token.account.owner_id != owner.pk:
        raise BotNotFound(_("No such token."))
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def bot_token_for_key(*, key: str) -> BotToken | None:
    """The live token a presented key is (None: unknown or revoked)."""
    if not key.startswith(KEY_PREFIX) or len(key) > 100:
        return None
    token = (
        BotToken.objects.select_related("account__user")
        .filter(key_sha256=_digest(key), revoked_at__isnull=True)
        .first()
    )
    if token is None or not token.account.user.is_active:
        return None
    now = timezone.now()
    # Written at most once a minute: every request of a busy bot would otherwise
    # write the row.
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        BotToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def token_still_valid(*, token_id: int) -> bool:
    return BotToken.objects.filter(pk=token_id, revoked_at__isnull=True).exists()


# --- Presence ------------------------------------------------------------------


def bot_account_seen(*, account_id: int) -> None:
    """An event stream with a ``play`` token vouches that its bot is online."""
    cache.set(
        ONLINE_KEY.format(account=account_id),
        timezone.now().isoformat(),
        online_seconds(),
    )


def bot_account_gone(*, account_id: int) -> None:
    cache.delete(ONLINE_KEY.format(account=account_id))


def bot_account_online(*, account_id: int) -> bool:
    return cache.get(ONLINE_KEY.format(account=account_id)) is not None


def online_accounts(*, game: str) -> list[BotAccount]:
    """The game's connected bots that are online now (their users active)."""
    accounts = list(
        BotAccount.objects.select_related("user").filter(
            game=game, user__is_active=True
        )
    )
    if not accounts:
        return []
    keys = {ONLINE_KEY.format(account=a.pk): a for a in accounts}
    marks = cache.get_many(list(keys))
    return [account for key, account in keys.items() if key in marks]


def accounts_of(*, owner: User) -> list[BotAccount]:
    return list(
        BotAccount.objects.filter(owner=owner)
        .select_related("user")
        .prefetch_related("tokens")
    )


def account_of_user(*, user: User) -> BotAccount | None:
    return BotAccount.objects.filter(user=user).first()


# --- The event stream ------------------------------------------------------------


@dataclass
class EventCursor:
    """What one event stream has told its bot so far."""

    challenges: set[int] = field(default_factory=set)
    seated: set[int] = field(default_factory=set)
    started: set[int] = field(default_factory=set)


def _match_event(kind: str, match: Match, seat: Seat) -> dict[str, Any]:
    return {
        "type": kind,
        "match": str(match.public_id),
        "game": match.game,
        "seat": seat.number,
        "players": match.config.get("players"),
        "rated": match.rated,
        "status": match.status,
    }


#: What an event line reads of a seat and its match: not the match's state,
#: which is most of the row and would be decoded on every poll.
_EVENT_FIELDS = (
    "number",
    "placement",
    "match__id",
    "match__public_id",
    "match__game",
    "match__config",
    "match__rated",
    "match__status",
    "match__end_reason",
    "match__created_at",
)


def event_poll(*, account: BotAccount, cursor: EventCursor) -> list[dict[str, Any]]:
    """What happened to the bot since the stream's last poll, oldest first:
    challenges addressed to it (pending), seats at matches still waiting,
    matches started, matches ended (of those the stream saw start).

    On a new stream (an empty cursor) every pending challenge and every
    match in play is told again, so a bot that reconnects picks its games up.
    A poll where nothing changed is two small reads of ids (every open
    stream makes one a second); rows are read whole only for what is new.
    """
    lines: list[dict[str, Any]] = []
    user_id = account.user_id
    pending = set(
        Challenge.objects.filter(
            challenged_id=user_id, status=ChallengeStatus.PENDING
        ).values_list("pk", flat=True)
    )
    new = pending - cursor.challenges
    cursor.challenges &= pending
    if new:
        cursor.challenges |= new
        for challenge in (
            Challenge.objects.filter(pk__in=new)
            .select_related("challenger")
            .order_by("created_at", "pk")
        ):
            lines.append(
                {
                    "type": "challenge",
                    "id": challenge.pk,
                    "from": challenge.challenger.username,
                    "game": challenge.game,
                    "rated": challenge.rated,
                    "options": public_config(
                        game_id=challenge.game, config=challenge.config
                    ),
                    "time_control": challenge.time_control,
                }
            )
    live = dict(
        Seat.objects.filter(
            user_id=user_id,
            match__status__in=[MatchStatus.WAITING, MatchStatus.ACTIVE],
        ).values_list("match_id", "match__status")
    )
    fresh = {
        match_id
        for match_id, status in live.items()
        if match_id
        not in (cursor.started if status == MatchStatus.ACTIVE else cursor.seated)
    }
    gone = (cursor.seated | cursor.started) - set(live)
    if not fresh and not gone:
        return lines
    seats = (
        Seat.objects.filter(user_id=user_id, match_id__in=fresh | gone)
        .select_related("match")
        .only(*_EVENT_FIELDS)
        .order_by("match__created_at", "match_id")
    )
    for seat in seats:
        match = seat.match
        if match.pk in gone:
            cursor.seated.discard(match.pk)
            if match.pk not in cursor.started:
                continue
            cursor.started.discard(match.pk)
            event = _match_event("gameFinish", match, seat)
            event["placement"] = seat.placement
            event["end_reason"] = match.end_reason
            lines.append(event)
        elif match.status == MatchStatus.WAITING:
            cursor.seated.add(match.pk)
            lines.append(_match_event("seat", match, seat))
        elif match.status == MatchStatus.ACTIVE:
            cursor.started.add(match.pk)
            lines.append(_match_event("gameStart", match, seat))
    return lines


# --- One game's stream -------------------------------------------------------------


def bot_seat(*, account: BotAccount, public_id: str) -> Seat:
    """The bot's seat at match ``public_id`` (not found: no such match, or no
    seat of its: a bot never learns more about a match it is not playing)."""
    seat: Seat | None
    try:
        seat = (
            Seat.objects.select_related("match")
            .filter(match__public_id=public_id, user=account.user)
            .first()
        )
    except ValidationError:
        seat = None
    if seat is None:
        raise BotNotFound(_("No such match among this bot's games."))
    return seat


def game_full(*, match: Match, seat: int) -> dict[str, Any]:
    """The stream's first line: what the bot's ``hello`` holds, and more."""
    engine = get_game(match.game)
    return {
        "type": "gameFull",
        "match": str(match.public_id),
        "game": match.game,
        "rules_version": engine.rules_version,
        "seat": seat,
        "players": match.config.get("players"),
        "config": public_config(game_id=match.game, config=match.config),
        "rated": match.rated,
        "time_control": match.time_control,
        "realtime": is_realtime(engine),
        "seats": [
            {"number": s.number, "name": s.display_name, "is_bot": s.is_bot}
            for s in match.seats.select_related("user").order_by("number")
        ],
        "status": match.status,
        "version": match.version,
    }


def game_state(*, match: Match, seat: Seat, after_version: int) -> dict[str, Any]:
    """The seat's view now and the events since ``after_version`` (its view
    of them: the public part and its own private part, nothing else)."""
    engine = get_game(match.game)
    active = match.status == MatchStatus.ACTIVE
    state = match.state
    actors = engine.actors(state) if active and state is not None else []
    line: dict[str, Any] = {
        "type": "gameState",
        "version": match.version,
        "status": match.status,
        "actors": actors,
        "view": engine.observe(state, seat.number) if state is not None else None,
        "legal": engine.legal_actions(state, seat.number)
        if seat.number in actors
        else [],
        "events": events_since(
            match=match, seat=seat.number, after_version=after_version
        ),
        "clock_ms": seat.clock_ms,
    }
    return line


def game_end(*, match: Match) -> dict[str, Any]:
    return {
        "type": "gameEnd",
        "version": match.version,
        "status": match.status,
        "end_reason": match.end_reason,
        "placements": [
            {"seat": s.number, "placement": s.placement, "forfeited": s.forfeited}
            for s in match.seats.order_by("number")
        ],
    }


def match_version(*, match_id: int) -> tuple[int, str] | None:
    """The match's version and status: the stream's cheap poll."""
    row = Match.objects.filter(pk=match_id).values_list("version", "status").first()
    return (row[0], row[1]) if row is not None else None


def game_poll(
    *, match_id: int, user_id: int, after_version: int
) -> list[dict[str, Any]]:
    """The lines a game stream sends now that the match is past
    ``after_version``: the seat's state, and ``gameEnd`` once it is over."""
    seat = (
        Seat.objects.select_related("match")
        .filter(match_id=match_id, user_id=user_id)
        .first()
    )
    if seat is None:
        return []
    match = seat.match
    lines = [game_state(match=match, seat=seat, after_version=after_version)]
    if match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED):
        lines.append(game_end(match=match))
    return lines
