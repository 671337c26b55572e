"""Notifications and games waiting for your move over the REST API.

The same reads and writes as the pages and the player's socket (a client
without a browser, a bot owner's script), through the same services.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import SignedInApiRequest
from gameplay import turns
from notifications import selectors, services
from notifications.models import Notification


class NotificationSerializer(serializers.ModelSerializer):
    read = serializers.BooleanField(source="is_read")

    class Meta:
        model = Notification
        fields = ["id", "kind", "title", "body", "url", "created_at", "read"]


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=500,
        help_text="Mark these read; leave out to mark all read.",
    )


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField()
    unread = serializers.IntegerField()


class NotificationPageSerializer(serializers.Serializer):
    unread = serializers.IntegerField()
    results = NotificationSerializer(many=True)


class YourMoveGameSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    game = serializers.CharField()
    version = serializers.IntegerField()
    url = serializers.URLField()


class YourMoveSerializer(serializers.Serializer):
    results = YourMoveGameSerializer(many=True)


class NotificationListView(APIView):
    """Your latest notifications (newest first, at most 100) and the unread count."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=NotificationPageSerializer)
    def get(self, request: SignedInApiRequest) -> Response:
        items = selectors.page(user=request.user)
        return Response(
            {
                "unread": services.unread_count(user_id=request.user.pk),
                "results": NotificationSerializer(items, many=True).data,
            }
        )


class NotificationReadView(APIView):
    """Mark some or all of your notifications read."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=MarkReadSerializer, responses=MarkedSerializer)
    def post(self, request: SignedInApiRequest) -> Response:
        data = MarkReadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        marked = services.notifications_mark_read(
            user=request.user, ids=data.validated_data.get("ids")
        )
        unread = services.unread_count(user_id=request.user.pk)
        return Response({"marked": marked, "unread": unread})


class YourMoveView(APIView):
    """Your games in play whose next move is yours (the navigation badge)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=YourMoveSerializer)
    def get(self, request: SignedInApiRequest) -> Response:
        return Response(
            {
                "results": [
                    {
                        "match": str(match.public_id),
                        "game": match.game,
                        "version": match.version,
                        "url": request.build_absolute_uri(turns.match_url(match)),
                    }
                    for match in turns.awaiting_move(user=request.user)
                ]
            }
        )
