from django.urls import path

from league import views

app_name = "league"

urlpatterns = [
    path("leagues/", views.league_list, name="list"),
    path("leagues/<slug:slug>/", views.league_detail, name="detail"),
    path("rankings/", views.rankings, name="rankings"),
]
