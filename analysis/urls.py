from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path(
        "matches/<uuid:public_id>/analysis/",
        views.request_analysis,
        name="request",
    ),
]
