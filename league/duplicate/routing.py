"""WebSocket route of duplicate events: an event's page followed live."""

from django.urls import path

from league.duplicate.live import DuplicateWatchConsumer

# django-stubs type path()'s target as a view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/duplicate/<slug:slug>/", DuplicateWatchConsumer.as_asgi()),  # type: ignore[arg-type]
]
