from django.urls import path, re_path

from bots import api, bot_api
from config.api import register_api_index

register_api_index("bots", "api-bots")
register_api_index("builtin-bots", "api-builtin-bots")
register_api_index("bot-accounts", "api-bot-accounts")

urlpatterns = [
    path("bots/", api.BotListView.as_view(), name="api-bots"),
    path("bots/builtin/", api.BuiltinBotListView.as_view(), name="api-builtin-bots"),
    path("bots/ladder/", api.LadderView.as_view(), name="api-bots-ladder"),
    path("bots/online/", api.OnlineBotListView.as_view(), name="api-bots-online"),
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
    path(
        "bots/<int:bot_id>/scrimmages/",
        api.ScrimmageListView.as_view(),
        name="api-bot-scrimmages",
    ),
    path(
        "bots/<int:bot_id>/scrimmages/<int:scrimmage_id>/",
        api.ScrimmageDetailView.as_view(),
        name="api-bot-scrimmage",
    ),
    # The bot account API (docs/protocol/bot-api.md).
    path("bot/accounts/", bot_api.AccountListView.as_view(), name="api-bot-accounts"),
    path(
        "bot/accounts/<int:account_id>/tokens/",
        bot_api.AccountTokenCreateView.as_view(),
        name="api-bot-account-tokens",
    ),
    path(
        "bot/tokens/<int:token_id>/revoke/",
        bot_api.TokenRevokeView.as_view(),
        name="api-bot-token-revoke",
    ),
    path(
        "bot/stream/event",
        bot_api.EventStreamView.as_view(),
        name="api-bot-event-stream",
    ),
    path(
        "bot/game/stream/<str:match>",
        bot_api.GameStreamView.as_view(),
        name="api-bot-game-stream",
    ),
    path(
        "bot/game/<str:match>/act",
        bot_api.GameActView.as_view(),
        name="api-bot-game-act",
    ),
    path(
        "bot/game/<str:match>/resign",
        bot_api.GameResignView.as_view(),
        name="api-bot-game-resign",
    ),
    re_path(
        r"^bot/challenge/(?P<challenge_id>[0-9]{1,12})/(?P<answer>accept|decline)$",
        bot_api.ChallengeAnswerView.as_view(),
        name="api-bot-challenge-answer",
    ),
]
