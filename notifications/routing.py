"""WebSocket route of the player's own socket."""

from django.urls import path

from notifications.consumers import PlayerConsumer

# django-stubs type path()'s target as a view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/me/", PlayerConsumer.as_asgi()),  # type: ignore[arg-type]
]
