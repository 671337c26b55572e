"""The bot account API: bots that play from their authors' machines over HTTP.

Two kinds of caller:

* the **owner** (a person, with their API token or session) makes bot
  accounts and their tokens (``/api/bot/accounts/...``);
* the **bot** (``Authorization: Bearer kfb_...``, a bot token with scopes)
  reads its event stream and its games' streams (``read``) and moves,
  resigns, accepts and declines challenges (``play``).

Bot tokens authenticate nowhere else: only these views list
:class:`BotTokenAuthentication`. Every bot endpoint is throttled per token
(:class:`BotTokenThrottle`, ``BOT_API_THROTTLE``). The streams are NDJSON
(one JSON object per line, a blank line as keep-alive) written by async
generators that poll the database (``bots.connected``): under ASGI a stream
holds no thread between polls. The protocol is docs/protocol/bot-api.md.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import orjson
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from accounts.http import SignedInApiRequest
from bots import connected
from bots.errors import BotError
from bots.models import BotAccount, BotToken, BotTokenScope
from gameplay import lobby, services
from gameplay.models import MatchStatus

NDJSON = "application/x-ndjson"


def stream_seconds() -> float:
    """How long a stream stays open before the server ends it (the client
    opens a new one; a game stream resumes from its last version). Bounded so
    a forgotten client does not hold a connection for ever."""
    return float(getattr(settings, "BOT_API_STREAM_SECONDS", 600))


def poll_seconds() -> float:
    """How often a stream looks at the database (one cheap query a poll)."""
    return float(getattr(settings, "BOT_API_POLL_SECONDS", 0.25))


def event_poll_seconds() -> float:
    """How often an event stream looks: a challenge or a game start may wait
    this long (a move never does: game streams poll at ``poll_seconds``)."""
    return float(getattr(settings, "BOT_API_EVENT_POLL_SECONDS", 1.0))


#: A blank line after this long without one, so proxies and clients see life.
KEEPALIVE_SECONDS = 6.0


def streams_per_token() -> int:
    """Open streams one token may hold (its event stream and its games'):
    each polls the database, so a runaway client is held to a few."""
    return int(getattr(settings, "BOT_API_STREAMS_PER_TOKEN", 8))


def _streams_key(token_id: int) -> str:
    return f"bots:api-streams:{token_id}"


class TooManyStreams(BotError):
    code = "too_many_streams"
    status = 429


def _stream_opened(token_id: int) -> None:
    """Count a stream in (refused over the cap). The count expires with the
    longest a stream lives, so a process killed mid-stream frees its share."""
    key = _streams_key(token_id)
    cache.add(key, 0, timeout=int(stream_seconds()) + 60)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, timeout=int(stream_seconds()) + 60)
        count = 1
    if count > streams_per_token():
        _stream_closed(token_id)
        raise TooManyStreams(
            _("This token has %(count)s streams open already; close one first.")
            % {"count": streams_per_token()}
        )


def _stream_closed(token_id: int) -> None:
    try:
        if cache.decr(_streams_key(token_id)) < 0:
            cache.delete(_streams_key(token_id))
    except ValueError:
        pass  # expired: nothing to count out


# --- Authentication, scopes, throttling --------------------------------------------


class BotTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <bot token>``: the request is the bot account's
    user, ``request.auth`` the :class:`BotToken`."""

    keyword = b"bearer"

    def authenticate(self, request: Request) -> tuple[Any, BotToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        if len(parts) != 2:
            raise AuthenticationFailed(_("Give one bot token after 'Bearer'."))
        key = parts[1].decode("ascii", errors="replace")
        token = connected.bot_token_for_key(key=key)
        if token is None:
            raise AuthenticationFailed(_("Unknown or revoked bot token."))
        return token.account.user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="bot"'


class BotTokenScheme(OpenApiAuthenticationExtension):
    """The schema's word for :class:`BotTokenAuthentication`."""

    target_class = "bots.bot_api.BotTokenAuthentication"
    name = "botToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A bot account token (kfb_...) with the read or play "
            "scope; see docs/protocol/bot-api.md.",
        }


class HasScope(BasePermission):
    """The bot token carries the view's ``required_scope``."""

    message = "This bot token does not have the scope this endpoint needs."

    def has_permission(self, request: Request, view: Any) -> bool:
        token = request.auth
        if not isinstance(token, BotToken):
            return False
        scope = view.required_scope
        self.message = f"This endpoint needs a bot token with the {scope!r} scope."
        return token.allows(scope)


class BotTokenThrottle(SimpleRateThrottle):
    """Requests per bot token (``BOT_API_THROTTLE``, default 300/min): one
    bot's loop cannot crowd out the others, whichever address it comes from."""

    scope = "bot"

    def get_rate(self) -> str:
        return str(getattr(settings, "BOT_API_THROTTLE", "300/min"))

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = request.auth
        if not isinstance(token, BotToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}


class BotView(APIView):
    authentication_classes = [BotTokenAuthentication]
    permission_classes = [HasScope]
    throttle_classes = [BotTokenThrottle]
    required_scope = BotTokenScope.PLAY.value
    # Programs read the refusals: English detail and codes (docs/i18n.md).
    english_errors = True


def _line(obj: dict[str, Any]) -> bytes:
    return orjson.dumps(obj) + b"\n"


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> Any:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- The owner's side: accounts and tokens -----------------------------------


class AccountCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=30)
    game = serializers.CharField(max_length=20)
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=connected.SCOPES),
        required=False,
        allow_empty=False,
    )


class TokenCreateSerializer(serializers.Serializer):
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=connected.SCOPES),
        required=False,
        allow_empty=False,
    )


def token_data(token: BotToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "prefix": token.prefix,
        "scopes": token.scopes,
        "created_at": token.created_at,
        "last_used_at": token.last_used_at,
        "revoked_at": token.revoked_at,
    }


def account_data(account: BotAccount) -> dict[str, Any]:
    return {
        "id": account.pk,
        "name": account.user.username,
        "game": account.game,
        "online": connected.bot_account_online(account_id=account.pk),
        "created_at": account.created_at,
        "tokens": [token_data(t) for t in account.tokens.all()],
    }


def issued_data(issued: connected.IssuedToken) -> dict[str, Any]:
    return {
        "account": account_data(issued.token.account),
        "token": issued.key,
        "token_id": issued.token.pk,
        "scopes": issued.token.scopes,
    }


class AccountListView(APIView):
    """The caller's bot accounts; POST turns the caller's sign-in (their API
    token or session) into a new bot account and its first bot token."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="bot_accounts_list", responses={200: dict})
    def get(self, request: SignedInApiRequest) -> Response:
        return Response(
            {
                "results": [
                    account_data(a) for a in connected.accounts_of(owner=request.user)
                ]
            }
        )

    @extend_schema(
        operation_id="bot_accounts_create",
        request=AccountCreateSerializer,
        responses={201: OpenApiResponse(dict, description="The key is shown once.")},
    )
    def post(self, request: SignedInApiRequest) -> Response:
        data = _valid(AccountCreateSerializer, request)
        issued = connected.bot_account_create(
            owner=request.user,
            name=data["name"],
            game=data["game"],
            scopes=data.get("scopes"),
        )
        return Response(issued_data(issued), status=status.HTTP_201_CREATED)


class AccountTokenCreateView(APIView):
    """Another token for one of the caller's bot accounts (shown once)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=TokenCreateSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, account_id: int) -> Response:
        data = _valid(TokenCreateSerializer, request)
        issued = connected.bot_token_issue(
            owner=request.user, account_id=account_id, scopes=data.get("scopes")
        )
        return Response(issued_data(issued), status=status.HTTP_201_CREATED)


class TokenRevokeView(APIView):
    """Revoke a bot token: it stops at once, its open streams at their next poll."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: SignedInApiRequest, token_id: int) -> Response:
        token = connected.bot_token_revoke(owner=request.user, token_id=token_id)
        return Response(token_data(token))


# --- The bot's side: streams ----------------------------------------------------


async def _event_lines(*, token: BotToken) -> AsyncIterator[bytes]:
    account = token.account
    plays = token.allows(BotTokenScope.PLAY)
    cursor = connected.EventCursor()
    clock = time.monotonic
    end = clock() + stream_seconds()
    refresh = connected.online_seconds() / 3
    seen, quiet = 0.0, clock()
    yield _line(
        {
            "type": "hello",
            "account": account.user.username,
            "game": account.game,
            "scopes": token.scopes,
            "online": plays,
        }
    )
    while clock() < end:
        if not await sync_to_async(connected.token_still_valid)(token_id=token.pk):
            yield _line({"type": "revoked"})
            return
        now = clock()
        if plays and now - seen >= refresh:
            await sync_to_async(connected.bot_account_seen)(account_id=account.pk)
            seen = now
        lines = await sync_to_async(connected.event_poll)(
            account=account, cursor=cursor
        )
        for line in lines:
            yield _line(line)
        if lines:
            quiet = now
        elif now - quiet >= KEEPALIVE_SECONDS:
            yield b"\n"
            quiet = now
        await asyncio.sleep(event_poll_seconds())


async def _game_lines(
    *, token: BotToken, match_id: int, seat_id: int, after_version: int
) -> AsyncIterator[bytes]:
    user = token.account.user
    plays = token.allows(BotTokenScope.PLAY)
    clock = time.monotonic
    end = clock() + stream_seconds()
    present = False
    sent = after_version
    seen = quiet = clock()
    try:
        first = await sync_to_async(_first_game_lines)(
            match_id=match_id, user_id=user.pk, after_version=after_version
        )
        for line in first:
            yield _line(line)
        if first[-1]["type"] == "gameEnd":
            return
        sent = first[-1]["version"]
        if plays:
            # The stream is the bot's presence at the table, as a socket is a
            # person's: the grace period and claims run on it.
            present = await sync_to_async(services.seat_connected)(
                match_id=match_id, user=user
            )
        while clock() < end:
            await asyncio.sleep(poll_seconds())
            now = clock()
            if present and now - seen >= connected.online_seconds() / 3:
                await sync_to_async(services.seats_seen)(seat_ids=[seat_id])
                seen = now
            row = await sync_to_async(connected.match_version)(match_id=match_id)
            if row is None:
                return
            version, match_status = row
            if version != sent or match_status in _OVER:
                lines = await sync_to_async(connected.game_poll)(
                    match_id=match_id, user_id=user.pk, after_version=sent
                )
                for line in lines:
                    yield _line(line)
                    quiet = now
                if lines:
                    sent = lines[0]["version"]
                    if lines[-1]["type"] == "gameEnd":
                        return
            if now - quiet >= KEEPALIVE_SECONDS:
                if not await sync_to_async(connected.token_still_valid)(
                    token_id=token.pk
                ):
                    yield _line({"type": "revoked"})
                    return
                yield b"\n"
                quiet = now
    finally:
        if present:
            await sync_to_async(services.seat_disconnected)(
                match_id=match_id, user=user
            )


_OVER = (MatchStatus.FINISHED, MatchStatus.ABORTED)


def _first_game_lines(
    *, match_id: int, user_id: int, after_version: int
) -> list[dict[str, Any]]:
    from gameplay.models import Match

    match = Match.objects.get(pk=match_id)
    seat = match.seats.select_related("user").get(user_id=user_id)
    lines = [
        connected.game_full(match=match, seat=seat.number),
        connected.game_state(match=match, seat=seat, after_version=after_version),
    ]
    if match.status in _OVER:
        lines.append(connected.game_end(match=match))
    return lines


async def _counted(lines: AsyncIterator[bytes], token_id: int) -> AsyncIterator[bytes]:
    """``lines``, counted out of the token's open streams when they end."""
    try:
        async for line in lines:
            yield line
    finally:
        await sync_to_async(_stream_closed)(token_id)


def _stream(lines: AsyncIterator[bytes], token_id: int) -> StreamingHttpResponse:
    _stream_opened(token_id)
    response = StreamingHttpResponse(_counted(lines, token_id), content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


class EventStreamView(BotView):
    """NDJSON: ``hello``, then challenges, seats, game starts and ends."""

    required_scope = BotTokenScope.READ.value

    @extend_schema(
        operation_id="bot_event_stream",
        responses={(200, NDJSON): OpenApiResponse(str, description="NDJSON lines")},
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        assert isinstance(request.auth, BotToken)
        return _stream(_event_lines(token=request.auth), request.auth.pk)


class GameStreamView(BotView):
    """NDJSON of the bot's seat in one game: ``gameFull``, ``gameState``
    per change (events since the previous line), ``gameEnd``."""

    required_scope = BotTokenScope.READ.value

    @extend_schema(
        operation_id="bot_game_stream",
        parameters=[
            OpenApiParameter(
                "version",
                int,
                description="Resume: the last version you saw (events after it).",
            )
        ],
        responses={(200, NDJSON): OpenApiResponse(str, description="NDJSON lines")},
    )
    def get(self, request: Request, match: str) -> StreamingHttpResponse:
        token = request.auth
        assert isinstance(token, BotToken)
        seat = connected.bot_seat(account=token.account, public_id=match)
        raw = request.query_params.get("version", "0")
        if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
            raise BotError(_("version must be a whole number of 0 or more"))
        return _stream(
            _game_lines(
                token=token,
                match_id=seat.match_id,
                seat_id=seat.pk,
                after_version=min(int(raw), seat.match.version),
            ),
            token.pk,
        )


# --- The bot's side: moves and answers --------------------------------------


class BotActSerializer(serializers.Serializer):
    action = serializers.CharField(max_length=services.MAX_ACTION_ID_LENGTH)
    version = serializers.IntegerField(min_value=0)


class GameActView(BotView):
    """Move: ``{"action": "<id>", "version": <the version the move answers>}``."""

    @extend_schema(
        operation_id="bot_game_act", request=BotActSerializer, responses={200: dict}
    )
    def post(self, request: Request, match: str) -> Response:
        token = request.auth
        assert isinstance(token, BotToken)
        data = _valid(BotActSerializer, request)
        seat = connected.bot_seat(account=token.account, public_id=match)
        outcome = services.match_act(
            match_id=seat.match_id,
            user=token.account.user,
            action_id=data["action"],
            expected_version=data["version"],
        )
        return Response({"version": outcome.version, "finished": outcome.finished})


class GameResignView(BotView):
    @extend_schema(operation_id="bot_game_resign", request=None, responses={200: dict})
    def post(self, request: Request, match: str) -> Response:
        token = request.auth
        assert isinstance(token, BotToken)
        seat = connected.bot_seat(account=token.account, public_id=match)
        done = services.match_resign(match_id=seat.match_id, user=token.account.user)
        return Response({"status": done.status})


class ChallengeAnswerView(BotView):
    """Accept (the match starts: a ``gameStart`` follows) or decline."""

    @extend_schema(
        operation_id="bot_challenge_answer", request=None, responses={200: dict}
    )
    def post(self, request: Request, challenge_id: int, answer: str) -> Response:
        token = request.auth
        assert isinstance(token, BotToken)
        user = token.account.user
        if answer == "accept":
            started = lobby.challenge_accept(challenge_id=challenge_id, user=user)
            return Response({"match": str(started.public_id), "status": started.status})
        challenge = lobby.challenge_decline(challenge_id=challenge_id, user=user)
        return Response({"status": challenge.status})
