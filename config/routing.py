"""WebSocket routes of every app, gathered in one place.

The last route catches every other path: Channels' router raises on a path it
does not know (an HTTP 500 on the handshake); here the handshake is refused
cleanly with a 403 instead.
"""

from django.urls import re_path

from community.routing import websocket_urlpatterns as community_routes
from config.ws_security import UnknownPathConsumer
from gameplay.routing import websocket_urlpatterns as gameplay_routes
from league.duplicate.routing import websocket_urlpatterns as duplicate_routes
from league.routing import websocket_urlpatterns as league_routes
from league.tournaments.arena.routing import websocket_urlpatterns as arena_routes
from notifications.routing import websocket_urlpatterns as notification_routes

websocket_urlpatterns = [
    *gameplay_routes,
    *league_routes,
    *duplicate_routes,
    *arena_routes,
    *notification_routes,
    *community_routes,
    # django-stubs type re_path()'s target as a view, not an ASGI app.
    re_path(r"", UnknownPathConsumer.as_asgi()),  # type: ignore[arg-type]
]
