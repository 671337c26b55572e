from django.urls import path

from config.api import register_api_index
from notifications import api

register_api_index("notifications", "api-notifications")
register_api_index("your-move", "api-your-move")
register_api_index("my-games", "api-my-games")
register_api_index("push-subscriptions", "api-push-subscriptions")

urlpatterns = [
    path(
        "notifications/", api.NotificationListView.as_view(), name="api-notifications"
    ),
    path(
        "notifications/read/",
        api.NotificationReadView.as_view(),
        name="api-notifications-read",
    ),
    path("me/your-move/", api.YourMoveView.as_view(), name="api-your-move"),
    path("me/games/", api.PlayerGamesView.as_view(), name="api-my-games"),
    path(
        "me/push-subscriptions/",
        api.PushSubscriptionsView.as_view(),
        name="api-push-subscriptions",
    ),
]
