"""Rating changes print one way everywhere; the rankings link uploaded bots and
mark the built-in bots that hold a ladder's scale (issue 26 §4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse

from league.ratings.elo import delta_text
from league.ratings.services import rating_apply_match
from tests.factories import BotFactory, BotVersionFactory, UserFactory, finished_match

FIXTURE = (
    Path(__file__).resolve().parents[1] / "frontend" / "fixtures" / "rating_deltas.json"
)


def test_delta_text_meets_the_cases_the_front_end_meets() -> None:
    cases = json.loads(FIXTURE.read_text())["cases"]
    assert len(cases) >= 10
    for delta, text in cases:
        assert delta_text(delta) == text, delta
    assert delta_text(-20) == "\u221220.0" and "-" not in delta_text(-20)


def test_template_filter_is_the_same_function() -> None:
    out = Template("{% load league_tags %}{{ a|rating_delta }} {{ b|rating_delta }}")
    assert out.render(Context({"a": 13.41, "b": -20})) == "+13.4 \u221220.0"


@pytest.mark.django_db
def test_rankings_link_uploaded_bots_and_mark_fixed_builtins(client) -> None:
    person = UserFactory()
    version = BotVersionFactory(bot=BotFactory(name="Crane"))
    rating_apply_match(
        match_id=finished_match(
            [person, f"bot:{version.pk}", "builtin:heuristic"], [1, 2, 3]
        ).pk
    )
    page = client.get(reverse("league:rankings") + "?game=duelo").content.decode()
    bot_url = reverse("bots:detail", args=[version.bot_id])
    assert f'<a href="{bot_url}">Crane</a>' in page
    profile = reverse("accounts:profile", args=[person.username])
    assert f'<a href="{profile}">' in page
    assert page.count(">fixed</span>") == 2  # the legend and the heuristic's row
