"""WebSocket route of the player's own socket."""

from django.urls import path

from notifications.consumers import PlayerConsumer

websocket_urlpatterns = [
    path("ws/me/", PlayerConsumer.as_asgi()),
]
