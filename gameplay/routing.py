"""WebSocket routes for live matches."""

from django.urls import path

from gameplay.consumers import MatchConsumer
from gameplay.table_watch import TableWatchConsumer

websocket_urlpatterns = [
    # Watchers of a waiting table (gameplay.table_watch); unknown ids get 4404.
    path("ws/table/<str:public_id>/", TableWatchConsumer.as_asgi()),
    path("ws/match/<uuid:public_id>/", MatchConsumer.as_asgi()),
]
