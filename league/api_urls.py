from django.urls import path

from config.api import register_api_index
from league import api

register_api_index("leagues", "api-leagues")
register_api_index("rating pools", "api-pools")
register_api_index("rankings", "api-rankings")
register_api_index("tournaments", "api-tournaments")

urlpatterns = [
    path("leagues/", api.LeagueListView.as_view(), name="api-leagues"),
    path("leagues/<slug:slug>/", api.LeagueDetailView.as_view(), name="api-league"),
    path(
        "leagues/<slug:slug>/invitations/",
        api.LeagueInvitationView.as_view(),
        name="api-league-invitations",
    ),
    path(
        "leagues/<slug:slug>/divisions/",
        api.LeagueDivisionsView.as_view(),
        name="api-league-divisions",
    ),
    path(
        "leagues/<slug:slug>/seasons/",
        api.LeagueSeasonsView.as_view(),
        name="api-league-seasons",
    ),
    path(
        "seasons/<int:season_id>/standings/",
        api.SeasonStandingsView.as_view(),
        name="api-season-standings",
    ),
    path(
        "seasons/<int:season_id>/registration/",
        api.SeasonRegistrationView.as_view(),
        name="api-season-registration",
    ),
    path(
        "seasons/<int:season_id>/matches/",
        api.SeasonMatchView.as_view(),
        name="api-season-matches",
    ),
    path(
        "seasons/<int:season_id>/queue/",
        api.SeasonQueueView.as_view(),
        name="api-season-queue",
    ),
    path(
        "registrations/<int:registration_id>/decision/",
        api.RegistrationDecisionView.as_view(),
        name="api-registration-decision",
    ),
    path("pools/", api.PoolListView.as_view(), name="api-pools"),
    path("rankings/", api.RankingsView.as_view(), name="api-rankings"),
    path(
        "players/<str:username>/ratings/",
        api.PlayerRatingsView.as_view(),
        name="api-player-ratings",
    ),
    path(
        "players/<str:username>/head-to-head/",
        api.PlayerHeadToHeadView.as_view(),
        name="api-player-h2h",
    ),
    path("tournaments/", api.TournamentListView.as_view(), name="api-tournaments"),
    path(
        "tournaments/<slug:slug>/",
        api.TournamentDetailView.as_view(),
        name="api-tournament",
    ),
    path(
        "tournaments/<slug:slug>/entry/",
        api.TournamentEntryView.as_view(),
        name="api-tournament-entry",
    ),
    path(
        "tournaments/<slug:slug>/check-in/",
        api.TournamentCheckInView.as_view(),
        name="api-tournament-check-in",
    ),
    path(
        "tournaments/<slug:slug>/entrants/",
        api.TournamentEntrantsView.as_view(),
        name="api-tournament-entrants",
    ),
    path(
        "tournaments/<slug:slug>/<str:action>/",
        api.TournamentActionView.as_view(),
        name="api-tournament-action",
    ),
    path(
        "pairings/<int:pairing_id>/void/",
        api.PairingVoidView.as_view(),
        name="api-pairing-void",
    ),
]
