from django.urls import path

from community import views

app_name = "community"

urlpatterns = [
    path("community/match/<uuid:public_id>/chat/", views.match_chat, name="match_chat"),
    path("community/mute/<str:username>/", views.mute, name="mute"),
    path("community/follow/<str:username>/", views.follow, name="follow"),
    path("community/block/<str:username>/", views.block, name="block"),
    path("community/chat-switch/", views.chat_switch, name="chat_switch"),
    path("community/lobby/<slug:game_id>/chat/", views.lobby_chat, name="lobby_chat"),
    path("community/report/", views.report, name="report"),
    path("community/standing/", views.standing, name="standing"),
    path("moderation/", views.moderation_queue, name="moderation"),
    path("moderation/act/", views.moderation_act, name="moderation_act"),
    path(
        "moderation/lines/<int:message_id>/remove/",
        views.moderation_remove_line,
        name="moderation_remove_line",
    ),
    path(
        "moderation/users/<str:username>/",
        views.moderation_user,
        name="moderation_user",
    ),
]
