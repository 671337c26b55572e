"""Production: refuses to start with an unsafe configuration."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env

DEBUG = False
if not SECRET_KEY:  # noqa: F405
    raise ImproperlyConfigured(
        "SECRET_KEY is not set: production refuses to start without a secret."
    )
if BOT_SANDBOX_ALLOW_UNSANDBOXED:  # noqa: F405
    raise ImproperlyConfigured(
        "BOT_SANDBOX_ALLOW_UNSANDBOXED is a development-only override; "
        "production never runs uploaded bots outside the sandbox."
    )
if not env.str("DATABASE_URL", default=""):
    raise ImproperlyConfigured("DATABASE_URL must point at PostgreSQL in production.")
if not env.str("REDIS_URL", default=""):
    raise ImproperlyConfigured(
        "REDIS_URL must be set in production; the embedded Redis is for development."
    )
if not env.list("ALLOWED_HOSTS", default=[]):
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the public host names.")

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
# No SECURE_PROXY_SSL_HEADER: uvicorn sets the request's scheme from
# X-Forwarded-Proto itself, and only for the proxies in TRUSTED_PROXIES
# (--forwarded-allow-ips), so a client cannot claim https on its own.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# HSTS: a day by default; raise it (a year: 31536000) once https is settled.
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=86400)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool(
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True
)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
if not SECURE_HSTS_PRELOAD:
    # Preloading is a commitment browsers keep for months: an operator's choice
    # (SECURE_HSTS_PRELOAD=true), so its deploy-check reminder is silenced.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
# /healthz is probed over plain HTTP from inside the compose network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
STORAGES["staticfiles"]["BACKEND"] = "config.storage.StaticStorage"  # noqa: F405
