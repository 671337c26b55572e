"""Every API error answers ``{"code", "detail"}`` (config.api.api_exception_handler).

Service refusals always did; DRF's own errors (validation, authentication,
permission, not found, method not allowed, throttling, parse errors, media
types) answered ``{"detail"}`` or bare field dicts. These go through real
endpoints, so a view or setting that bypasses the handler fails here.
"""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    return body


def test_not_authenticated_and_bad_token_keep_the_challenge_header() -> None:
    api = APIClient()
    body = _error(api.get("/api/me/"), 401, "not_authenticated")
    assert set(body) == {"code", "detail"}
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api.get("/api/me/")
    body = _error(response, 401, "authentication_failed")
    assert body["detail"] == "Invalid token."
    assert response["WWW-Authenticate"].startswith("Token")


def test_validation_errors_keep_every_field_message() -> None:
    api = APIClient()
    api.force_authenticate(UserFactory(username="val"))
    response = api.post(
        "/api/tournaments/", {"name": "", "swiss_rounds": 0}, format="json"
    )
    body = _error(response, 400, "invalid")
    errors = body["errors"]
    assert {"name", "game", "format", "swiss_rounds"} <= set(errors)
    assert all(isinstance(m, str) for msgs in errors.values() for m in msgs)
    field, message = body["detail"].split(": ", 1)
    assert field in errors and message == errors[field][0]


def test_a_non_field_validation_error_is_listed_as_such() -> None:
    UserFactory(username="mei")
    response = APIClient().post(
        "/api/auth/token/", {"username": "mei", "password": "wrong"}
    )
    body = _error(response, 400, "invalid")
    assert body["errors"] == {"non_field_errors": [body["detail"]]}
    assert "credentials" in body["detail"]


def test_not_found_from_get_object_or_404_and_from_drf() -> None:
    api = APIClient()
    _error(api.get("/api/seasons/987654/standings/"), 404, "not_found")
    _error(api.get("/api/users/nobody-here/"), 404, "not_found")


def test_method_not_allowed_keeps_allow() -> None:
    response = APIClient().delete("/api/auth/token/")
    _error(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]


def test_parse_error_and_unsupported_media_type() -> None:
    api = APIClient()
    bad = api.post(
        "/api/auth/token/", data="{not json", content_type="application/json"
    )
    assert "JSON parse error" in _error(bad, 400, "parse_error")["detail"]
    plain = api.post("/api/auth/token/", data="x", content_type="text/plain")
    _error(plain, 415, "unsupported_media_type")


def test_permission_denied_uses_the_services_word() -> None:
    owner = UserFactory(username="owner1")
    other = UserFactory(username="other1")
    api = APIClient()
    api.force_authenticate(owner)
    made = api.post(
        "/api/tournaments/",
        {"name": "Cup", "game": "duelo", "format": "round_robin"},
        format="json",
    )
    assert made.status_code == 201, made.content
    api.force_authenticate(other)
    refused = api.post(f"/api/tournaments/{made.json()['slug']}/start/")
    _error(refused, 403, "forbidden")


def test_throttled_keeps_retry_after(monkeypatch) -> None:
    monkeypatch.setattr(AnonRateThrottle, "rate", "1/min", raising=False)
    api = APIClient(REMOTE_ADDR="203.0.113.201")
    assert api.get("/api/tournaments/").status_code == 200
    response = api.get("/api/tournaments/")
    body = _error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert "throttled" in body["detail"]


def test_service_refusals_keep_their_own_code() -> None:
    user = UserFactory(username="svc")
    token = Token.objects.create(user=user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api.get("/api/rankings/?game=chess")
    body = _error(response, 404, "not_found")
    assert "no such game" in body["detail"]


def test_the_schema_documents_the_error_shape() -> None:
    spec = (
        APIClient()
        .get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        .json()
    )
    error = spec["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"code", "detail"}
    assert "errors" in error["properties"]
    responses = spec["paths"]["/api/tournaments/"]["post"]["responses"]
    assert responses["4XX"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
