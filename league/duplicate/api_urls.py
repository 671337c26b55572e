from django.urls import path

from config.api import register_api_index
from league.duplicate import api

register_api_index("duplicate events", "api-duplicate-events")

urlpatterns = [
    path("duplicate/", api.EventListView.as_view(), name="api-duplicate-events"),
    path(
        "duplicate/<slug:slug>/",
        api.EventDetailView.as_view(),
        name="api-duplicate-event",
    ),
    path(
        "duplicate/<slug:slug>/entry/",
        api.EventEntryView.as_view(),
        name="api-duplicate-entry",
    ),
    path(
        "duplicate/<slug:slug>/close-round/",
        api.RoundCloseView.as_view(),
        name="api-duplicate-close-round",
    ),
    path(
        "duplicate/<slug:slug>/start/",
        api.EventStartView.as_view(),
        name="api-duplicate-start",
    ),
]
