"""Test: like development, plus fast hashing and no real e-mail."""

import os
from urllib.parse import urlsplit, urlunsplit

from config.embedded_redis import EmbeddedRedis

from .base import *  # noqa: F403
from .base import CACHES, CHANNEL_LAYERS, REDIS_URL, VAR_DIR, _celery_url, env

DEBUG = False
SECRET_KEY = SECRET_KEY or "test-only-secret-key"  # noqa: F405
# Hashing with the default PBKDF2 cost would dominate the auth tests' runtime.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# A fixed VAPID pair made for the tests only (no push service knows it).
VAPID_PRIVATE_KEY = "qrXvOOR2PGeBwdjPs2Xsd_PYXd5sfnklBJR0ocR5_yY"
VAPID_PUBLIC_KEY = (
    "BHhvN_7v7aKheuy4nHU6ScfcYTyJpKqnUyxuaMEc-ARHjXNr1AYBt5o_"
    "Dg5U71iBgaQfOHs1jTnp_qVGyzVu9cA"
)
# Tests run tasks in-process unless a test starts a real worker.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True


#: Redis databases below the URL's that the workers of the browser run take
#: (``KFA_TEST_RUN`` set): clear of the other run's base-1-N while it has at
#: most this many workers.
BROWSER_RUN_REDIS_OFFSET = 8


def _xdist_worker_redis_url(url: str) -> str:
    """Under pytest-xdist, worker gwN of a run on a real Redis uses database
    base-1-N, or base-9-N in the browser run beside it.

    Sessions must not share a database: ``cache.clear()`` flushes the whole of
    it, and the live store, channel layer and broker keys would collide.
    ``REDIS_URL`` names the base database (CI's ``/15``), which a session
    without xdist keeps; counting down keeps clear of database 0, the usual
    development one. ``make test`` runs the browser tests (tests/e2e) in a run
    of their own beside the others, with ``KFA_TEST_RUN=e2e``: its workers
    count down from base-9 (CI's: 6, 5), so the two runs never meet while
    the other has at most eight workers. The URL chosen is written back to
    the environment with ``KFA_REDIS_WORKER_URL`` beside it, so the processes
    a test starts (they inherit ``PYTEST_XDIST_WORKER`` too) use that
    database as given.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or os.environ.get("KFA_REDIS_WORKER_URL") == url:
        return url
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return url
    base = int(parts.path.strip("/") or 0)
    if os.environ.get("KFA_TEST_RUN"):
        base -= BROWSER_RUN_REDIS_OFFSET
    number = (base - 1 - int(worker.removeprefix("gw"))) % 16
    worker_url = urlunsplit(parts._replace(path=f"/{number}"))
    os.environ["REDIS_URL"] = os.environ["KFA_REDIS_WORKER_URL"] = worker_url
    return worker_url


# Each test session gets its own embedded Redis (when REDIS_URL is unset), so
# parallel sessions on one checkout never stop each other's server.
if not env.str("REDIS_URL", default="") and not env.str(
    "EMBEDDED_REDIS_DIR", default=""
):
    EMBEDDED_REDIS = EmbeddedRedis(VAR_DIR / "redis-test" / str(os.getpid()))
    REDIS_URL = EMBEDDED_REDIS.url
    USING_EMBEDDED_REDIS = True
    CACHES["default"]["LOCATION"] = REDIS_URL
    CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = REDIS_URL
    CELERY_BROKER_URL = CELERY_RESULT_BACKEND = _celery_url(REDIS_URL)
elif (worker_url := _xdist_worker_redis_url(REDIS_URL)) != REDIS_URL:
    REDIS_URL = worker_url
    CACHES["default"]["LOCATION"] = REDIS_URL
    CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = REDIS_URL
    CELERY_BROKER_URL = CELERY_RESULT_BACKEND = _celery_url(REDIS_URL)
# Uploaded bots' code goes to MEDIA_ROOT/bots/<pk>/, and every test session (each
# xdist worker) numbers its rows from 1: each session gets a directory of its own,
# removed at its end (tests/conftest.py).
SESSION_MEDIA_ROOT = VAR_DIR / "media-test" / str(os.getpid())
if not env.str("MEDIA_ROOT", default=""):
    MEDIA_ROOT = SESSION_MEDIA_ROOT
CACHES["default"]["KEY_PREFIX"] = "kfa-test"


def _channel_prefix(url: str) -> str:
    """The channel layer's prefix for a session on ``url``: "kfa-test", and on a
    real Redis "kfa-test-<database>".

    The layer uses pub/sub, whose channels belong to the whole Redis server,
    not to a database: sessions side by side on one server (the xdist
    workers, the browser run's servers) would otherwise hear each other's
    groups, which are named after row ids every test database repeats (a
    user's page sent to another session's game).
    """
    parts = urlsplit(url)
    database = parts.path.strip("/")
    if parts.scheme in ("redis", "rediss") and database:
        return f"kfa-test-{database}"
    return "kfa-test"


CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = _channel_prefix(REDIS_URL)
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {"anon": "1000/min", "user": "1000/min"}  # noqa: F405
# Serve static files from the sources; tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# A small search budget: tests check the analysis's plumbing and shape; its
# accuracy is tested with explicit budgets (tests/rules/test_analysis*.py).
ANALYSIS_ITERATIONS = 16
