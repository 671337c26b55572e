"""Test: like development, plus fast hashing and no real e-mail."""

import os

from config.embedded_redis import EmbeddedRedis

from .base import *  # noqa: F403
from .base import CACHES, CHANNEL_LAYERS, VAR_DIR, _celery_url, env

DEBUG = False
SECRET_KEY = SECRET_KEY or "test-only-secret-key"  # noqa: F405
# Hashing with the default PBKDF2 cost would dominate the auth tests' runtime.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Tests run tasks in-process unless a test starts a real worker.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True

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
CACHES["default"]["KEY_PREFIX"] = "kfa-test"
CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = "kfa-test"
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {"anon": "1000/min", "user": "1000/min"}  # noqa: F405
# Serve static files from the sources; tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
