"""Browser tests: a real server, a real worker, Debian's Chromium driven by Playwright.

One server per test session (starting it costs seconds; two cores run the suite):
uvicorn serving ``config.asgi`` with the Redis channel layer, and a Celery worker
consuming every queue, both on the session's test database and Redis. The test
process reaches the same database, so tests set up state with services and check
it with the ORM while people click in the browser. See docs/testing.md.

Why these choices:

- The database must be one both the test process and the server processes can
  open: with SQLite the session's test database becomes a file (pytest-django
  otherwise keeps it in memory); with DATABASE_URL (PostgreSQL) it already is one.
- Browser tests commit for real (the server cannot see a test's transaction), so
  nothing is rolled back between them: each test makes its own uniquely named
  users and objects, and the e2e tests run after every other test of the session
  so the rows they leave can never surprise a test that counts rows.
- Chromium is the system one (/usr/bin/chromium, installed with apt); Playwright
  never downloads a browser. Without chromium or playwright the tests skip with the
  reason, unless KFA_REQUIRE_BROWSER=1 (CI's second pass) turns that into a failure.
- A failing test leaves a screenshot and the HTML of every open page, plus the
  server logs, under var/e2e-artifacts/ (CI keeps that directory).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import pytest

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "var" / "e2e-artifacts"
CHROMIUM = os.environ.get("KFA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
PASSWORD = "e2e-pass-2026!"  # every user the harness creates has it
START_TIMEOUT = 90.0  # seconds for uvicorn and the worker to answer /healthz
DEFAULT_TIMEOUT_MS = 15_000  # Playwright's wait for elements and navigations
_session_dir = ROOT / "var" / "e2e" / str(os.getpid())
#: The pytest-xdist worker running this session ("gw0"...), "" without xdist.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
_names = itertools.count(1)
_not_a_test_database: set[str] = set()  # the configured name, before set-up


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    """Mark the browser tests ``e2e``, run them last, give them a file database."""
    here = Path(__file__).parent
    e2e: list[pytest.Item] = []
    others: list[pytest.Item] = []
    for item in items:
        (e2e if here in Path(item.path).parents else others).append(item)
    if not e2e:
        return
    for item in e2e:
        item.add_marker(pytest.mark.e2e)
    items[:] = others + e2e
    from django.conf import settings

    database = settings.DATABASES["default"]
    _not_a_test_database.add(database["NAME"])
    if database["ENGINE"] == "django.db.backends.sqlite3":
        _session_dir.mkdir(parents=True, exist_ok=True)
        database.setdefault("TEST", {})["NAME"] = str(_session_dir / "db.sqlite3")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "axe_at_end(False): leave the page a browser test ends on out of the axe "
        "check at its end (a test that breaks its page on purpose; docs/testing.md)",
    )


#: axe at the end of every browser test, on each page state once a session
#: (``a11y.page_state``); KFA_AXE_AT_END=every checks every page, 0 none.
AXE_AT_END = os.environ.get("KFA_AXE_AT_END", "1") != "0"
AXE_EVERY_PAGE = os.environ.get("KFA_AXE_AT_END") == "every"
#: What the check at each test's end cost, for the session's summary line:
#: pages checked, and pages left out as a state already checked.
_axe_cost = {"tests": 0, "pages": 0, "seconds": 0.0, "seen": 0}


def _pages_at_end(contexts: list[Any], base_url: str) -> list[Any]:
    """The test's open pages on the server showing HTML, one per URL."""
    seen: set[str] = set()
    pages = []
    for context in contexts:
        for page in context.pages:
            if page.is_closed() or not page.url.startswith(base_url):
                continue
            with contextlib.suppress(Exception):
                page.wait_for_load_state("load", timeout=5_000)
            try:
                html = page.evaluate("document.contentType") == "text/html"
            except Exception:  # navigating away: nothing to check
                continue
            if html and page.url not in seen:
                seen.add(page.url)
                pages.append(page)
    return pages


def _axe_at_end(
    item: pytest.Item, contexts: list[Any], base_url: str, *, every: bool = False
) -> None:
    """axe in both schemes on each page the test left open, but not on a page
    whose state (``a11y.page_state``: URL pattern, width, language, element
    kinds) already passed this session, here or in a test's own
    ``assert_accessible_in_both_schemes``, unless ``every`` (or
    ``KFA_AXE_AT_END=every``)."""
    from tests.e2e.a11y import PASSED, page_state, scheme_failures

    started = time.monotonic()
    failures: list[str] = []
    pages = _pages_at_end(contexts, base_url)
    checked = 0
    for page in pages:
        try:
            state = page_state(page)
        except Exception:  # navigating away: nothing to check
            continue
        if state in PASSED and not (every or AXE_EVERY_PAGE):
            _axe_cost["seen"] += 1
            continue
        where = page.url.removeprefix(base_url)
        found = scheme_failures(page, f"{where} at the test's end")
        checked += 1
        if not found:
            PASSED.add(state)
        failures += found
    _axe_cost["tests"] += 1
    _axe_cost["pages"] += checked
    _axe_cost["seconds"] += time.monotonic() - started
    assert not failures, (
        f"axe at the end of {item.name}: {len(failures)} serious or critical "
        "violations (docs/ui.md, Accessibility):\n" + "\n".join(failures)
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """After a browser test's body passes: axe on every page it left open.

    Each page the test's contexts still show (one per URL, HTML only) is
    checked in the light and the dark scheme without motion, unless a page in
    the same state passed earlier in the session (``_axe_at_end``); a serious
    or critical violation fails the test. ``@pytest.mark.axe_at_end(False)``
    leaves a test out.
    """
    result = yield
    contexts = getattr(item, "_kfa_contexts", None)
    marker = item.get_closest_marker("axe_at_end")
    wanted = not (marker and marker.args and not marker.args[0])
    if AXE_AT_END and contexts and wanted:
        _axe_at_end(item, contexts, item._kfa_base_url)  # type: ignore[attr-defined]
    return result


def pytest_sessionstart(session: pytest.Session) -> None:
    """Only this run's failures under var/e2e-artifacts/ (``pytest tests/e2e``,
    with or without xdist: the controller clears it before workers start)."""
    if not _worker:
        shutil.rmtree(ARTIFACTS, ignore_errors=True)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker hands its axe cost to the controller's summary."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["kfa_axe_cost"] = dict(_axe_cost)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controller adds up its workers' axe cost (pytest-xdist's hook)."""
    for key, value in getattr(node, "workeroutput", {}).get("kfa_axe_cost", {}).items():
        _axe_cost[key] += value


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _axe_cost["tests"]:
        terminalreporter.write_line(
            "axe at the end of {tests} browser tests: {pages} pages, two schemes "
            "each, {seconds:.1f} s ({seen} pages left out: a state already "
            "checked)".format(**_axe_cost)
        )


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Keep each phase's report on the item so fixtures can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def _browser_unavailable() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("KFA_REQUIRE_BROWSER") == "1":
        pytest.fail(
            f"browser tests are required here (KFA_REQUIRE_BROWSER=1): {reason}"
        )
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url(settings_dict: dict[str, Any]) -> str:
    """The test database as a DATABASE_URL for the server processes."""
    engine = settings_dict["ENGINE"]
    if engine == "django.db.backends.sqlite3":
        return f"sqlite:///{settings_dict['NAME']}"
    if "postgresql" not in engine:
        raise RuntimeError(f"the e2e harness does not know how to share {engine}")
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


@dataclass
class ArenaServer:
    """The running platform: where it answers and where its processes log."""

    base_url: str
    log_dir: Path
    mail_dir: Path
    media_dir: Path
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    def log(self, name: str = "web") -> str:
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def assert_alive(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise AssertionError(
                    f"the e2e {name} process exited ({process.returncode}):\n"
                    + self.log(name)[-4000:]
                )

    def stop(self) -> None:
        for process in self.processes.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in self.processes.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            # Children that outlive their parent (a worker's pool process still
            # finishing a bot game) would keep the test database open.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)


def _wait_healthy(server: ArenaServer) -> None:
    """Until /healthz answers 200; fails at once if a server process died, and
    after ``START_TIMEOUT`` with the last answer and both logs' tails (the
    caller's ``finally`` stops the server)."""
    last = "no answer"

    def healthy() -> bool:
        nonlocal last
        try:
            with urllib.request.urlopen(f"{server.base_url}/healthz", timeout=3) as r:
                return r.status == 200
        except urllib.error.HTTPError as exc:
            last = exc.read().decode(errors="replace")
        except OSError as exc:
            last = str(exc)
        return False

    server.assert_alive()
    wait_until(
        healthy,
        timeout=START_TIMEOUT,
        interval=0.3,
        between=server.assert_alive,
        message=lambda: (
            f"the e2e server to be healthy: {last}\n"
            f"web log:\n{server.log('web')[-3000:]}\nworker log:\n"
            f"{server.log('worker')[-3000:]}"
        ),
    )


@pytest.fixture(scope="session")
def _browser_available() -> None:
    reason = _browser_unavailable()
    if reason:
        _skip_or_fail(reason)


@pytest.fixture(scope="session")
def e2e_database(
    _browser_available, django_db_setup, django_db_blocker
) -> Iterator[None]:
    """The session's test database, created here if no other test asked for one.

    pytest-django creates test databases only for tests marked ``django_db``;
    browser tests are not (their data must commit), so in a session of browser
    tests alone the default database is set up here, and torn down at the end.
    """
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.settings_dict["NAME"] not in _not_a_test_database:
        yield
        return
    with django_db_blocker.unblock():
        # django-stubs say Mapping; Django passes the aliases on to
        # get_unique_databases_and_mirrors, whose own stub says set[str].
        aliases = cast("Mapping[str, Any]", {"default"})
        created = setup_databases(verbosity=0, interactive=False, aliases=aliases)
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            teardown_databases(created, verbosity=0)


def _end_other_sessions(connection: Any) -> None:
    """PostgreSQL drops a test database only when nobody else is connected.

    The server's processes are gone by now, but PostgreSQL may not have noticed
    every closed socket yet; their sessions are ended here so the test database
    can be destroyed at the end of the session.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(scope="session")
def e2e_server(e2e_database, django_db_blocker) -> Iterator[ArenaServer]:
    """uvicorn + a Celery worker on the session's test database and Redis."""
    from django.conf import settings
    from django.db import connection

    if connection.settings_dict["NAME"] in _not_a_test_database:
        raise RuntimeError("the e2e server must never use a non-test database")

    _session_dir.mkdir(parents=True, exist_ok=True)
    # Only this session's failures; an xdist worker's logs go to logs/gwN/ (the
    # controller cleared the directory before the workers started).
    log_dir = ARTIFACTS / "logs" / _worker if _worker else ARTIFACTS / "logs"
    shutil.rmtree(log_dir if _worker else ARTIFACTS, ignore_errors=True)
    log_dir.mkdir(parents=True, exist_ok=True)
    mail_dir = _session_dir / "mail"
    media_dir = _session_dir / "media"
    for directory in (mail_dir, media_dir):
        directory.mkdir(parents=True, exist_ok=True)
    # Sandboxed bots run as unprivileged uids that must read the uploaded code.
    for directory in (ROOT / "var", ROOT / "var" / "e2e", _session_dir, media_dir):
        directory.chmod(0o755)
    old_media = settings.MEDIA_ROOT
    settings.MEDIA_ROOT = str(media_dir)
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.e2e",
        "DATABASE_URL": _database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "MEDIA_ROOT": str(media_dir),
        "E2E_MAIL_DIR": str(mail_dir),
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": os.environ.get("E2E_LOG_LEVEL", "INFO"),
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    python = sys.executable
    commands = {
        "web": [
            python, "-m", "uvicorn", "config.asgi:application",
            "--host", "127.0.0.1", "--port", str(port),
            "--ws", "websockets-sansio", "--ws-per-message-deflate", "false",
            "--ws-max-size", "65536", "--lifespan", "off",
        ],
        "worker": [
            python, "-m", "celery", "-A", "config", "worker", "-l", "INFO",
            "-Q", "default,ratings,bots,analysis", "--concurrency", "2",
            "-n", f"e2e-{os.getpid()}@%h",
            "--without-gossip", "--without-mingle",
        ],
    }  # fmt: skip
    server = ArenaServer(
        base_url=f"http://127.0.0.1:{port}",
        log_dir=log_dir,
        mail_dir=mail_dir,
        media_dir=media_dir,
    )
    try:
        for name, command in commands.items():
            log = open(log_dir / f"{name}.log", "w")  # noqa: SIM115 - child owns it
            server.processes[name] = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # stop() ends the process group
            )
            log.close()
        _wait_healthy(server)
        yield server
    finally:
        server.stop()
        settings.MEDIA_ROOT = old_media
        with django_db_blocker.unblock():
            _end_other_sessions(connection)
            connection.close()
        shutil.rmtree(mail_dir, ignore_errors=True)
        shutil.rmtree(media_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def _playwright(e2e_server):
    """Playwright's sync API, with Django's async guard relaxed in this process.

    The sync API runs its event loop on the test's thread (in a greenlet), so
    Django sees "a running loop" and refuses ORM calls from the test body, which
    is plain synchronous code. The server processes keep the guard (their
    environment was copied before this).
    """
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=DEFAULT_TIMEOUT_MS)  # a busy 2-core machine
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            yield playwright
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def browser(_playwright):
    """One headless Chromium for the session; tests open their own contexts."""
    browser = _playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


def _artifact_name(nodeid: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid).strip("_")[-150:]


@pytest.fixture
def new_context(request, browser, e2e_server) -> Iterator[Callable[..., Any]]:
    """Make browser contexts (one per person); they close when the test ends.

    ``new_context(viewport={"width": 390, "height": 844})`` takes Playwright's
    ``Browser.new_context`` keywords. The base URL is the server's, so
    ``page.goto("/games/")`` works. On failure every page is saved.
    """
    contexts: list[Any] = []
    # For the axe check at the test's end (pytest_runtest_call above).
    request.node._kfa_contexts = contexts
    request.node._kfa_base_url = e2e_server.base_url

    def make(**kwargs: Any):
        kwargs.setdefault("base_url", e2e_server.base_url)
        kwargs.setdefault("viewport", {"width": 1280, "height": 900})
        context = browser.new_context(**kwargs)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    failed = any(
        getattr(getattr(request.node, f"rep_{when}", None), "failed", False)
        for when in ("setup", "call")
    )
    if failed:
        target = ARTIFACTS / _artifact_name(request.node.nodeid)
        target.mkdir(parents=True, exist_ok=True)
        for c, context in enumerate(contexts):
            for p, page in enumerate(context.pages):
                stem = target / f"context{c}-page{p}"
                with contextlib.suppress(Exception):
                    page.screenshot(path=f"{stem}.png", full_page=True)
                with contextlib.suppress(Exception):
                    Path(f"{stem}.html").write_text(
                        f"<!-- {page.url} -->\n{page.content()}"
                    )
        for name in e2e_server.processes:
            (target / f"{name}.log").write_text(e2e_server.log(name)[-200_000:])
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()


@pytest.fixture
def page(new_context):
    """A page in a fresh context (a visitor who is not signed in)."""
    return new_context().new_page()


@dataclass
class Player:
    """A signed-in person: their user row, browser context and first page."""

    user: Any
    context: Any
    page: Any


class Arena:
    """Helpers for browser tests: URLs, users, sign-in, waiting, mail, frames."""

    password = PASSWORD

    def __init__(self, server: ArenaServer, new_context: Callable[..., Any]):
        self.server = server
        self.base_url = server.base_url
        self._new_context = new_context

    def url(self, path: str = "/") -> str:
        return self.base_url + path

    def unique(self, prefix: str = "e2e") -> str:
        """A name no other test of this session uses (usernames, slugs)."""
        return f"{prefix}{os.getpid() % 10000}x{next(_names)}"

    def create_user(self, username: str | None = None, **fields: Any):
        """A user made with the accounts service; the password is ``PASSWORD``."""
        from accounts import services

        username = username or self.unique("user")
        return services.user_create(
            username=username,
            email=fields.pop("email", f"{username}@example.test"),
            password=fields.pop("password", PASSWORD),
            display_name=fields.pop("display_name", ""),
            **fields,
        )

    def login(self, context: Any, user: Any) -> None:
        """Sign ``user`` in within ``context`` with a session cookie (no form)."""
        from django.conf import settings
        from django.test import Client

        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies(
            [{"name": cookie.key, "value": cookie.value, "url": self.base_url}]
        )

    def player(self, username: str | None = None, **context_kwargs: Any) -> Player:
        """A new user, signed in, in a browser context of their own, with a page."""
        user = self.create_user(username)
        context = self._new_context(**context_kwargs)
        self.login(context, user)
        return Player(user=user, context=context, page=context.new_page())

    @staticmethod
    def server_side(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """Call ``fn`` (a service) on a worker thread, as the server would.

        Services that push to sockets after their commit use ``async_to_sync``,
        which refuses to run on a thread with a running event loop, and
        Playwright's sync API keeps one on the test's thread.
        """
        from django.db import connection

        def run() -> Any:
            try:
                return fn(*args, **kwargs)
            finally:
                connection.close()

        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run).result()

    def wait_until(
        self,
        check: Callable[[], Any],
        *,
        timeout: float = 20.0,
        interval: float = 0.2,
        message: str = "condition",
    ) -> Any:
        """Poll ``check`` (e.g. an ORM query) until it returns something truthy
        (``tests.waiting.wait_until``), failing at once if the server died."""
        return wait_until(
            check,
            timeout=timeout,
            interval=interval,
            message=message,
            between=self.server.assert_alive,
        )

    def mails(self) -> list[str]:
        """Every e-mail the server sent this session, as raw text, oldest first."""
        files = sorted(self.server.mail_dir.glob("*.log"), key=os.path.getmtime)
        return [
            message
            for path in files
            for message in path.read_text().split("-" * 79)
            if message.strip()
        ]

    @staticmethod
    def record_frames(page: Any) -> list[dict[str, Any]]:
        """Capture every WebSocket frame ``page`` sends or receives from now on.

        Returns a list that fills as frames pass: ``{"url", "direction", "data"}``
        with ``data`` the frame text (decoded JSON when it parses).
        """
        frames: list[dict[str, Any]] = []

        def watch(ws: Any) -> None:
            def keep(direction: str):
                def add(payload: Any) -> None:
                    text = payload if isinstance(payload, str) else payload.decode()
                    try:
                        data = json.loads(text)
                    except ValueError:
                        data = text
                    frames.append({"url": ws.url, "direction": direction, "data": data})

                return add

            ws.on("framereceived", keep("received"))
            ws.on("framesent", keep("sent"))

        page.on("websocket", watch)
        return frames


@pytest.fixture
def arena(e2e_server, new_context, django_db_blocker) -> Iterator[Arena]:
    """The server's address and helpers; the test may use the ORM while it runs."""
    with django_db_blocker.unblock():
        e2e_server.assert_alive()
        yield Arena(e2e_server, new_context)
