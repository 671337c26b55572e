"""docker-compose.yml matches the settings: every app service can start."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
APP_SERVICES = ["migrate", "web", "worker", "bot-worker", "beat"]


def _resolve(value: str) -> str:
    """Expand ${VAR:-default} and ${VAR:?message} as compose would (vars unset)."""
    value = re.sub(r"\$\{[A-Z_]+:\?[^}]*\}", "compose-secret", str(value))
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def test_every_service_is_described_with_a_health_check() -> None:
    services = COMPOSE["services"]
    assert {"postgres", "redis", *APP_SERVICES} <= set(services)
    for name in ["postgres", "redis", "web", "worker", "bot-worker"]:
        assert "healthcheck" in services[name], name


def test_app_services_load_production_settings_with_their_environment() -> None:
    """Each distinct environment once: most services share one (a process
    each, with the apps set up, costs about a second of CPU)."""
    loaded: set[tuple] = set()
    for name in APP_SERVICES:
        environment = {
            key: _resolve(value)
            for key, value in COMPOSE["services"][name]["environment"].items()
        }
        assert environment["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
        if tuple(sorted(environment.items())) in loaded:
            continue  # an earlier service with this environment loaded
        loaded.add(tuple(sorted(environment.items())))
        env = {**os.environ, **environment}
        code = (
            "import django; from django.conf import settings; django.setup();"
            "print(settings.DATABASES['default']['HOST'], settings.REDIS_URL)"
        )
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, (name, result.stderr)
        assert result.stdout.split() == ["postgres", "redis://redis:6379/0"]


def test_workers_consume_every_routed_queue() -> None:
    from django.conf import settings

    queues: set[str] = set()
    for name in ("worker", "analysis-worker", "bot-worker"):
        command = COMPOSE["services"][name]["command"]
        queues |= set(command[command.index("-Q") + 1].split(","))
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    routed.add(settings.CELERY_TASK_DEFAULT_QUEUE)
    assert routed <= queues
