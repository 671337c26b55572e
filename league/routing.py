"""WebSocket routes of the league app: tournament and season pages followed live."""

from django.urls import path

from league.live import SeasonWatchConsumer, TournamentWatchConsumer

# django-stubs type path()'s target as a view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/tournaments/<slug:slug>/", TournamentWatchConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/seasons/<slug:slug>/<int:number>/", SeasonWatchConsumer.as_asgi()),  # type: ignore[arg-type]
]
