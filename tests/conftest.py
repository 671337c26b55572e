"""Test-session plumbing shared by every test.

With REDIS_URL unset the suite uses the embedded Redis, started here once for the
session (once per pytest-xdist worker) and stopped at its end so no server outlives
the run.

Tests that use the database or Redis are marked ``services`` here, automatically;
CI's PostgreSQL pass runs those and the ``slow`` ones, not a second copy of the
pure tests. The selection is checked on every run: pytest-django refuses the
database to a test without the ``django_db`` mark, and a test not marked
``services`` that sends a command to the session's Redis fails (see
:func:`_guard_redis`).
"""

from __future__ import annotations

import os
import shutil
import time
import traceback
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

    # An xdist controller hands tests to its workers and runs none itself.
    controller = session.config.getoption("dist", "no") != "no" and not hasattr(
        session.config, "workerinput"
    )
    if settings.USING_EMBEDDED_REDIS and not controller:
        _started_embedded_redis = settings.EMBEDDED_REDIS.start()
    _guard_redis()
    from tests import db_template

    db_template.install()  # SQLite test databases copied, not migrated


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from django.conf import settings

    if _started_embedded_redis:
        settings.EMBEDDED_REDIS.stop()
        shutil.rmtree(settings.EMBEDDED_REDIS.directory, ignore_errors=True)
    if Path(settings.MEDIA_ROOT) == settings.SESSION_MEDIA_ROOT:
        shutil.rmtree(settings.SESSION_MEDIA_ROOT, ignore_errors=True)


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
    if report.when == "teardown" and _redis_without_mark and _unmarked_test:
        report.outcome = "failed"
        report.longrepr = (
            "this test sent commands to Redis but is not marked `services`, so "
            "CI's PostgreSQL pass would leave it out: mark it "
            "@pytest.mark.services (or use a fixture that implies it). First "
            "commands:\n" + "\n".join(_redis_without_mark)
        )
        _redis_without_mark.clear()
        return report
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


#: Fixtures that reach the database or Redis: a test using one of them (directly
#: or through another fixture) is marked ``services``.
SERVICE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
        "clean_cache",
        "sandbox_verdict",  # tests/bots: every test there reads the cache
    }
)
#: Folders whose tests start processes (a server, a Celery worker) on the
#: session's database and Redis, which neither guard below can see.
SERVICE_DIRECTORIES = ("tests/e2e/", "tests/faults/")


def _uses_services(item: pytest.Item) -> bool:
    path = Path(item.path).as_posix()
    return (
        item.get_closest_marker("django_db") is not None
        or not SERVICE_FIXTURES.isdisjoint(getattr(item, "fixturenames", ()))
        or any(folder in path for folder in SERVICE_DIRECTORIES)
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    for item in items:
        if item.get_closest_marker("services") is None and _uses_services(item):
            item.add_marker(pytest.mark.services)


#: The test being run when it is not marked ``services``, and the Redis commands
#: it sent anyway (the first few, with where they came from).
_unmarked_test: str | None = None
_redis_without_mark: list[str] = []


def _redis_address(fields: dict) -> tuple:
    """Which server a redis-py connection (or parsed URL) talks to."""
    if fields.get("path"):
        return ("unix", str(fields["path"]))
    return ("tcp", fields.get("host", "localhost"), int(fields.get("port", 6379)))


def _guard_redis() -> None:
    """Record every command sent to the session's Redis while a test not marked
    ``services`` runs (a private server a test starts itself is its own affair).

    Every redis-py command, synchronous or asyncio (the cache, the channel layer,
    the live store, Celery's broker), goes through ``send_packed_command``; the
    wrappers note the command and where it came from, and the test then fails
    (:func:`pytest_runtest_makereport`) saying it needs the mark.
    """
    import redis.asyncio.connection
    import redis.connection
    from django.conf import settings

    session_redis = _redis_address(redis.connection.parse_url(settings.REDIS_URL))

    def note(connection: object, command: object) -> None:
        if (
            _unmarked_test is not None
            and len(_redis_without_mark) < 3
            and _redis_address(vars(connection)) == session_redis
        ):
            where = "".join(traceback.format_stack(limit=12)[:-2])
            _redis_without_mark.append(f"{command!r:.80}\n{where}")

    sync_class = redis.connection.AbstractConnection
    async_class = redis.asyncio.connection.AbstractConnection
    if getattr(sync_class.send_packed_command, "_kfa_guard", False):
        return
    sync_send = sync_class.send_packed_command
    async_send = async_class.send_packed_command

    def send(self, command, *args, **kwargs):
        note(self, command)
        return sync_send(self, command, *args, **kwargs)

    async def send_async(self, command, *args, **kwargs):
        note(self, command)
        return await async_send(self, command, *args, **kwargs)

    # Patching the client classes is the point: mypy forbids both by default.
    send._kfa_guard = send_async._kfa_guard = True  # type: ignore[attr-defined]
    sync_class.send_packed_command = send  # type: ignore[method-assign]
    async_class.send_packed_command = send_async  # type: ignore[method-assign]


#: KFA_TEST_CPU=<path>: each test's CPU seconds (this process's and that of
#: the children it waited for, set-up and teardown included) are appended to
#: ``<path>.<worker>`` as tab-separated ``cpu wall nodeid`` lines, to find the
#: costliest tests of a whole run (docs/testing.md, "Where the CPU goes").
_CPU_LOG = os.environ.get("KFA_TEST_CPU", "")


def _cpu_seconds() -> float:
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    global _unmarked_test
    if item.get_closest_marker("services") is None:
        _unmarked_test = item.nodeid
        _redis_without_mark.clear()
    cpu, wall = (_cpu_seconds(), time.monotonic()) if _CPU_LOG else (0.0, 0.0)
    try:
        return (yield)
    finally:
        _unmarked_test = None
        if _CPU_LOG:
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            with open(f"{_CPU_LOG}.{worker}", "a") as log:
                log.write(
                    f"{_cpu_seconds() - cpu:.3f}\t{time.monotonic() - wall:.3f}\t"
                    f"{item.nodeid}\n"
                )


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language: a request through the test
    client activates its language (the locale middleware) in the test's own
    thread and nothing deactivates it, so a German page request made a later
    test in the same worker read gettext's words in German."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture
def clean_cache():
    """Throttle counters and cached pages must not leak between these tests."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings_xdist_suffix(request: pytest.FixtureRequest) -> None:
    """pytest-django's, with the run's name in front of the worker's: under
    pytest-xdist worker gwN's test database is ``test_<name>_gwN``, and in the
    browser run ``make test`` starts beside the others (``KFA_TEST_RUN=e2e``)
    ``test_<name>_e2e_gwN``, so the two runs never share one on PostgreSQL."""
    from pytest_django.fixtures import _set_suffix_to_test_databases

    worker = getattr(request.config, "workerinput", {}).get("workerid")
    if worker:
        run = os.environ.get("KFA_TEST_RUN", "")
        _set_suffix_to_test_databases(suffix=f"{run}_{worker}" if run else worker)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's; and before it drops the test database, the threads
    that keep a connection across tests close it (PostgreSQL refuses to drop
    a database a session still uses: "database ... is being accessed by other
    users"): the live owner's database threads, and asgiref's one thread for
    thread-sensitive calls (``database_sync_to_async`` in async tests), whose
    connection lives for ``CONN_MAX_AGE``."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from gameplay.live import copies

    copies.close_threads()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(10)
