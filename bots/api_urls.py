from django.urls import path

from bots import api
from config.api import register_api_index

register_api_index("bots", "api-bots")
register_api_index("builtin-bots", "api-builtin-bots")

urlpatterns = [
    path("bots/", api.BotListView.as_view(), name="api-bots"),
    path("bots/builtin/", api.BuiltinBotListView.as_view(), name="api-builtin-bots"),
    path("bots/<int:bot_id>/", api.BotDetailView.as_view(), name="api-bot"),
    path(
        "bots/<int:bot_id>/versions/",
        api.BotVersionCreateView.as_view(),
        name="api-bot-versions",
    ),
    path("bots/<int:bot_id>/logs/", api.BotLogsView.as_view(), name="api-bot-logs"),
    path(
        "bots/<int:bot_id>/disable/",
        api.BotDisableView.as_view(),
        name="api-bot-disable",
    ),
    path(
        "bots/<int:bot_id>/challenge/",
        api.BotChallengeView.as_view(),
        name="api-bot-challenge",
    ),
]
