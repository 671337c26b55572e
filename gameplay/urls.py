from django.urls import path

from gameplay import views

app_name = "gameplay"

urlpatterns = [
    path("games/", views.game_list, name="games"),
    path("games/<slug:game_id>/", views.game_detail, name="game_detail"),
]
