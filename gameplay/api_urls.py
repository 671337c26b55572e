from django.urls import path

from config.api import register_api_index
from gameplay import api

register_api_index("matches", "api-matches")
register_api_index("tables", "api-tables")
register_api_index("challenges", "api-challenges")
register_api_index("queue", "api-queue")
register_api_index("vacation", "api-vacation")
register_api_index("play_bot", "api-play-bot")

urlpatterns = [
    path("matches/", api.MatchListView.as_view(), name="api-matches"),
    path("matches/<uuid:public_id>/", api.MatchStateView.as_view(), name="api-match"),
    path(
        "matches/<uuid:public_id>/act/",
        api.MatchActView.as_view(),
        name="api-match-act",
    ),
    path(
        "matches/<uuid:public_id>/resign/",
        api.MatchResignView.as_view(),
        name="api-match-resign",
    ),
    path(
        "matches/<uuid:public_id>/replay/",
        api.MatchReplayView.as_view(),
        name="api-match-replay",
    ),
    path(
        "matches/<uuid:public_id>/record/",
        api.MatchRecordView.as_view(),
        name="api-match-record",
    ),
    path("tables/", api.TableListCreateView.as_view(), name="api-tables"),
    path(
        "tables/<uuid:public_id>/<str:action>/",
        api.TableActionView.as_view(),
        name="api-table-action",
    ),
    path("challenges/", api.ChallengeListCreateView.as_view(), name="api-challenges"),
    path(
        "challenges/<int:challenge_id>/<str:answer>/",
        api.ChallengeAnswerView.as_view(),
        name="api-challenge-answer",
    ),
    path("queue/", api.QueueView.as_view(), name="api-queue"),
    path("play-bot/", api.PlayBotView.as_view(), name="api-play-bot"),
    path("vacation/", api.VacationView.as_view(), name="api-vacation"),
]
