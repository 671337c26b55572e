"""The Celery application: Redis broker and results, schedules in the database."""

import logging
import os
import threading
import time

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


def _restore_when_back(tags: list[str], *, wait: float = 2.0) -> None:
    """Put tasks a worker held back on their queues once Redis answers again.

    Runs in a thread: the held tasks' bodies are still in Redis' unacked set
    (Redis keeps its data across a restart), so a fresh connection restores
    them by delivery tag, as kombu would have done, instead of leaving them
    for the visibility timeout. A tag already restored or acknowledged is a
    no-op. Gives up (the visibility timeout still applies) after that timeout.
    """
    from django.conf import settings

    log = logging.getLogger(__name__)
    give_up = time.monotonic() + settings.CELERY_VISIBILITY_TIMEOUT
    while time.monotonic() < give_up:
        try:
            with app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=1)
                # The Redis transport's channel has its QoS; the stubs type the
                # generic channel.
                qos = connection.default_channel.qos  # type: ignore[attr-defined]
                for tag in tags:
                    qos.restore_by_tag(tag, leftmost=True)
            log.warning("broker back: %d held task(s) restored", len(tags))
            return
        except Exception as exc:  # still away: try again shortly
            log.debug("broker still away (%r)", exc)
            time.sleep(wait)


def _survive_restore_on_lost_broker() -> None:
    """Keep a worker alive when it loses Redis while holding unacked tasks.

    On a lost connection the worker closes its channel, and kombu (5.7.0 and
    before) restores the tasks it held (countdowns waiting for their time) on a
    connection object it has already released: an AttributeError that is not a
    connection error, so the worker exits ("Unrecoverable error"; 5 in 6 Redis
    restarts). Redis is unreachable at that moment anyway, so nothing could be
    restored then; the failure is logged, the worker reconnects like after any
    blip, and a thread restores the held tasks as soon as Redis is back
    (``_restore_when_back``). Tested by tests/faults/test_broker_restart.py
    against a private Redis.
    """
    from kombu.transport import redis as kombu_redis

    original = kombu_redis.QoS.restore_unacked
    if getattr(original, "kfa_guarded", False):
        return

    def restore_unacked(self, client=None):
        try:
            return original(self, client)
        # connection_errors is a tuple of exception classes; the stubs type it
        # loosely.
        except (AttributeError, *kombu_redis.Transport.connection_errors) as exc:  # type: ignore[misc]
            tags = list(self._delivered)
            logging.getLogger(__name__).warning(
                "broker lost with %d task(s) held; restoring them when it is back (%r)",
                len(tags),
                exc,
            )
            self._delivered.clear()
            threading.Thread(
                target=_restore_when_back,
                args=(tags,),
                name="restore-held-tasks",
                daemon=True,
            ).start()
            return None

    # A monkeypatch, outside what types describe: the mark read back above, and
    # the method replaced.
    restore_unacked.kfa_guarded = True  # type: ignore[attr-defined]
    kombu_redis.QoS.restore_unacked = restore_unacked  # type: ignore[method-assign]


_survive_restore_on_lost_broker()
