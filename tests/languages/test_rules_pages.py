"""The rules pages' headings and table headings in the reader's language
(issue 32 §1: "the rules pages' headings"); their prose stays English
(docs/i18n.md, "What is not translated yet")."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from gameplay.rules import available_games

pytestmark = pytest.mark.django_db

HEADINGS = re.compile(r"<(h[1-6]|th)\b[^>]*>(.*?)</\1>", re.S)
LANGUAGES = ("pt-BR", "de", "pl", "zh-Hant")


def _headings(client, game: str, language: str) -> list[str]:
    page = client.get(
        reverse("gameplay:rules", args=[game]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert page.status_code == 200
    section = page.content.decode().split('class="rules card"', 1)[-1]
    return [
        unescape(re.sub(r"<[^>]+>", "", m[1])).strip()
        for m in HEADINGS.findall(section)
    ]


@pytest.mark.parametrize("game", list(available_games()))
def test_every_rules_heading_reads_in_the_readers_language(client, game):
    english = _headings(client, game, "en")
    assert english, f"{game}: no headings found"
    for language in LANGUAGES:
        translated = _headings(client, game, language)
        assert len(translated) == len(english)
        # A heading left in English is one the catalogue does not word (a few
        # words read the same in a language, as German "Initiative").
        same = [e for e, t in zip(english, translated, strict=True) if e == t]
        assert len(same) <= 1, f"{game} in {language}: English headings {same}"


def test_the_german_rules_of_duelo_start_with_the_aim(client):
    assert "Das Ziel" in _headings(client, "duelo", "de")
    assert "The aim" in _headings(client, "duelo", "en")
