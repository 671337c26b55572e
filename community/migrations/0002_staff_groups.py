"""Staff roles as Django groups: moderators act on reports; admins also may."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = ("moderator", "admin")


def make_groups(apps, schema_editor):
    config = apps.get_app_config("community")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    moderate = Permission.objects.get(
        codename="moderate", content_type__app_label="community"
    )
    for name in ROLES:
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(moderate)


def drop_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("community", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(make_groups, drop_groups)]
