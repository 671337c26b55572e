from django.urls import path

from config.api import register_api_index
from league.tournaments.arena import api

register_api_index("arenas", "api-arenas")

urlpatterns = [
    path("arenas/", api.ArenaListView.as_view(), name="api-arenas"),
    path("arenas/<slug:slug>/", api.ArenaDetailView.as_view(), name="api-arena"),
    path(
        "arenas/<slug:slug>/entry/",
        api.ArenaEntryView.as_view(),
        name="api-arena-entry",
    ),
    path(
        "arenas/<slug:slug>/pause/",
        api.ArenaPauseView.as_view(),
        name="api-arena-pause",
    ),
    path(
        "arenas/<slug:slug>/berserk/",
        api.ArenaBerserkView.as_view(),
        name="api-arena-berserk",
    ),
]
