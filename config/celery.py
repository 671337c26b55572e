"""The Celery application: Redis broker and results, schedules in the database."""

import logging
import os

from celery import Celery
from celery.signals import after_setup_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.development")

app = Celery("kungfu_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


#: Loggers that write a line per task received or finished, or per beat entry
#: sent: with the clock sweep every 5 s and a line per bot move they bury every
#: other line. Held to WARNING (failures still show) unless the log level asked
#: for is DEBUG (`-l DEBUG`).
ROUTINE_LOGGERS = ("celery.app.trace", "celery.worker.strategy", "celery.beat")


@after_setup_logger.connect
def _quiet_routine_logs(loglevel: int | str = logging.INFO, **_: object) -> None:
    if isinstance(loglevel, str):
        loglevel = logging.getLevelName(loglevel.upper())
    if not isinstance(loglevel, int) or loglevel > logging.DEBUG:
        for name in ROUTINE_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)
