from django.contrib import admin

from notifications.models import Notification, PushSubscription, TurnReminder


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "title", "created_at", "read_at", "emailed_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "title")
    raw_id_fields = ("user",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "device", "created_at", "last_sent_at")
    search_fields = ("user__username", "device")
    raw_id_fields = ("user",)
    # The keys are the browser's secrets for its payloads: not shown.
    exclude = ("p256dh", "auth")
    readonly_fields = ("endpoint",)


@admin.register(TurnReminder)
class TurnReminderAdmin(admin.ModelAdmin):
    list_display = (
        "user",
        "match",
        "turn_started",
        "email_due_at",
        "emailed_at",
        "email_sent",
        "pushed_at",
    )
    list_filter = ("email_sent",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "match")
