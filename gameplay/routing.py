"""WebSocket routes for live matches."""

from django.urls import path

from gameplay.consumers import MatchConsumer
from gameplay.table_watch import TableWatchConsumer

# django-stubs type path()'s target as a view; Channels routes ASGI apps with it
# (its documented use), hence the ignores.
websocket_urlpatterns = [
    # Watchers of a waiting table (gameplay.table_watch); unknown ids get 4404.
    path("ws/table/<str:public_id>/", TableWatchConsumer.as_asgi()),  # type: ignore[arg-type]
    # Any id reaches the consumer, which answers a malformed or unknown one with
    # the documented 4404 close rather than an unmatched route.
    path("ws/match/<str:public_id>/", MatchConsumer.as_asgi()),  # type: ignore[arg-type]
]
