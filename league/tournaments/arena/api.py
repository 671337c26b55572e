"""Arena API: list and create arenas, read one (standings, games), join and
leave, pause and come back, berserk. Thin: validate, call a service, present.
Service refusals become ``{"code", "detail"}`` answers (``config.api``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import SignedInApiRequest
from league.models import ParticipantKind
from league.tournaments.arena import selectors, services
from league.tournaments.arena.models import Arena, ArenaGameStatus, ArenaPlayer
from league.tournaments.arena.services import MAX_MINUTES, MIN_MINUTES


def present_arena(arena: Arena) -> dict[str, Any]:
    return {
        "slug": arena.slug,
        "name": arena.name,
        "game": arena.game,
        "participants": arena.participants,
        "rated": arena.rated,
        "berserk": services.berserk_possible(arena),
        "time_control": arena.time_control,
        "minutes": arena.minutes,
        "starts_at": arena.starts_at.isoformat(),
        "ends_at": arena.ends_at.isoformat(),
        "status": arena.status,
    }


def present_player(player: ArenaPlayer) -> dict[str, Any]:
    return {
        "participant": player.participant.name,
        "bot_id": player.participant.bot_id,
        "score": player.score,
        "streak": player.streak,
        "games": player.games,
        "paused": player.paused,
        "withdrawn": player.withdrawn,
        "berserk": player.berserk,
    }


def present_detail(arena: Arena) -> dict[str, Any]:
    def games(state: str) -> list[dict[str, Any]]:
        return [
            {
                "match": str(g.game.match.public_id) if g.game.match else None,
                "seats": g.seats,
            }
            for g in selectors.games(arena, status=state)
        ]

    return {
        **present_arena(arena),
        "standings": [
            {
                "rank": row.rank,
                **present_player(row.player),
                "fire": row.fire,
                "state": row.state,
                "sheet": [g["points"] for g in row.sheet],
            }
            for row in selectors.standings(arena)
        ],
        "playing": games(ArenaGameStatus.PLAYING),
        "finished": games(ArenaGameStatus.DONE),
    }


class ArenaCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    game = serializers.CharField(max_length=20)
    minutes = serializers.IntegerField(min_value=MIN_MINUTES, max_value=MAX_MINUTES)
    starts_in = serializers.IntegerField(
        min_value=0, max_value=30 * 24 * 60, required=False, default=0
    )
    participants = serializers.ChoiceField(
        choices=ParticipantKind.choices, default=ParticipantKind.MIXED
    )
    rated = serializers.BooleanField(default=True)
    berserk = serializers.BooleanField(default=True)
    time_control = serializers.DictField(required=False, default=dict)


class BotSerializer(serializers.Serializer):
    bot_id = serializers.IntegerField(required=False, min_value=1, max_value=2**62)


class PauseSerializer(BotSerializer):
    paused = serializers.BooleanField()


class BerserkSerializer(BotSerializer):
    berserk = serializers.BooleanField()


class ArenaAPIView(APIView):
    def valid(self, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def arena(self) -> Arena:
        return get_object_or_404(Arena, slug=self.kwargs["slug"])


class ArenaListView(ArenaAPIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny() if self.request.method == "GET" else IsAuthenticated()]

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        return Response(
            {"results": [present_arena(a) for a in Arena.objects.all()[:100]]}
        )

    @extend_schema(request=ArenaCreateSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest) -> Response:
        data = self.valid(ArenaCreateSerializer)
        now = timezone.now()
        arena = services.arena_create(
            by=request.user,
            name=data["name"],
            game=data["game"],
            minutes=data["minutes"],
            starts_at=now + timedelta(minutes=data["starts_in"]),
            participants=data["participants"],
            rated=data["rated"],
            berserk=data["berserk"],
            time_control=data["time_control"],
            now=now,
        )
        return Response(present_arena(arena), status=status.HTTP_201_CREATED)


class ArenaDetailView(ArenaAPIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, slug: str) -> Response:
        return Response(present_detail(self.arena()))


class ArenaEntryView(ArenaAPIView):
    """POST joins (or rejoins) the caller or their bot; DELETE leaves."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=BotSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(BotSerializer)
        player = services.arena_join(
            arena=self.arena(), user=request.user, bot_id=data.get("bot_id")
        )
        return Response(present_player(player), status=status.HTTP_201_CREATED)

    @extend_schema(request=BotSerializer, responses={204: None})
    def delete(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(BotSerializer)
        services.arena_leave(
            arena=self.arena(), user=request.user, bot_id=data.get("bot_id")
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ArenaPauseView(ArenaAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PauseSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(PauseSerializer)
        player = services.arena_pause(
            arena=self.arena(),
            user=request.user,
            paused=data["paused"],
            bot_id=data.get("bot_id"),
        )
        return Response(present_player(player))


class ArenaBerserkView(ArenaAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=BerserkSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(BerserkSerializer)
        player = services.arena_set_berserk(
            arena=self.arena(),
            user=request.user,
            berserk=data["berserk"],
            bot_id=data.get("bot_id"),
        )
        return Response(present_player(player))
