"""Test-session plumbing shared by every test.

With REDIS_URL unset the suite uses the embedded Redis, started here once for the
session and stopped at its end so no server outlives the run.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

# Properties are about correctness, never speed (benchmarks in bench/ measure that):
# on a busy two-core machine a slow example must not fail a run.
settings.register_profile(
    "arena",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("arena")

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


#: Environment switches CI sets so that a test which must run here cannot pass
#: by skipping: a skipped test with the marker becomes a failure (.ci/run).
REQUIRED_WHEN = {"sandbox": "KFA_REQUIRE_SANDBOX", "e2e": "KFA_REQUIRE_BROWSER"}


def _has_marker(item: pytest.Item, marker: str) -> bool:
    # Everything under tests/bots/sandbox/ exercises the sandbox, marked or not.
    in_sandbox_dir = "tests/bots/sandbox/" in Path(item.path).as_posix()
    return item.get_closest_marker(marker) is not None or (
        marker == "sandbox" and in_sandbox_dir
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if not report.skipped or hasattr(report, "wasxfail"):
        return report
    for marker, variable in REQUIRED_WHEN.items():
        required = os.environ.get(variable) == "1"
        if required and _has_marker(item, marker):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            report.outcome = "failed"
            report.longrepr = (
                f"{variable}=1: this {marker} test must run here, but it was "
                f"skipped ({reason})"
            )
            break
    return report


@pytest.fixture
def clean_cache():
    """Throttle counters and cached pages must not leak between these tests."""
    from django.core.cache import cache

    cache.clear()
    yield
