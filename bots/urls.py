from django.urls import path

from bots import views

app_name = "bots"

urlpatterns = [
    path("bots/", views.bot_list, name="list"),
    path("bots/new/", views.bot_new, name="new"),
    path("bots/docs/<slug:slug>/", views.bot_doc, name="doc"),
    path("bots/connected/", views.connected_bots, name="connected"),
    path(
        "bots/connected/<int:account_id>/tokens/",
        views.connected_token_new,
        name="connected_token_new",
    ),
    path(
        "bots/connected/tokens/<int:token_id>/revoke/",
        views.connected_token_revoke,
        name="connected_token_revoke",
    ),
    path("bots/by/<str:username>/", views.owner_bots, name="owner"),
    path("bots/<int:bot_id>/", views.bot_detail, name="detail"),
    path("bots/<int:bot_id>/logs/", views.bot_logs, name="logs"),
    path("bots/<int:bot_id>/versions/", views.bot_version_new, name="version_new"),
    path(
        "bots/<int:bot_id>/versions/<int:number>/source/",
        views.bot_source,
        name="source",
    ),
    path("bots/<int:bot_id>/settings/", views.bot_settings, name="settings"),
    path("bots/<int:bot_id>/disable/", views.bot_disable, name="disable"),
    path("bots/<int:bot_id>/challenge/", views.bot_challenge, name="challenge"),
    path("bots/<int:bot_id>/scrimmages/", views.scrimmage_new, name="scrimmage_new"),
    path(
        "bots/<int:bot_id>/scrimmages/<int:scrimmage_id>/",
        views.scrimmage_detail,
        name="scrimmage",
    ),
]
