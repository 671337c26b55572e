"""Test-session plumbing shared by every test.

With REDIS_URL unset the suite uses the embedded Redis, started here once for the
session and stopped at its end so no server outlives the run.
"""

from __future__ import annotations

import os
import shutil

import pytest

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

_started_embedded_redis = False


def pytest_sessionstart(session: pytest.Session) -> None:
    global _started_embedded_redis
    from django.conf import settings

    if settings.USING_EMBEDDED_REDIS:
        _started_embedded_redis = settings.EMBEDDED_REDIS.start()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _started_embedded_redis:
        from django.conf import settings

        settings.EMBEDDED_REDIS.stop()
        shutil.rmtree(settings.EMBEDDED_REDIS.directory, ignore_errors=True)


@pytest.fixture
def clean_cache():
    """Throttle counters and cached pages must not leak between these tests."""
    from django.core.cache import cache

    cache.clear()
    yield
