"""Duplicate event endpoints: list and create, one event, join/leave, start.

Views parse and call services; a ``LeagueError`` becomes ``{"code", "detail"}``
(config.api). A round's seeds and results appear only once the round is over.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import SignedInApiRequest
from gameplay.rules import available_games
from league.duplicate import selectors, services
from league.duplicate.services import MAX_DEALS, MAX_ROUNDS


class EventCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=available_games())
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, default=1)
    deals = serializers.IntegerField(
        min_value=1, max_value=MAX_DEALS, required=False, allow_null=True
    )
    table_size = serializers.IntegerField(
        min_value=2, max_value=8, required=False, allow_null=True
    )
    par_bot = serializers.CharField(max_length=40, default="heuristic")
    per_move = serializers.IntegerField(
        min_value=10,
        max_value=600,
        required=False,
        allow_null=True,
        default=services.DEFAULT_PER_MOVE,
    )


def _valid(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class EventListView(APIView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        return Response(
            [
                {
                    "slug": e.slug,
                    "name": e.name,
                    "game": e.game,
                    "status": e.status,
                    "organiser": e.organiser.username,
                }
                for e in selectors.event_list()
            ]
        )

    @extend_schema(request=EventCreateSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest) -> Response:
        event = services.duplicate_event_create(
            by=request.user, **_valid(EventCreateSerializer, request)
        )
        return Response(
            selectors.event_json(event=event, user=request.user),
            status=status.HTTP_201_CREATED,
        )


class EventDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, slug: str) -> Response:
        event = selectors.event_by_slug(slug=slug)
        return Response(selectors.event_json(event=event, user=request.user))


class EventEntryView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        event = selectors.event_by_slug(slug=slug)
        services.duplicate_event_join(event=event, user=request.user)
        return Response(
            selectors.event_json(event=event, user=request.user),
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: SignedInApiRequest, slug: str) -> Response:
        event = selectors.event_by_slug(slug=slug)
        services.duplicate_event_leave(event=event, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventStartView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        event = selectors.event_by_slug(slug=slug)
        services.duplicate_event_start(event=event, by=request.user)
        event.refresh_from_db()
        return Response(selectors.event_json(event=event, user=request.user))


class RoundCloseView(APIView):
    """The organiser ends the round in play now (games still going are called off)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        event = selectors.event_by_slug(slug=slug)
        services.duplicate_round_close(event=event, by=request.user)
        event.refresh_from_db()
        return Response(selectors.event_json(event=event, user=request.user))
