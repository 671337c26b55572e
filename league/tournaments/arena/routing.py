"""WebSocket route of arena pages (followed live)."""

from django.urls import path

from league.tournaments.arena.live import ArenaWatchConsumer

# django-stubs type path()'s target as a view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/arenas/<slug:slug>/", ArenaWatchConsumer.as_asgi()),  # type: ignore[arg-type]
]
