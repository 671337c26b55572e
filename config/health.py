"""`GET /healthz`: is every part of the platform up?

Load balancers and `make run` poll this. Each check is short and bounded so a
dead dependency produces a quick 503 naming it instead of a hung request.
"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse


def check_database() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"
        return f"{type(exc).__name__}: {exc}"
    return None


def check_redis() -> str | None:
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1
        )
        client.ping()
        client.close()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def check_celery() -> str | None:
    from config.celery import app

    try:
        replies = app.control.ping(timeout=1.0)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    if not replies:
        return "no Celery worker answered within 1 s"
    return None


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "redis": check_redis()}
    # Asking Celery workers needs the broker; with Redis down that is moot.
    checks["celery"] = "skipped: Redis is down" if checks["redis"] else check_celery()
    failing = [name for name, error in checks.items() if error]
    body = {
        "status": "ok" if not failing else "error",
        "failing": failing,
        "checks": {
            name: {"ok": error is None, **({"error": error} if error else {})}
            for name, error in checks.items()
        },
    }
    return JsonResponse(body, status=200 if not failing else 503)
