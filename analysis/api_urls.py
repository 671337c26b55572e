from django.urls import path

from analysis import api

urlpatterns = [
    path(
        "matches/<uuid:public_id>/analysis/",
        api.MatchAnalysisView.as_view(),
        name="api-match-analysis",
    ),
]
