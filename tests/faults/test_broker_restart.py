"""Workers survive Redis restarts, and the countdown tasks they held still run.

Before the guard in ``config/celery.py``, a worker holding countdown tasks died
on most Redis restarts (kombu's restore on a released connection), and the
tasks came back only after the visibility timeout.
"""

from __future__ import annotations

import pytest
import redis as redis_client
from celery import Celery
from django.conf import settings

from gameplay.enqueue import MAX_COUNTDOWN
from tests.faults.processes import (
    PrivateRedis,
    Worker,
    base_env,
    needs_redis_server,
)
from tests.waiting import wait_until


@pytest.fixture
def redis(tmp_path):
    needs_redis_server()
    server = PrivateRedis(tmp_path / "redis")
    server.directory.mkdir()
    server.start()
    yield server
    server.stop()


def _client(redis: PrivateRedis) -> Celery:
    url = "redis+socket://" + str(redis.socket)
    # Not the current app: shared tasks and results in later tests must keep using
    # the project's app, not this one whose Redis is gone after the test.
    app = Celery("fault-client", broker=url, backend=url, set_as_current=False)
    app.conf.task_default_queue = "default"
    app.conf.broker_connection_retry_on_startup = True
    return app


# Fault injection (a process killed, Redis stopped and started): a soak-like
# test of 10-30 s, run in CI's PostgreSQL pass (`slow`), not in `make test`.
@pytest.mark.slow
def test_worker_survives_three_redis_restarts_and_runs_held_countdowns(redis, tmp_path):
    worker = Worker(env=base_env(redis, tmp_path), log=tmp_path / "worker.log")
    worker.start()
    try:
        client = _client(redis)
        broker = redis_client.Redis(unix_socket_path=str(redis.socket))
        for attempt in range(3):
            # celery.accumulate returns its arguments: a task without a database.
            held = [
                client.send_task("celery.accumulate", args=(attempt, n), countdown=6)
                for n in range(2)
            ]
            # The worker has them, waiting for their time: off the queue, in
            # kombu's unacknowledged hash.
            wait_until(
                lambda: broker.llen("default") == 0 and broker.hlen("unacked") >= 2,
                timeout=60,
                message="the worker to take the held tasks",
            )
            redis.restart(down_for=2)
            for n, result in enumerate(held):
                assert result.get(timeout=60) == [attempt, n]
            assert worker.alive(), worker.text()[-3000:]
            client.close()
            client = _client(redis)
        log = worker.text()
        assert "Unrecoverable error" not in log
        assert "held task(s) restored" in log
    finally:
        worker.stop()
        from config.celery import app as project_app

        project_app.set_current()


def test_visibility_timeout_fits_every_countdown_and_time_limit():
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    from gameplay.clocks import GRACE_SECONDS

    longest = max(
        MAX_COUNTDOWN,
        GRACE_SECONDS + 1,
        settings.CELERY_TASK_TIME_LIMIT,
        settings.BOT_MOVE_DELAY,
        settings.BOTS_ONLY_MOVE_DELAY,
    )
    assert timeout > longest * 1.2
