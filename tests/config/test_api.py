"""API authentication, the index and the OpenAPI schema."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_token_auth_identifies_the_user() -> None:
    user = UserFactory(username="mei")
    token = Token.objects.create(user=user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api.get("/api/me/")
    assert response.status_code == 200
    assert response.json()["username"] == "mei"


def test_missing_or_wrong_token_is_refused() -> None:
    api = APIClient()
    assert api.get("/api/me/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api.get("/api/me/")
    assert response.status_code == 401
    assert response.json()["detail"] == "Invalid token."


def test_obtain_token_with_password() -> None:
    UserFactory(username="mei")
    api = APIClient()
    response = api.post(
        "/api/auth/token/", {"username": "mei", "password": "correct-horse-42"}
    )
    assert response.status_code == 200
    assert len(response.json()["token"]) == 40
    bad = api.post("/api/auth/token/", {"username": "mei", "password": "nope"})
    assert bad.status_code == 400


def test_api_root_lists_endpoints() -> None:
    body = APIClient().get("/api/").json()
    assert body["schema"].endswith("/api/schema/")
    assert body["me"].endswith("/api/me/")


def test_schema_and_docs() -> None:
    api = APIClient()
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    spec = schema.json()
    assert spec["info"]["title"] == "Kung Fu Arena API"
    assert "/api/me/" in spec["paths"]
    docs = api.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


def test_public_user_endpoint_hides_email() -> None:
    UserFactory(username="ning", email="secret@example.com")
    body = APIClient().get("/api/users/ning/").json()
    assert body["username"] == "ning"
    assert "email" not in body
