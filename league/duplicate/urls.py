from django.urls import path

from league.duplicate import views

app_name = "duplicate"

urlpatterns = [
    path("duplicate/", views.event_list, name="list"),
    path("duplicate/<slug:slug>/", views.event_detail, name="event"),
    path(
        "duplicate/<slug:slug>/<str:action>/",
        views.event_action,
        name="action",
    ),
]
