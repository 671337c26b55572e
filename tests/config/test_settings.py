"""Every settings mode loads; production refuses unsafe configurations."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_settings(
    module: str, *, setup: bool = True, **env: str
) -> subprocess.CompletedProcess[str]:
    """Load ``module`` in a fresh process with ``env``, then (``setup``) the
    apps. A refusal is raised while the settings module loads, before any app
    does: those checks leave ``django.setup()`` out (about 1 s of CPU each)."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"}
    }
    clean.update(env, DJANGO_SETTINGS_MODULE=module)
    code = (
        "import django; from django.conf import settings;"
        + (" django.setup();" if setup else "")
        + "print(settings.DEBUG, settings.DATABASES['default']['ENGINE'],"
        " settings.CELERY_BROKER_URL)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("module", "debug"),
    [("config.settings.development", "True"), ("config.settings.test", "False")],
)
def test_modes_load_with_embedded_defaults(module: str, debug: str) -> None:
    result = load_settings(module)
    assert result.returncode == 0, result.stderr
    shown_debug, engine, broker = result.stdout.split()
    assert shown_debug == debug
    assert engine == "django.db.backends.sqlite3"
    assert broker.startswith("redis+socket://")


PRODUCTION_ENV = {
    "SECRET_KEY": "x" * 50,
    "DATABASE_URL": "postgres://arena@db:5432/arena",
    "REDIS_URL": "redis://redis:6379/0",
    "ALLOWED_HOSTS": "arena.example.com",
}


def test_production_loads_with_complete_environment() -> None:
    result = load_settings("config.settings.production", setup=True, **PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    debug, engine, broker = result.stdout.split()
    assert debug == "False"
    assert engine == "config.postgresql"
    assert broker == "redis://redis:6379/0"


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("SECRET_KEY", "SECRET_KEY is not set"),
        ("DATABASE_URL", "DATABASE_URL must point at PostgreSQL"),
        ("REDIS_URL", "REDIS_URL must be set"),
        ("ALLOWED_HOSTS", "ALLOWED_HOSTS must list"),
    ],
)
def test_production_refuses_missing_setting(missing: str, message: str) -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != missing}
    result = load_settings("config.settings.production", setup=False, **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_production_refuses_unsandboxed_bot_override() -> None:
    result = load_settings(
        "config.settings.production",
        setup=False,
        **PRODUCTION_ENV,
        BOT_SANDBOX_ALLOW_UNSANDBOXED="true",
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "development-only override" in result.stderr


def test_production_cookies_are_secure() -> None:
    code = (  # the settings alone: test_production_loads_... sets the apps up
        "from django.conf import settings;"
        "print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)"
    )
    env = {**os.environ, **PRODUCTION_ENV}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.production"
    env["CSRF_TRUSTED_ORIGINS"] = "https://arena.example.com"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]
