from django.urls import path

from community import views

app_name = "community"

urlpatterns = [
    path("community/match/<uuid:public_id>/chat/", views.match_chat, name="match_chat"),
    path("community/mute/<str:username>/", views.mute, name="mute"),
    path("community/block/<str:username>/", views.block, name="block"),
    path("community/chat-switch/", views.chat_switch, name="chat_switch"),
]
