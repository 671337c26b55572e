"""WebSocket routes of the community app: a game's lobby chat, live."""

from django.urls import path

from community.consumers import LobbyChatConsumer

# django-stubs type path()'s target as a view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    # An unknown game gets the watch sockets' 4404 close.
    path("ws/lobby/<str:game_id>/chat/", LobbyChatConsumer.as_asgi()),  # type: ignore[arg-type]
]
