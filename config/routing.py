"""WebSocket routes of every app, gathered in one place."""

from gameplay.routing import websocket_urlpatterns as gameplay_routes

websocket_urlpatterns = [*gameplay_routes]
