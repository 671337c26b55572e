"""Which language a page is in: the user's setting, else the switcher's cookie,
else Accept-Language; dates follow the language (issue 32 §1)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _home(client, **headers):
    return client.get(reverse("home"), **headers).content.decode()


def test_english_without_any_preference(client):
    page = _home(client)
    assert '<html lang="en">' in page and ">Sign in</a>" in page


@pytest.mark.parametrize(
    ("header", "lang", "sign_in"),
    [
        ("de-DE,de;q=0.9,en;q=0.5", "de", "Anmelden"),
        ("pt-BR,pt;q=0.9", "pt-br", "Entrar"),
        ("pl", "pl", "Zaloguj się"),
        ("zh-TW,zh;q=0.8", "zh-hant", "登入"),
        ("fr-FR", "en", "Sign in"),
    ],
)
def test_the_browsers_accept_language_chooses(client, header, lang, sign_in):
    page = _home(client, HTTP_ACCEPT_LANGUAGE=header)
    assert f'<html lang="{lang}">' in page
    assert f">{sign_in}</a>" in page


def test_the_users_setting_wins_over_the_browser_and_the_cookie(client):
    user = UserFactory(language="pl")
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = _home(client, HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert '<html lang="pl">' in page and "Wyloguj się" in page


def test_a_user_without_a_setting_follows_the_browser(client):
    client.force_login(UserFactory(language=""))
    page = _home(client, HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="de">' in page and "Abmelden" in page
    assert 'aria-label="Menü"' in page  # attributes too


def test_the_switcher_sets_the_cookie_for_a_visitor(client):
    answer = client.post(
        reverse("languages:set_language"), {"language": "pt-br", "next": "/games/"}
    )
    assert answer.status_code == 302 and answer["Location"] == "/games/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pt-br"
    assert '<html lang="pt-br">' in _home(client, HTTP_ACCEPT_LANGUAGE="de")


def test_the_switcher_saves_a_signed_in_users_setting(client):
    user = UserFactory()
    client.force_login(user)
    client.post(reverse("languages:set_language"), {"language": "zh-hant"})
    user.refresh_from_db()
    assert user.language == "zh-hant"


def test_an_unknown_language_changes_nothing(client):
    user = UserFactory(language="de")
    client.force_login(user)
    for bad in ("xx", "", "../../etc", "en" * 100):
        answer = client.post(reverse("languages:set_language"), {"language": bad})
        assert answer.status_code == 302
    user.refresh_from_db()
    assert user.language == "de"
    assert client.get(reverse("languages:set_language")).status_code == 405


def test_the_profile_form_sets_the_language(client):
    user = UserFactory()
    client.force_login(user)
    data = {
        "display_name": user.display_name,
        "email": user.email,
        "time_zone": "",
        "accept_challenges": "everyone",
        "language": "de",
    }
    assert client.post(reverse("accounts:profile_edit"), data).status_code == 302
    user.refresh_from_db()
    assert user.language == "de"
    page = client.get(reverse("accounts:profile_edit")).content.decode()
    assert "Profil bearbeiten" in page
    data["language"] = "klingon"
    assert client.post(reverse("accounts:profile_edit"), data).status_code == 200
    user.refresh_from_db()
    assert user.language == "de"


def test_dates_are_in_the_languages_format(client):
    user = UserFactory(date_joined=dt.datetime(2026, 3, 5, 12, tzinfo=dt.UTC))
    url = reverse("accounts:profile", args=[user.username])
    assert "member since 5 March 2026" in client.get(url).content.decode()
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Mitglied seit 5. März 2026" in german
    polish = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "członek od 5 marca 2026" in polish


def test_the_javascript_catalogue_follows_the_language(client):
    answer = client.get(
        reverse("languages:javascript-catalog"), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert answer.status_code == 200
    assert "Nicht gesendet." in answer.content.decode()
