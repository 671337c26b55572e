"""WebSocket routes of the league app: tournament pages followed live."""

from django.urls import path

from league.live import TournamentWatchConsumer

# django-stubs type path()'s target as a view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/tournaments/<slug:slug>/", TournamentWatchConsumer.as_asgi()),  # type: ignore[arg-type]
]
