from django.urls import path

from bots import views

app_name = "bots"

urlpatterns = [
    path("bots/", views.bot_list, name="list"),
]
