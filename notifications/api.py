"""Notifications and games waiting for your move over the REST API.

The same reads and writes as the pages and the player's socket (a client
without a browser, a bot owner's script), through the same services.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import SignedInApiRequest
from gameplay import turns
from notifications import selectors, services, webpush
from notifications.models import Notification, PushSubscription


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
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When your time for this move runs out."
    )
    time_left = serializers.IntegerField(
        allow_null=True, help_text="Seconds left for your move (null: no clock)."
    )


class YourMoveSerializer(serializers.Serializer):
    results = YourMoveGameSerializer(many=True)


class PlayerGameSerializer(YourMoveGameSerializer):
    game_name = serializers.CharField()
    status = serializers.CharField(help_text="waiting (for players) or active")
    your_move = serializers.BooleanField()
    to_move = serializers.ListField(child=serializers.CharField())
    opponents = serializers.ListField(child=serializers.CharField())


class PlayerGamesSerializer(serializers.Serializer):
    results = PlayerGameSerializer(many=True)


def _game_row(request: SignedInApiRequest, game: turns.PlayerGame) -> dict:
    match = game.match
    return {
        "match": str(match.public_id),
        "game": match.game,
        "game_name": game.game_name,
        "version": match.version,
        "url": request.build_absolute_uri(game.url),
        "status": game.status,
        "your_move": game.your_move,
        "to_move": game.to_move,
        "opponents": game.opponents,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "time_left": (
            None if game.time_left is None else int(game.time_left.total_seconds())
        ),
    }


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
    """Your games in play whose next move is yours (the navigation badge),
    the least time left first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=YourMoveSerializer)
    def get(self, request: SignedInApiRequest) -> Response:
        games = turns.player_games(user=request.user)
        keys = YourMoveGameSerializer().fields.keys()
        return Response(
            {
                "results": [
                    {key: row[key] for key in keys}
                    for row in (_game_row(request, g) for g in games if g.your_move)
                ]
            }
        )


class PlayerGamesView(APIView):
    """Your waiting tables and games in play by urgency, as on the home page:
    your moves first, the least time left first; then games waiting for
    others; then tables waiting for players."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PlayerGamesSerializer)
    def get(self, request: SignedInApiRequest) -> Response:
        games = turns.player_games(user=request.user)
        return Response({"results": [_game_row(request, g) for g in games]})


class PushKeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class PushSubscribeSerializer(serializers.Serializer):
    """A browser's ``PushSubscription.toJSON()``, and what to call the device."""

    endpoint = serializers.CharField(max_length=500)
    keys = PushKeysSerializer()
    device = serializers.CharField(max_length=120, required=False, allow_blank=True)


class PushUnsubscribeSerializer(serializers.Serializer):
    endpoint = serializers.CharField(max_length=500)


class PushDeviceSerializer(serializers.ModelSerializer):
    class Meta:
        model = PushSubscription
        fields = ["id", "device", "created_at", "last_sent_at"]


class PushDevicesSerializer(serializers.Serializer):
    public_key = serializers.CharField(help_text='VAPID key ("" : push is off).')
    results = PushDeviceSerializer(many=True)


class PushSubscriptionsView(APIView):
    """Your browsers that get "your move" by Web Push (one per device)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PushDevicesSerializer)
    def get(self, request: SignedInApiRequest) -> Response:
        devices = PushSubscription.objects.filter(user=request.user)
        return Response(
            {
                "public_key": webpush.public_key(),
                "results": PushDeviceSerializer(devices, many=True).data,
            }
        )

    @extend_schema(request=PushSubscribeSerializer, responses=PushDeviceSerializer)
    def post(self, request: SignedInApiRequest) -> Response:
        if not webpush.push_configured():
            return Response(
                {"detail": _("Push notices are not set up on this server.")},
                status=status.HTTP_409_CONFLICT,
            )
        data = PushSubscribeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            device = webpush.push_subscription_save(
                user=request.user,
                endpoint=data.validated_data["endpoint"],
                keys=dict(data.validated_data["keys"]),
                device=data.validated_data.get("device", ""),
            )
        except webpush.SubscriptionError as exc:
            raise serializers.ValidationError({"detail": str(exc)}) from exc
        return Response(
            PushDeviceSerializer(device).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(request=PushUnsubscribeSerializer, responses={204: None})
    def delete(self, request: SignedInApiRequest) -> Response:
        data = PushUnsubscribeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        webpush.push_subscription_delete(
            user=request.user, endpoint=data.validated_data["endpoint"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
