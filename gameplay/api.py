"""Match, table, challenge and quick-play endpoints of the public API.

Views parse and authorise; the services do the work and raise ``MatchError``s,
which the project's exception handler turns into ``{"code", "detail"}`` answers.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_noop as N_
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import SignedInApiRequest
from accounts.models import User
from gameplay import frames, lobby, selectors, services
from gameplay import vacation as vacations
from gameplay.contexts import SEALED_MESSAGE, match_is_sealed
from gameplay.errors import BadRequest, Forbidden, NotActive
from gameplay.models import Challenge, Match, MatchStatus
from gameplay.options import public_config

# --- serializers -------------------------------------------------------------


class SeatSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField(source="display_name")
    username = serializers.SerializerMethodField()
    is_bot = serializers.BooleanField()
    placement = serializers.IntegerField(allow_null=True)

    def get_username(self, seat) -> str | None:
        return seat.user.username if seat.user is not None else None


class MatchSummarySerializer(serializers.ModelSerializer):
    """A match as anyone may see it: no secret options, the delay respected."""

    id = serializers.UUIDField(source="public_id")
    seats = SeatSerializer(many=True)
    # Held back by the spectator delay while in play (Match.public_version).
    version = serializers.IntegerField(source="public_version", read_only=True)
    config = serializers.SerializerMethodField()

    def to_representation(self, instance: Match) -> dict[str, Any]:
        data = super().to_representation(instance)
        if instance.is_over and match_is_sealed(instance):
            # Its result would tell about a deal other tables still play.
            data["end_reason"] = ""
            for seat in data["seats"]:
                seat["placement"] = None
        return data

    def get_config(self, match: Match) -> dict[str, Any]:
        """Public options only until the end (a stacked deck is a secret)."""
        if match.is_over:
            return match.config
        return public_config(game_id=match.game, config=match.config)

    class Meta:
        model = Match
        fields = (
            "id",
            "game",
            "status",
            "rated",
            "version",
            "config",
            "time_control",
            "seed_hash",
            "seats",
            "end_reason",
            "created_at",
            "started_at",
            "finished_at",
        )


class ActSerializer(serializers.Serializer):
    action = serializers.CharField(max_length=services.MAX_ACTION_ID_LENGTH)
    version = serializers.IntegerField(min_value=0, required=False)


class TableCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=20)
    players = serializers.IntegerField(min_value=1, max_value=16)
    options = serializers.DictField(required=False, default=dict)
    rated = serializers.BooleanField(required=False, default=False)
    time_control = serializers.DictField(required=False, default=dict)
    spectator_delay = serializers.IntegerField(min_value=0, max_value=50, default=0)


class BotSeatSerializer(serializers.Serializer):
    # A built-in bot's name, ``upload:<bot id>`` or ``connected:<username>``.
    bot = serializers.CharField(max_length=64)


class ChallengeSerializer(serializers.ModelSerializer):
    challenger = serializers.CharField(source="challenger.username", read_only=True)
    challenged = serializers.CharField(source="challenged.username", read_only=True)
    match = serializers.UUIDField(
        source="match.public_id", read_only=True, allow_null=True
    )

    class Meta:
        model = Challenge
        fields = (
            "id",
            "challenger",
            "challenged",
            "game",
            "config",
            "rated",
            "time_control",
            "status",
            "match",
            "created_at",
        )


class ChallengeCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    game = serializers.CharField(max_length=20)
    options = serializers.DictField(required=False, default=dict)
    rated = serializers.BooleanField(required=False, default=False)
    time_control = serializers.DictField(required=False, default=dict)


class QueueSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=20)
    players = serializers.IntegerField(min_value=2, max_value=16, default=2)
    rated = serializers.BooleanField(required=False, default=False)
    time_control = serializers.DictField(required=False, default=dict)


class PlayBotSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=20)
    bot = serializers.CharField(max_length=30, default="heuristic")
    rated = serializers.BooleanField(required=False, default=False)


class BotStrengthSerializer(serializers.Serializer):
    bot = serializers.CharField()
    strength = serializers.CharField()
    name = serializers.CharField()


def _valid(serializer_class, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _match(public_id) -> Match:
    return selectors.match_by_public_id(public_id=public_id)


# --- matches -------------------------------------------------------------------


class MatchListView(generics.ListAPIView):
    """Matches, newest first; filter with `?game=duelo&status=active`."""

    permission_classes = [AllowAny]
    serializer_class = MatchSummarySerializer

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str),
            OpenApiParameter("status", str, enum=[c for c, _ in MatchStatus.choices]),
            OpenApiParameter("player", str, description="username"),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Match]:
        matches = Match.objects.prefetch_related("seats__user").order_by("-created_at")
        params = self.request.query_params
        if params.get("game"):
            matches = matches.filter(game=params["game"])
        if params.get("status"):
            matches = matches.filter(status=params["status"])
        if params.get("player"):
            matches = matches.filter(seats__user__username=params["player"])
        return matches


def _refuse_if_sealed(match: Match, user: Any) -> None:
    """A sealed match (``gameplay.contexts``) shows only its own players
    their seats; with ``user`` None even they get no replay or record."""
    if not match_is_sealed(match):
        return
    if user is not None and selectors.user_seat(match=match, user=user) is not None:
        return
    raise Forbidden(str(SEALED_MESSAGE))


class MatchStateView(APIView):
    """The match as the caller may see it: their seat's view, or the public one."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, public_id) -> Response:
        match = _match(public_id)
        seat = selectors.viewer_seat(match=match, user=request.user)
        if seat is not None:
            return Response(frames.seat_frame(match=match, seat=seat))
        _refuse_if_sealed(match, request.user)
        return Response(frames.spectator_frame(match=match))


class MatchActView(APIView):
    """Make a move: `{"action": "<id>", "version": <the version you chose at>}`."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ActSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest, public_id) -> Response:
        data = _valid(ActSerializer, request)
        match = _match(public_id)
        outcome = services.match_act(
            match_id=match.pk,
            user=request.user,
            action_id=data["action"],
            expected_version=data.get("version"),
        )
        return Response({"version": outcome.version, "finished": outcome.finished})


class MatchResignView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: SignedInApiRequest, public_id) -> Response:
        match = services.match_resign(match_id=_match(public_id).pk, user=request.user)
        return Response({"status": match.status})


class MatchReplayView(APIView):
    """Every step of a finished match; `?perspective=full|spectator|seat:N`."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("perspective", str)], responses={200: dict}
    )
    def get(self, request: Request, public_id) -> Response:
        match = _match(public_id)
        if match.status != MatchStatus.FINISHED:
            raise NotActive(N_("replays are published when the match ends"))
        _refuse_if_sealed(match, None)
        try:
            return Response(
                selectors.match_replay(
                    match=match, perspective=request.query_params.get("perspective")
                )
            )
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc


class MatchRecordView(APIView):
    """The match record (options, seed, actions) to re-derive and check the deal."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, public_id) -> Response:
        match = _match(public_id)
        if match.status != MatchStatus.FINISHED:
            raise NotActive(N_("the record is published when the match ends"))
        _refuse_if_sealed(match, None)
        return Response(selectors.match_record(match=match))


# --- tables --------------------------------------------------------------------


class TableListCreateView(APIView):
    """Open tables (`?game=`), or open one (signed in)."""

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(responses={200: MatchSummarySerializer(many=True)})
    def get(self, request: Request) -> Response:
        tables = selectors.open_tables(game=request.query_params.get("game"))[:100]
        return Response(MatchSummarySerializer(tables, many=True).data)

    @extend_schema(
        request=TableCreateSerializer, responses={201: MatchSummarySerializer}
    )
    def post(self, request: SignedInApiRequest) -> Response:
        data = _valid(TableCreateSerializer, request)
        match = lobby.table_create(host=request.user, **data)
        return Response(
            MatchSummarySerializer(_match(match.public_id)).data,
            status=status.HTTP_201_CREATED,
        )


class TableActionView(APIView):
    """`join`, `leave`, `start`, or `bot` (body `{"bot": "heuristic"}`)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=BotSeatSerializer, responses={200: MatchSummarySerializer})
    def post(self, request: SignedInApiRequest, public_id, action: str) -> Response:
        match = _match(public_id)
        if action == "join":
            lobby.table_join(match_id=match.pk, user=request.user)
        elif action == "leave":
            lobby.table_leave(match_id=match.pk, user=request.user)
        elif action == "start":
            lobby.table_start(match_id=match.pk, user=request.user)
        elif action == "bot":
            data = _valid(BotSeatSerializer, request)
            lobby.table_fill_with_bot(
                match_id=match.pk, user=request.user, bot=data["bot"]
            )
        else:
            raise Http404("unknown table action")
        return Response(MatchSummarySerializer(_match(public_id)).data)


# --- challenges and quick play --------------------------------------------------


class ChallengeListCreateView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ChallengeSerializer(many=True)})
    def get(self, request: SignedInApiRequest) -> Response:
        challenges = (
            Challenge.objects.filter(challenged=request.user)
            | Challenge.objects.filter(challenger=request.user)
        ).select_related("challenger", "challenged", "match")[:100]
        return Response(ChallengeSerializer(challenges, many=True).data)

    @extend_schema(
        request=ChallengeCreateSerializer, responses={201: ChallengeSerializer}
    )
    def post(self, request: SignedInApiRequest) -> Response:
        data = _valid(ChallengeCreateSerializer, request)
        opponent = User.objects.filter(
            username=data.pop("username"), is_active=True
        ).first()
        if opponent is None:
            raise BadRequest(N_("no player with that username"))
        challenge = lobby.challenge_create(
            challenger=request.user, challenged=opponent, **data
        )
        return Response(
            ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED
        )


class ChallengeAnswerView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: ChallengeSerializer})
    def post(
        self, request: SignedInApiRequest, challenge_id: int, answer: str
    ) -> Response:
        if answer == "accept":
            lobby.challenge_accept(challenge_id=challenge_id, user=request.user)
        elif answer == "decline":
            lobby.challenge_decline(challenge_id=challenge_id, user=request.user)
        else:
            raise Http404("answer must be accept or decline")
        challenge = Challenge.objects.select_related(
            "challenger", "challenged", "match"
        ).get(pk=challenge_id)
        return Response(ChallengeSerializer(challenge).data)


class QueueView(APIView):
    """Join (`POST {"game", "players", "rated"}`) or leave (`DELETE ?game=`)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=QueueSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest) -> Response:
        data = _valid(QueueSerializer, request)
        match = lobby.queue_join(user=request.user, **data)
        if match is None:
            return Response({"status": "waiting"})
        return Response({"status": "matched", "match": str(match.public_id)})

    @extend_schema(parameters=[OpenApiParameter("game", str)], responses={200: dict})
    def delete(self, request: SignedInApiRequest) -> Response:
        left = lobby.queue_leave(
            user=request.user, game=request.query_params.get("game", "")
        )
        return Response({"left": left})


class PlayBotView(APIView):
    """One click to play the computer, as "Play a bot" on each game's page:
    `GET ?game=` lists the strengths that play the game, `POST {"game", "bot",
    "rated"}` starts a game at once (the caller in seat 0, the built-in bot
    opposite; at a rated game of three or more each seat a different bot)."""

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=True)],
        responses={200: BotStrengthSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        strengths = selectors.play_bot_strengths(
            game=request.query_params.get("game", "")
        )
        return Response(BotStrengthSerializer(strengths, many=True).data)

    @extend_schema(request=PlayBotSerializer, responses={201: MatchSummarySerializer})
    def post(self, request: SignedInApiRequest) -> Response:
        data = _valid(PlayBotSerializer, request)
        match = lobby.play_bot(user=request.user, **data)
        return Response(
            MatchSummarySerializer(_match(match.public_id)).data,
            status=status.HTTP_201_CREATED,
        )


class VacationSerializer(serializers.Serializer):
    days = serializers.IntegerField()


class VacationView(APIView):
    """Your vacation (docs/time-controls.md): `GET` the days left and whether
    you are away, `POST {"days": n}` to go now, `DELETE` to come back early."""

    permission_classes = [IsAuthenticated]

    def _status(self, user: User) -> Response:
        status_ = vacations.vacation_status(user=user)
        return Response(
            {
                "days_per_year": status_.days_per_year,
                "days_left": status_.days_left,
                "away_until": status_.away_until.isoformat()
                if status_.away_until
                else None,
            }
        )

    @extend_schema(responses={200: dict})
    def get(self, request: SignedInApiRequest) -> Response:
        return self._status(request.user)

    @extend_schema(request=VacationSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest) -> Response:
        data = _valid(VacationSerializer, request)
        services.vacation_start(user=request.user, days=data["days"])
        return self._status(request.user)

    @extend_schema(request=None, responses={200: dict})
    def delete(self, request: SignedInApiRequest) -> Response:
        services.vacation_end(user=request.user)
        return self._status(request.user)
