"""/healthz reports every part and names the failing one."""

from __future__ import annotations

import pytest

from config import health


@pytest.mark.django_db
def test_all_up(client, monkeypatch) -> None:
    monkeypatch.setattr(health, "check_celery", lambda: None)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == {"ok": True}
    assert body["checks"]["redis"] == {"ok": True}


@pytest.mark.django_db
def test_redis_down_answers_503_naming_redis(client, settings) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert "redis" in body["failing"]
    assert body["checks"]["redis"]["ok"] is False
    assert "Error" in body["checks"]["redis"]["error"]
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.django_db
def test_no_worker_answers_503_naming_celery(client) -> None:
    # The test session runs no Celery worker, so the ping finds nobody.
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["celery"]
