"""WebSocket routes for live matches."""

from django.urls import path

websocket_urlpatterns: list = []
