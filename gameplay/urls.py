from django.urls import path

from gameplay import views

app_name = "gameplay"

urlpatterns = [
    path("games/", views.game_list, name="games"),
    path("games/<slug:game_id>/", views.game_detail, name="game_detail"),
    path("games/<slug:game_id>/rules/", views.game_rules, name="rules"),
    path("games/<slug:game_id>/tables/", views.table_create, name="table_create"),
    path("games/<slug:game_id>/quick-play/", views.quick_play, name="quick_play"),
    path("games/<slug:game_id>/play-bot/", views.play_bot, name="play_bot"),
    path("games/<slug:game_id>/challenge/", views.challenge_create, name="challenge"),
    path(
        "challenges/<int:challenge_id>/<str:answer>/",
        views.challenge_answer,
        name="challenge_answer",
    ),
    path("vacation/", views.vacation, name="vacation"),
    path("matches/<uuid:public_id>/", views.match_page, name="match"),
    path(
        "matches/<uuid:public_id>/table/<str:action>/",
        views.table_action,
        name="table_action",
    ),
    path("matches/<uuid:public_id>/replay/", views.replay_page, name="replay"),
    path("matches/<uuid:public_id>/rematch/", views.rematch, name="rematch"),
    path(
        "matches/<uuid:public_id>/record.json",
        views.match_record_download,
        name="record",
    ),
]
