"""Settings shared by every mode, all driven by environment variables."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import environ
from csp.constants import NONCE

from config.embedded_redis import default_embedded_redis
from config.paths import PROJECT_DIR

# templates/, static/, docs/ and var/: the checkout, or ARENA_DIR (config.paths).
BASE_DIR = PROJECT_DIR
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
# A local .env is convenient in development; production passes real variables.
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "channels",
    "accounts",
    "gameplay",
    "league",
    "league.duplicate.apps.DuplicateConfig",
    "league.tournaments.arena",  # Arena tournaments (docs/tournaments.md)
    "bots",
    "notifications",
    "analysis",
    "community",
    "languages",
    "axes",  # login throttling: per account and per address (docs/security.md)
    "csp",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: the user's own language wins (languages.middleware).
    "languages.middleware.UserLocaleMiddleware",
    "config.middleware.UserTimeZoneMiddleware",
    "community.presence.SeenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "config.middleware.BadInputMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
                "notifications.context_processors.player_badges",
            ],
        },
    },
]

# --- Database: SQLite by default, DATABASE_URL selects PostgreSQL (psycopg 3).
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share one SQLite file: WAL lets readers run beside the
    # writer, IMMEDIATE transactions serialise writers instead of failing late.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
# Keep connections between requests: Channels closes "old" connections around
# every database call, and reopening (for SQLite: a WAL checkpoint on close) was
# the largest single cost per live move (docs/performance.md, "Live play").
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The same backend, its health check at most once a second per connection:
    # a ping before each database call was a round trip in four of a live
    # socket's connect and close (config/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: REDIS_URL when given, otherwise the embedded server (see README).
EMBEDDED_REDIS = default_embedded_redis()
REDIS_URL = env.str("REDIS_URL", default="") or EMBEDDED_REDIS.url
USING_EMBEDDED_REDIS = EMBEDDED_REDIS.url == REDIS_URL


def _celery_url(redis_url: str) -> str:
    """Kombu spells a Unix-socket Redis ``redis+socket://``; redis-py ``unix://``."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


CHANNEL_LAYERS: dict[str, Any] = {
    "default": {
        # Pub/sub costs 2-4x less CPU per message than the list-based layer;
        # this subclass hands a process's own sockets their messages without
        # the round trip through Redis (config/channel_layer.py).
        "BACKEND": "config.channel_layer.LocalFirstPubSubChannelLayer",
        "CONFIG": {
            # redis-py's asyncio pool defaults to 100 connections; say it outright.
            "hosts": [
                {
                    "address": REDIS_URL,
                    "max_connections": env.int("REDIS_MAX_CONNECTIONS", default=50),
                }
            ],
            "prefix": env.str("CHANNELS_PREFIX", default="kfa"),
        },
    }
}

CACHES: dict[str, Any] = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env.str("CACHE_PREFIX", default="kfa"),
        "TIMEOUT": 300,
    }
}

# --- Celery: Redis broker and results; beat schedules live in the database.
CELERY_BROKER_URL = _celery_url(REDIS_URL)
CELERY_RESULT_BACKEND = _celery_url(REDIS_URL)
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = timedelta(days=1)
CELERY_TASK_ACKS_LATE = True  # a task lost with its worker is redelivered
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # long bot matches must not hoard tasks
# What a task prints (the console e-mail backend prints each e-mail in
# development) is logged at INFO, not Celery's default WARNING: a round's
# e-mails were a WARNING each.
CELERY_WORKER_REDIRECT_STDOUTS_LEVEL = "INFO"
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=900)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=840)
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers a task nobody acknowledged within this many seconds. It must
# exceed the longest task time limit (acks are late) and the longest countdown
# (gameplay.enqueue.MAX_COUNTDOWN), or tasks run twice; it is also how long tasks
# a worker held when Redis went away take to come back (docs/operations.md).
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=1200)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
# A task running when the broker connection drops could not be acknowledged on
# the new connection; cancel it and let it be redelivered (tasks are idempotent).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TIMEZONE = "UTC"
# ISMCTS iterations per decision of a post-game analysis (docs/analysis.md):
# the cost and the agreement with exact values per budget are in bench/analysis.py.
ANALYSIS_ITERATIONS = env.int("ANALYSIS_ITERATIONS", default=200)
# Operator's switch: analyse every rated tournament game when it finishes (on
# the "analysis" queue, once per match and analysis version; docs/operations.md).
ANALYSIS_AUTO_TOURNAMENTS = env.bool("ANALYSIS_AUTO_TOURNAMENTS", default=False)
# Queues: "default" (live-match bots, clocks), "ratings", "bots" (sandboxed matches).
CELERY_TASK_ROUTES = {
    "gameplay.*": {"queue": "default"},
    "league.ratings_*": {"queue": "ratings"},
    "bots.*": {"queue": "bots"},  # only bot workers (sandbox-capable) consume it
    # Searches of whole games: their own workers, so they never delay live moves.
    "analysis.*": {"queue": "analysis"},
}
# Beat copies these into the database schedule (django-celery-beat) at start-up.
CELERY_BEAT_SCHEDULE = {
    # "Your move" e-mails that waited (one per game per period, the digests)
    # and pushes whose task was lost; idempotent (each reminder is claimed).
    "notifications-turn-reminders": {
        "task": "notifications.turn_reminders_sweep",
        "schedule": 60.0,
        "options": {"expires": 55.0},
    },
    # Tournament rounds: create due matches, forfeit no-shows; season statuses.
    "league-tournaments-tick": {"task": "league.tournaments_tick", "schedule": 60.0},
    # Duplicate rounds: deal again a game called off, catch a lost announcement.
    "duplicate-tick": {"task": "duplicate.tick", "schedule": 60.0},
    # Arenas: start and end on time, pair free players whose game's task was lost.
    "league-arenas-tick": {
        "task": "league.arenas_tick",
        "schedule": 10.0,
        "options": {"expires": 10.0},
    },
    "gameplay-sweep-expired-clocks": {
        "task": "gameplay.sweep_expired_clocks",
        "schedule": 5.0,  # armed per-turn checks do the precise work; this is a net
        "options": {"expires": 5.0},
    },
    # Correspondence games whose days per move ran out (checks are not armed
    # days ahead): a minute's precision for clocks counted in days.
    "gameplay-sweep-correspondence-clocks": {
        "task": "gameplay.sweep_correspondence_clocks",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # Real-time tables' server timers whose armed check was lost.
    "gameplay-sweep-timers": {
        "task": "gameplay.sweep_timers",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
    # Seats whose web process died (no presence refresh within PRESENCE_TTL).
    "gameplay-sweep-absent-seats": {
        "task": "gameplay.sweep_absent_seats",
        "schedule": 10.0,
        "options": {"expires": 10.0},
    },
    # Built-in bot moves whose task was lost (the broker was away at the commit).
    "gameplay-sweep-bot-turns": {
        "task": "gameplay.sweep_bot_turns",
        "schedule": 15.0,
        "options": {"expires": 15.0},
    },
    # Finished matches whose "match finished" could not be handed on (broker
    # away): rating and tournament tasks are queued from the outbox.
    "gameplay-announce-finished": {
        "task": "gameplay.announce_finished",
        "schedule": 15.0,
        "options": {"expires": 15.0},
    },
    # Idempotent per game and period (LadderRound is unique per slot).
    "bots-ladder-rounds": {
        "task": "bots.ladder_schedule",
        "schedule": timedelta(minutes=30),
        "options": {"expires": 25 * 60},
    },
    # All-bot matches nobody plays yet (tournaments, lost tasks) go to the runner.
    "bots-pick-up-matches": {
        "task": "bots.pick_up_matches",
        "schedule": 30.0,
        "options": {"expires": 25.0},
    },
    # Bot workers report their sandbox verdict; stuck validations are re-queued.
    "bots-sandbox-heartbeat": {
        "task": "bots.sandbox_heartbeat",
        "schedule": timedelta(minutes=5),
        "options": {"expires": 4 * 60},
    },
}

# Seconds a web process's word that a seat's socket is open stays good; each
# process refreshes it every third of this. A killed process's seats turn absent
# within it (docs/operations.md). Keep well under the 60 s grace period.
PRESENCE_TTL = env.int("PRESENCE_TTL", default=30)
# Days a year a player may be on vacation, pausing their correspondence clocks
# (docs/time-controls.md): a month, as on Board Game Arena.
VACATION_DAYS_PER_YEAR = env.int("VACATION_DAYS_PER_YEAR", default=30)
# Rated correspondence games feed each game's correspondence ladder, apart from
# the live global ladder (a move a day is another skill than 30 s a move).
SEPARATE_CORRESPONDENCE_LADDER = env.bool(
    "SEPARATE_CORRESPONDENCE_LADDER", default=True
)
# The rating update's statements are prepared once per PostgreSQL connection
# (planning them was about as much of the server's CPU as running them). Off
# behind a transaction-mode pooler that cannot keep prepared statements.
RATING_PREPARED_STATEMENTS = env.bool("RATING_PREPARED_STATEMENTS", default=True)

# --- Accounts and auth.
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- E-mail: console by default, SMTP when EMAIL_URL is given.
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="arena@localhost")
# Links in e-mails sent by workers, which have no request to take a host from.
SITE_URL = env.str("SITE_URL", default="http://localhost:8000")
# "Your move" in correspondence games (docs/notifications.md): at most one
# e-mail per game in this many hours (a later move's e-mail waits for it), and
# the hour (the player's time zone) of the daily digest for those who chose it.
YOUR_MOVE_EMAIL_HOURS = env.int("YOUR_MOVE_EMAIL_HOURS", default=6)
YOUR_MOVE_DIGEST_HOUR = env.int("YOUR_MOVE_DIGEST_HOUR", default=8)
# Web Push: the VAPID key pair (base64url: the raw 32-byte private key and the
# 65-byte uncompressed public key, as `web-push generate-vapid-keys` prints
# them) and the contact push services may write to. Without keys push is off,
# unless VAPID_GENERATE makes a pair once in var/ (development and tests only).
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default=f"mailto:{DEFAULT_FROM_EMAIL}")
VAPID_GENERATE = env.bool("VAPID_GENERATE", default=False)

# --- REST API.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="120/min"),
        "user": env.str("API_THROTTLE_USER", default="600/min"),
    },
    "DEFAULT_SCHEMA_CLASS": "config.schema.ArenaAutoSchema",
    "EXCEPTION_HANDLER": "config.api.api_exception_handler",
    # Bodies nested deeper than API_MAX_JSON_DEPTH are a 400, not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Throttles count REMOTE_ADDR only: the server (uvicorn --forwarded-allow-ips
    # from TRUSTED_PROXIES) has already replaced it with the client's address when
    # a trusted proxy forwarded the request; a client's own X-Forwarded-For is
    # never read here.
    "NUM_PROXIES": 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Kung Fu Arena API",
    "DESCRIPTION": "Leagues, matches, ratings, tournaments and bots for four "
    "Kung Fu card games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Serve Swagger UI from our own static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No deep links: Swagger draws them as links inside each operation's
    # button (nested interactive controls, 19 px targets); the operations
    # still open by keyboard (docs/ui.md, "Accessibility").
    # Nor Swagger's colouring of example JSON: its theme's red and blue on
    # dark grey are below 4.5:1; the plain text is white on the same grey.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "syntaxHighlight": False},
    # Every operation documents the one error shape (config.schema).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.add_error_responses",
    ],
}

# --- Internationalisation and static files.
# The games' languages (docs/i18n.md): English, the Brazilian Duelo's
# Portuguese, the German 2013 edition's, the Polish 2009 game's and the
# Taiwanese 2019 game's Traditional Chinese.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("pt-br", "Português (Brasil)"),
    ("de", "Deutsch"),
    ("pl", "Polski"),
    ("zh-hant", "繁體中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English keeps day-month-year and a 24-hour clock (config/formats/en).
FORMAT_MODULE_PATH = ["config.formats"]
# The switcher's cookie lasts a year; a signed-in user's setting wins over it.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}
MEDIA_ROOT = env.path("MEDIA_ROOT", default=VAR_DIR / "media")
MEDIA_URL = "media/"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# --- Community: words the chat filter stars out (comma-separated; docs/community.md).
COMMUNITY_WORD_FILTER = env.list("COMMUNITY_WORD_FILTER", default=[])

# --- Bots: uploaded code only ever runs inside the sandbox.
BOT_SANDBOX_ALLOW_UNSANDBOXED = env.bool("BOT_SANDBOX_ALLOW_UNSANDBOXED", default=False)
# Host uids of the sandbox slots (base .. base+count-1): each deployment or worker
# container on one host needs its own range; checked at start-up (docs/sandbox.md).
BOT_SANDBOX_UID_BASE = env.int("BOT_SANDBOX_UID_BASE", default=60000)
BOT_SANDBOX_UID_COUNT = env.int("BOT_SANDBOX_UID_COUNT", default=64)
# cgroup v2: a delegated cgroup for the per-bot cgroups (empty: beside the worker's).
BOT_SANDBOX_CGROUP = env.str("BOT_SANDBOX_CGROUP", default="")
BOT_MAX_PER_OWNER = env.int("BOT_MAX_PER_OWNER", default=5)  # keeps the ladder fair
# Seconds between moves of a live match with no person seated (bots only), so
# spectators can follow it; 0 plays as fast as the bots think.
BOTS_ONLY_MOVE_DELAY = env.float("BOTS_ONLY_MOVE_DELAY", default=0.0)
# At a table with people, a bot moves at least this many seconds after the
# previous move, so a person can follow several bot moves in a row (0: at once).
BOT_MOVE_DELAY = env.float("BOT_MOVE_DELAY", default=1.0)
# Seconds per tick of the built-in bots at a live real-time table: each tick
# every bot may send one intent (gameplay.tasks.realtime_bots_tick).
REALTIME_BOT_TICK = env.float("REALTIME_BOT_TICK", default=1.0)

# --- Hardening (docs/security.md; every value below is in the README's table).
API_MAX_JSON_DEPTH = env.int("API_MAX_JSON_DEPTH", default=32)
# Request bodies: refused with 413 before they are read (config.middleware
# BodySizeLimit, in front of Django); bot uploads are at most 1 MiB.
REQUEST_MAX_BODY_BYTES = env.int("REQUEST_MAX_BODY_BYTES", default=2 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BODY_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BODY_BYTES  # uploads never spool to disk
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
DATA_UPLOAD_MAX_NUMBER_FILES = 5

# Login throttling with django-axes: AUTH_LOCKOUT_FAILURES wrong passwords for one
# account, or from one address, lock that account or address out for
# AUTH_LOCKOUT_MINUTES (on the sign-in page, /api/auth/token/ and the admin).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AUTH_LOCKOUT_FAILURES", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AUTH_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # either one locks
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.auth_throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.auth_throttle.client_ip"
AXES_USERNAME_CALLABLE = "config.auth_throttle.attempted_username"
# Addresses of the reverse proxies whose X-Forwarded-For/-Proto the web server
# believes (uvicorn --forwarded-allow-ips; compose passes this value). Nothing
# in Django reads forwarding headers itself.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=["127.0.0.1", "::1"])

# Content-Security-Policy with a fresh nonce per response for inline scripts and
# style blocks; style attributes stay allowed (no script can run from one).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'", NONCE],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Features no page uses are switched off for the site and anything it embeds.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
