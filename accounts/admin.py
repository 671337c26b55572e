from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class ArenaUserAdmin(UserAdmin):
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Arena", {"fields": ("display_name",)}),
    )
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
