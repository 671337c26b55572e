"""WebSocket routes of every app, gathered in one place."""

from gameplay.routing import websocket_urlpatterns as gameplay_routes
from notifications.routing import websocket_urlpatterns as notification_routes

websocket_urlpatterns = [*gameplay_routes, *notification_routes]
