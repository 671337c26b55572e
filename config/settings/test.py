"""Test: like development, plus fast hashing and no real e-mail."""

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = SECRET_KEY or "test-only-secret-key"  # noqa: F405
# Hashing with the default PBKDF2 cost would dominate the auth tests' runtime.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Tests run tasks in-process unless a test starts a real worker.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CACHES["default"]["KEY_PREFIX"] = "kfa-test"  # noqa: F405
CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = "kfa-test"  # noqa: F405
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {"anon": "1000/min", "user": "1000/min"}  # noqa: F405
# Serve static files from the sources; tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
