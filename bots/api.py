"""Bot endpoints of the public API: list, upload (multipart), detail, logs, staff.

Views parse and authorise; the services check uploads and raise ``BotError``s,
which the project's exception handler answers as ``{"code", "detail"}``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import SignedInApiRequest
from accounts.models import User
from bots import connected, scrimmages, selectors, services, version_ratings
from bots.errors import BotError, BotForbidden
from bots.forms import read_upload
from bots.models import BotVersion
from gameplay.agents import connected_choice
from gameplay.rules import available_games


class BotCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=40)
    game = serializers.CharField(max_length=20)
    description = serializers.CharField(max_length=200, required=False, default="")
    source_public = serializers.BooleanField(required=False, default=False)
    file = serializers.FileField()


class VersionCreateSerializer(serializers.Serializer):
    file = serializers.FileField()
    game = serializers.CharField(max_length=20, required=False)
    keep_data = serializers.BooleanField(required=False, default=False)


class DisableSerializer(serializers.Serializer):
    disabled = serializers.BooleanField()
    reason = serializers.CharField(max_length=200, required=False, default="")


def version_data(version: BotVersion, *, owner: bool) -> dict[str, Any]:
    data = {
        "number": version.number,
        "status": version.status,
        "sha256": version.sha256,
        "filename": version.filename,
        "upload_bytes": version.upload_bytes,
        "unpacked_bytes": version.unpacked_bytes,
        "file_count": version.file_count,
        "created_at": version.created_at,
        "validated_at": version.validated_at,
        "runtime": selectors.version_runtime(version=version, label=False),
    }
    if owner:
        data["keep_data"] = version.keep_data
        data["status_detail"] = version.status_detail
        data["validation_report"] = version.validation_report
    return data


def rating_data(version: BotVersion, row: Any) -> dict[str, Any] | None:
    """A version's own rating, where it starts from, and its latest history."""
    if row is None:
        return None
    return {
        "rating": row.rating,
        "games": row.games,
        "provisional": version_ratings.is_provisional(row),
        "seed_rating": row.seed_rating,
        "seeded_from": row.seeded_from.number if row.seeded_from else None,
        "history": [
            {
                "match": str(event.match.public_id),
                "rating_before": event.rating_before,
                "rating_after": event.rating_after,
                "games_after": event.games_after,
                "at": event.created_at,
            }
            for event in version_ratings.version_history(version=version, limit=20)
        ],
    }


def _valid(serializer_class, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class BotListView(APIView):
    """Uploaded bots (filter by ``game`` or ``owner``); POST uploads a new bot."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="bots_list",
        parameters=[
            OpenApiParameter("game", str, description="Only this game's bots"),
            OpenApiParameter("owner", str, description="Only this user's bots"),
        ],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        owner = None
        if request.query_params.get("owner"):
            owner = User.objects.filter(username=request.query_params["owner"]).first()
            if owner is None:
                return Response({"results": []})
        bots = selectors.bot_list(game=request.query_params.get("game"), owner=owner)
        return Response({"results": [selectors.bot_summary(bot=b) for b in bots[:200]]})

    @extend_schema(request=BotCreateSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest) -> Response:
        data = _valid(BotCreateSerializer, request)
        version = services.bot_create(
            owner=request.user,
            game=data["game"],
            name=data["name"],
            description=data["description"],
            source_public=data["source_public"],
            filename=data["file"].name,
            data=read_upload(data["file"]),
        )
        body = selectors.bot_summary(bot=version.bot)
        body["version"] = version_data(version, owner=True)
        return Response(body, status=status.HTTP_201_CREATED)


class BuiltinBotListView(APIView):
    """The built-in bots of every game, with their strength labels."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        return Response(
            {
                "results": [
                    {"name": b.name, "agent": b.agent, "strength": b.strength}
                    for b in selectors.builtin_bots()
                ]
            }
        )


class OnlineBotListView(APIView):
    """The connected bots online now (their event streams open), per game:
    whom a person may challenge by username or seat at a table of theirs
    (``seat``: the value for ``POST /api/tables/<id>/bot/``)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=True)],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game", "")
        if game not in available_games():
            raise BotError(_("Give a known game: ?game=<game id>."))
        return Response(
            {
                "results": [
                    {
                        "username": account.user.username,
                        "game": account.game,
                        "seat": connected_choice(account.user.username),
                    }
                    for account in sorted(
                        connected.online_accounts(game=game),
                        key=lambda a: a.user.username.lower(),
                    )
                ]
            }
        )


class BotDetailView(APIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, bot_id: int) -> Response:
        bot = selectors.bot_get(bot_id=bot_id)
        owner = selectors.can_see_logs(user=request.user, bot=bot)
        body = selectors.bot_summary(bot=bot)
        records = selectors.version_records(bot=bot)
        ratings = version_ratings.version_ratings(bot=bot)
        body["versions"] = [
            {
                **version_data(v, owner=owner),
                "games": records[v.pk].games if v.pk in records else 0,
                "wins": records[v.pk].wins if v.pk in records else 0,
                "rating": rating_data(v, ratings.get(v.pk)),
            }
            for v in selectors.bot_versions(bot=bot)
        ]
        body["head_to_head"] = [
            {
                "opponent": row.key,
                "name": row.name,
                "bot": row.bot_id,
                "games": row.games,
                "won": row.won,
                "drawn": row.drawn,
                "lost": row.lost,
                "replays": [str(m.public_id) for m in row.replays or []],
            }
            for row in selectors.bot_head_to_head(bot=bot)
        ]
        body["recent_matches"] = [
            {
                "match": str(row.match.public_id),
                "seat": row.seat.number,
                "placement": row.seat.placement,
                "end_reason": row.match.end_reason,
                "fault": row.fault,
                "opponents": row.opponents,
            }
            for row in selectors.bot_recent_matches(bot=bot)
        ]
        return Response(body)


class BotVersionCreateView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request=VersionCreateSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, bot_id: int) -> Response:
        data = _valid(VersionCreateSerializer, request)
        version = services.bot_version_upload(
            bot_id=bot_id,
            user=request.user,
            filename=data["file"].name,
            data=read_upload(data["file"]),
            game=data.get("game"),
            keep_data=data["keep_data"],
        )
        return Response(
            version_data(version, owner=True), status=status.HTTP_201_CREATED
        )


def _refused_entry(entry: list[Any]) -> dict[str, Any]:
    """A stored refused intent, ``[tick, action, reason, code, params]`` (logs
    written before the code or the params were kept: null, {})."""
    tick, action, reason, *rest = entry
    return {
        "tick": tick,
        "action": action,
        "code": rest[0] if rest else None,
        "params": rest[1] if len(rest) > 1 else {},
        "reason": reason,
    }


class BotLogsView(APIView):
    """Validation reports, per-match logs and stderr: the owner's alone."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: dict})
    def get(self, request: SignedInApiRequest, bot_id: int) -> Response:
        bot = selectors.bot_get(bot_id=bot_id)
        if not selectors.can_see_logs(user=request.user, bot=bot):
            raise BotForbidden(_("Only the bot's owner can read its logs."))
        return Response(
            {
                "versions": [
                    {
                        **version_data(v, owner=True),
                        "validation_stderr": v.validation_stderr,
                    }
                    for v in selectors.bot_versions(bot=bot)
                ],
                "matches": [
                    {
                        "match": str(log.match.public_id),
                        "version": log.version.number,
                        "seat": log.seat,
                        "decisions": log.decisions,
                        "think_ms": log.think_ms,
                        "fault": log.fault,
                        "fault_detail": log.fault_detail,
                        "refused_count": log.refused_count,
                        "refused": [_refused_entry(r) for r in log.refused],
                        "stderr": log.stderr,
                    }
                    for log in selectors.bot_logs(bot=bot)
                ],
            }
        )


class BotDisableView(APIView):
    """Staff only: disable a bot (it is scheduled nowhere) or enable it again."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=DisableSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest, bot_id: int) -> Response:
        data = _valid(DisableSerializer, request)
        bot = services.bot_set_disabled(
            bot_id=bot_id,
            staff=request.user,
            disabled=data["disabled"],
            reason=data["reason"],
        )
        return Response(selectors.bot_summary(bot=bot))


class ChallengeSerializer(serializers.Serializer):
    rated = serializers.BooleanField(default=False)
    per_move = serializers.IntegerField(required=False, min_value=5, max_value=3600)


class BotChallengeView(APIView):
    """Challenge an uploaded bot: it accepts at once; answers the started match."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ChallengeSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, bot_id: int) -> Response:
        data = _valid(ChallengeSerializer, request)
        per_move = data.get("per_move")
        match = services.bot_challenge(
            user=request.user,
            bot_id=bot_id,
            rated=data["rated"],
            time_control={"per_move": per_move} if per_move else {},
        )
        return Response(
            {"match": str(match.public_id), "status": match.status},
            status=status.HTTP_201_CREATED,
        )


class ScrimmageCreateSerializer(serializers.Serializer):
    opponent = serializers.CharField(max_length=40)
    games = serializers.IntegerField(min_value=1, max_value=scrimmages.MAX_GAMES)
    version = serializers.IntegerField(min_value=1, required=False)


def scrimmage_data(scrimmage, *, games: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": scrimmage.pk,
        "version": scrimmage.version.number,
        "opponent": scrimmage.opponent,
        "opponent_label": scrimmage.opponent_label,
        "games": scrimmage.games,
        "created_at": scrimmage.created_at,
    }
    if games:
        rows = scrimmages.scrimmage_games(scrimmage=scrimmage)
        data["summary"] = scrimmages.scrimmage_summary(rows)
        data["results"] = [
            {
                "match": str(g.match.public_id),
                "deal": g.deal,
                "seat": g.seat,
                "status": g.match.status,
                "end_reason": g.match.end_reason,
                "placement": g.placement,
                "outcome": g.outcome,
                "fault": g.fault,
            }
            for g in rows
        ]
    return data


def _owned_bot(request: SignedInApiRequest, bot_id: int):
    bot = selectors.bot_get(bot_id=bot_id)
    if not selectors.can_see_logs(user=request.user, bot=bot):
        raise BotForbidden(_("Only the bot's owner can see its scrimmages."))
    return bot


class ScrimmageListView(APIView):
    """The owner's scrimmages of a bot; POST starts one (unrated, on the
    bots workers): ``opponent`` (``builtin:<name>`` or ``bot:<version id>``),
    ``games`` (1-50), ``version``? (default: the active one)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="bot_scrimmages_list", responses={200: dict})
    def get(self, request: SignedInApiRequest, bot_id: int) -> Response:
        bot = _owned_bot(request, bot_id)
        return Response(
            {
                "results": [
                    scrimmage_data(s, games=False)
                    for s in scrimmages.scrimmages_of(bot=bot)
                ],
                "opponents": [
                    {"agent": o.agent, "label": o.label}
                    for o in scrimmages.scrimmage_opponents(bot=bot)
                ],
            }
        )

    @extend_schema(
        operation_id="bot_scrimmages_create",
        request=ScrimmageCreateSerializer,
        responses={201: dict},
    )
    def post(self, request: SignedInApiRequest, bot_id: int) -> Response:
        data = _valid(ScrimmageCreateSerializer, request)
        scrimmage = scrimmages.scrimmage_create(
            user=request.user,
            bot_id=bot_id,
            opponent=data["opponent"],
            games=data["games"],
            version_number=data.get("version"),
        )
        return Response(
            scrimmage_data(scrimmage, games=True), status=status.HTTP_201_CREATED
        )


class ScrimmageDetailView(APIView):
    """A scrimmage's games: status, placement, outcome and fault per game."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: dict})
    def get(
        self, request: SignedInApiRequest, bot_id: int, scrimmage_id: int
    ) -> Response:
        bot = _owned_bot(request, bot_id)
        scrimmage = scrimmages.scrimmage_get(bot=bot, scrimmage_id=scrimmage_id)
        return Response(scrimmage_data(scrimmage, games=True))


class LadderView(APIView):
    """The ladder of a game: every playing bot's current version, by its own
    rating (``provisional`` until it has enough rated games)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="bots_ladder",
        parameters=[OpenApiParameter("game", str, required=True)],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game", "")
        if game not in available_games():
            raise BotError(_("Give a known game: ?game=<id>."))
        return Response(
            {
                "game": game,
                "results": [
                    {
                        "bot": s.bot.pk,
                        "name": s.bot.name,
                        "owner": s.bot.owner.username,
                        "version": s.version.number,
                        "rating": s.rating,
                        "games": s.games,
                        "provisional": s.provisional,
                    }
                    for s in version_ratings.current_versions_ranking(game=game)
                ],
            }
        )
