"""The Celery application: Redis broker and results, schedules in the database."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.development")

app = Celery("kungfu_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
