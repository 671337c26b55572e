from django.urls import path

from league import views

app_name = "league"

urlpatterns = [
    path("leagues/", views.league_list, name="list"),
    path("leagues/<slug:slug>/", views.league_detail, name="detail"),
    path("leagues/<slug:slug>/invite/", views.league_invite, name="invite"),
    path("leagues/<slug:slug>/rollover/", views.league_rollover, name="rollover"),
    path("leagues/<slug:slug>/divisions/", views.league_divisions, name="divisions"),
    path(
        "leagues/<slug:slug>/correspondence-pool/",
        views.league_correspondence_pool,
        name="correspondence_pool",
    ),
    path(
        "leagues/<slug:slug>/registrations/<int:registration_id>/decide/",
        views.registration_decide,
        name="registration_decide",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/",
        views.season_detail,
        name="season",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/register/",
        views.season_register,
        name="season_register",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/withdraw/",
        views.season_withdraw,
        name="season_withdraw",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/queue/",
        views.season_queue,
        name="season_queue",
    ),
    path("rankings/", views.rankings, name="rankings"),
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<slug:slug>/", views.tournament_detail, name="tournament"),
    path(
        "tournaments/<slug:slug>/enter/",
        views.tournament_enter,
        name="tournament_enter",
    ),
    path(
        "tournaments/<slug:slug>/check-in/",
        views.tournament_check_in,
        name="tournament_check_in",
    ),
    path(
        "tournaments/<slug:slug>/withdraw/",
        views.tournament_withdraw,
        name="tournament_withdraw",
    ),
    path(
        "tournaments/<slug:slug>/pairings/<int:pairing_id>/void/",
        views.pairing_void,
        name="pairing_void",
    ),
    path(
        "tournaments/<slug:slug>/do/<str:action>/",
        views.tournament_action,
        name="tournament_action",
    ),
]
