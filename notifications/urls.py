from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.notification_list, name="list"),
    path("notifications/read/", views.mark_read, name="mark_read"),
    path(
        "notifications/<int:notification_id>/open/",
        views.notification_open,
        name="open",
    ),
    path(
        "notifications/unsubscribe/<str:token>/",
        views.email_unsubscribe,
        name="unsubscribe",
    ),
    path(
        "notifications/push/<int:subscription_id>/remove/",
        views.push_device_remove,
        name="push_remove",
    ),
]
