"""WebSocket routes for live matches."""

from django.urls import path

from gameplay.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/match/<uuid:public_id>/", MatchConsumer.as_asgi()),
]
