from django.urls import path

from league.tournaments.arena import views

app_name = "arena"

urlpatterns = [
    path("arenas/", views.arena_list, name="list"),
    path("arenas/<slug:slug>/", views.arena_detail, name="detail"),
    path("arenas/<slug:slug>/do/<str:action>/", views.arena_action, name="action"),
]
