"""Account abuse (issue 10, section 3): password guessing, e-mail probing, names
that imitate another player's."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from accounts.names import name_skeleton
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SIGN_UP = {
    "username": "newcomer",
    "email": "newcomer@example.com",
    "display_name": "Newcomer",
    "password1": "snake-and-crane-77",
    "password2": "snake-and-crane-77",
}


# --- login throttling, per account and per address ---------------------------------


def _sign_in(client, username, password, addr="203.0.113.5", **extra):
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=addr,
        **extra,
    )


def test_the_sign_in_page_locks_an_account_after_five_wrong_passwords(client):
    UserFactory(username="mei")
    for attempt in range(4):
        assert _sign_in(client, "mei", f"guess-{attempt}").status_code == 200
    # The fifth wrong password is answered with the lockout, and so is the right one.
    assert _sign_in(client, "mei", "guess-4").status_code == 429
    locked = _sign_in(client, "mei", "correct-horse-42")
    assert locked.status_code == 429
    assert "Too many failed sign-ins" in locked.content.decode()
    assert locked["Retry-After"] == str(15 * 60)
    assert "_auth_user_id" not in client.session


def test_the_account_stays_locked_from_other_addresses(client):
    UserFactory(username="mei")
    for attempt in range(5):
        _sign_in(client, "mei", f"guess-{attempt}", addr=f"198.51.100.{attempt}")
    assert (
        _sign_in(client, "mei", "correct-horse-42", addr="192.0.2.77").status_code
        == 429
    )


def test_one_address_is_locked_across_accounts(client):
    UserFactory(username="victim")
    for attempt in range(5):
        _sign_in(client, f"user{attempt}", "guess")
    assert _sign_in(client, "victim", "correct-horse-42").status_code == 429
    # Another address may still sign in to that account.
    ok = _sign_in(client, "victim", "correct-horse-42", addr="192.0.2.9")
    assert ok.status_code == 302


def test_forwarded_for_headers_do_not_reset_the_address_count(client):
    UserFactory(username="victim")
    for attempt in range(5):
        _sign_in(
            client,
            f"user{attempt}",
            "guess",
            HTTP_X_FORWARDED_FOR=f"10.0.0.{attempt}",
            HTTP_X_REAL_IP=f"10.1.0.{attempt}",
        )
    blocked = _sign_in(
        client, "victim", "correct-horse-42", HTTP_X_FORWARDED_FOR="10.9.9.9"
    )
    assert blocked.status_code == 429


def test_the_token_endpoint_locks_out_with_a_json_answer():
    UserFactory(username="mei")
    api = APIClient(REMOTE_ADDR="203.0.113.8")
    url = reverse("api-token")
    for attempt in range(4):
        wrong = api.post(url, {"username": "mei", "password": f"x{attempt}"})
        assert wrong.status_code == 400
    assert api.post(url, {"username": "mei", "password": "x4"}).status_code == 429
    locked = api.post(url, {"username": "mei", "password": "correct-horse-42"})
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    assert "Too many failed sign-ins" in locked.json()["detail"]


def test_a_good_password_before_the_limit_resets_the_count(client):
    UserFactory(username="mei")
    for attempt in range(4):
        _sign_in(client, "mei", f"guess-{attempt}")
    assert _sign_in(client, "mei", "correct-horse-42").status_code == 302
    client.post(reverse("accounts:logout"))
    for attempt in range(4):
        _sign_in(client, "mei", f"again-{attempt}")
    assert _sign_in(client, "mei", "correct-horse-42").status_code == 302


def test_the_anonymous_api_limit_counts_the_peer_not_its_forwarded_for(
    monkeypatch, clean_cache
):
    from rest_framework import throttling

    monkeypatch.setattr(
        throttling.SimpleRateThrottle,
        "THROTTLE_RATES",
        {"anon": "3/min", "user": "100/min"},
    )
    api = APIClient(REMOTE_ADDR="203.0.113.50")
    codes = [
        api.get(reverse("api-matches"), HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
        for n in range(5)
    ]
    assert codes == [200, 200, 200, 429, 429]


# --- sign-up and reset do not tell which e-mails exist ------------------------------


def _sign_up(client, **change):
    return client.post(reverse("accounts:signup"), {**SIGN_UP, **change}, follow=True)


def test_sign_up_answers_alike_for_a_taken_e_mail(
    client, django_capture_on_commit_callbacks
):
    UserFactory(username="owner", email="taken@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        fresh = _sign_up(client, email="fresh@example.com")
    client.post(reverse("accounts:logout"))
    with django_capture_on_commit_callbacks(execute=True):
        taken = _sign_up(
            client, username="prober", display_name="Prober", email="TAKEN@example.com"
        )
    assert fresh.status_code == taken.status_code == 200
    assert fresh.redirect_chain == taken.redirect_chain
    fresh_text = fresh.content.decode().replace("Newcomer", "X")
    taken_text = taken.content.decode().replace("Prober", "X")
    assert "We sent a message to fresh@example.com" in fresh_text
    assert "We sent a message to taken@example.com" in taken_text
    prober = User.objects.get(username="prober")
    assert prober.email == ""  # one account per address
    assert User.objects.get(username="newcomer").email == "fresh@example.com"
    assert [m.to for m in mail.outbox] == [
        ["fresh@example.com"],
        ["taken@example.com"],
    ]
    assert "already belongs to an account" in mail.outbox[1].body


def _unmasked(page: bytes) -> bytes:
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", page)


def test_password_reset_answers_alike_for_known_and_unknown_e_mails(client):
    UserFactory(username="mei", email="mei@example.com")
    known = client.post(
        reverse("accounts:password_reset"), {"email": "mei@example.com"}, follow=True
    )
    unknown = client.post(
        reverse("accounts:password_reset"),
        {"email": "nobody@example.com"},
        follow=True,
    )
    assert known.redirect_chain == unknown.redirect_chain
    # The footer's language form carries a CSRF token, masked anew per render.
    assert _unmasked(known.content) == _unmasked(unknown.content)
    assert [m.to for m in mail.outbox] == [["mei@example.com"]]


def test_profile_edit_refuses_another_accounts_e_mail(client):
    UserFactory(username="owner", email="owner@example.com")
    me = UserFactory(username="me", email="me@example.com")
    client.force_login(me)
    response = client.post(
        reverse("accounts:profile_edit"),
        {"display_name": "Me", "email": "Owner@Example.com"},
    )
    assert response.status_code == 200
    assert "Another account already uses this e-mail address." in (
        response.content.decode()
    )
    me.refresh_from_db()
    assert me.email == "me@example.com"
    keep = client.post(
        reverse("accounts:profile_edit"), {"display_name": "Me", "email": "ME@x.org"}
    )
    assert keep.status_code == 302


# --- names that imitate another player's --------------------------------------------


@pytest.mark.parametrize(
    "imitation",
    [
        "alice",
        "ALICE",
        "A l i c e",
        "Al_ice",
        "\u0410lice",  # Cyrillic capital A
        "\U0001d400lice",  # mathematical bold capital A
        "Alic\u00e9",
        "AIice",  # capital i for l
        "\uff21\uff4c\uff49\uff43\uff45",  # full-width
        "Al\u200bice",  # zero-width space
    ],
)
def test_sign_up_refuses_a_display_name_that_imitates_another(client, imitation):
    UserFactory(username="alice1", display_name="Alice")
    response = client.post(
        reverse("accounts:signup"), {**SIGN_UP, "display_name": imitation}
    )
    assert response.status_code == 400
    assert "looks too much like another player" in " ".join(
        response.context["form"].errors["display_name"]
    )
    assert not User.objects.filter(username="newcomer").exists()


def test_a_username_shown_as_the_name_is_checked_too(client):
    UserFactory(username="bob9", display_name="Tiger")
    response = client.post(
        reverse("accounts:signup"),
        {**SIGN_UP, "username": "tiger", "display_name": ""},
    )
    assert response.status_code == 400
    assert "username" in response.context["form"].errors


def test_profile_edit_refuses_imitation_but_allows_your_own_name(client):
    UserFactory(username="alice1", display_name="Alice")
    me = UserFactory(username="me", display_name="Crane")
    client.force_login(me)
    refused = client.post(
        reverse("accounts:profile_edit"),
        {"display_name": "ALlCE", "email": "me@example.com"},
    )
    assert refused.status_code == 200
    assert "looks too much like another player" in refused.content.decode()
    own_case = client.post(
        reverse("accounts:profile_edit"),
        {"display_name": "CRANE", "email": "me@example.com"},
    )
    assert own_case.status_code == 302
    me.refresh_from_db()
    assert me.display_name == "CRANE"
    assert me.name_skeleton == name_skeleton("crane")


def test_names_without_letters_or_digits_are_refused(client):
    response = client.post(
        reverse("accounts:signup"), {**SIGN_UP, "display_name": "!!! ..."}
    )
    assert response.status_code == 400
    assert "at least one letter or digit" in str(response.context["form"].errors)


def test_different_names_stay_different():
    assert name_skeleton("Alice") != name_skeleton("Alicia")
    assert name_skeleton("Tiger Claw") != name_skeleton("Tiger Claws")
    assert name_skeleton("Crane") == name_skeleton("CRANE")
