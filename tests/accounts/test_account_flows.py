"""Sign-up, sign-in, password change and reset, profile and API tokens."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GOOD = {
    "username": "tigerclaw",
    "email": "tiger@example.com",
    "display_name": "Tiger Claw",
    "password1": "snake-and-crane-77",
    "password2": "snake-and-crane-77",
}


def test_sign_up_creates_account_and_signs_in(client) -> None:
    response = client.post(reverse("accounts:signup"), GOOD)
    assert response.status_code == 302
    user = User.objects.get(username="tigerclaw")
    assert user.check_password("snake-and-crane-77")
    assert user.public_name == "Tiger Claw"
    assert client.get(reverse("home")).context["user"] == user


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"username": "taken"}, "username", "This username is taken."),
        ({"email": "not-an-email"}, "email", "Enter a valid email address."),
        ({"password1": "123", "password2": "123"}, "password2", "too short"),
        (
            {"password1": "password", "password2": "password"},
            "password2",
            "too common",
        ),
        ({"password2": "different-pass-99"}, "password2", "didn\u2019t match"),
    ],
)
def test_bad_sign_up_is_refused_and_changes_nothing(
    client, change, field, message
) -> None:
    UserFactory(username="taken")
    before = User.objects.count()
    response = client.post(reverse("accounts:signup"), {**GOOD, **change})
    assert response.status_code == 400
    errors = " ".join(response.context["form"].errors[field])
    assert message in errors
    assert User.objects.count() == before


def test_sign_in_and_out(client) -> None:
    UserFactory(username="mei")
    response = client.post(
        reverse("accounts:login"), {"username": "mei", "password": "correct-horse-42"}
    )
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    client.post(reverse("accounts:logout"))
    assert "_auth_user_id" not in client.session


def test_wrong_password_is_refused(client) -> None:
    UserFactory(username="mei")
    response = client.post(
        reverse("accounts:login"), {"username": "mei", "password": "wrong"}
    )
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "correct username and password" in response.content.decode()


def test_password_change(client) -> None:
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": "correct-horse-42",
            "new_password1": "dragon-style-2026",
            "new_password2": "dragon-style-2026",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("dragon-style-2026")


def test_password_reset_by_email(client) -> None:
    user = UserFactory(email="ning@example.com")
    response = client.post(
        reverse("accounts:password_reset"), {"email": "ning@example.com"}
    )
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    found = re.search(r"http://testserver(\S+)", str(mail.outbox[0].body))
    assert found is not None
    link = found.group(1)
    form_url = client.get(link).url  # Django swaps the token for a session marker
    response = client.post(
        form_url,
        {"new_password1": "monkey-swap-3141", "new_password2": "monkey-swap-3141"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("monkey-swap-3141")


def test_profile_page_shows_name_and_member_since(client) -> None:
    user = UserFactory(username="quan", display_name="Quan Jing")
    page = client.get(reverse("accounts:profile", args=["quan"])).content.decode()
    assert "Quan Jing" in page
    assert "member since" in page
    assert user.date_joined.strftime("%Y") in page
    assert client.get(reverse("accounts:profile", args=["ghost"])).status_code == 404


def test_api_token_create_regenerate_revoke(client) -> None:
    user = UserFactory()
    client.force_login(user)
    client.post(reverse("accounts:api_token_regenerate"))
    first = Token.objects.get(user=user).key
    assert first in client.get(reverse("accounts:api_tokens")).content.decode()
    client.post(reverse("accounts:api_token_regenerate"))
    second = Token.objects.get(user=user).key
    assert second != first
    client.post(reverse("accounts:api_token_revoke"))
    assert not Token.objects.filter(user=user).exists()


def test_token_pages_need_sign_in(client) -> None:
    response = client.get(reverse("accounts:api_tokens"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response.url
    assert client.get(reverse("accounts:api_token_regenerate")).status_code == 302
