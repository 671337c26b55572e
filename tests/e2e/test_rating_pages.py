"""Rating pages in a real browser (issue 26 §4): the profile chart's few nice
gridlines, rating changes printed one way, uploaded bots linked from the
rankings and the fixed built-in bots explained."""

from __future__ import annotations

import itertools

from django.urls import reverse
from playwright.sync_api import expect

from league.ratings.services import rating_apply_match
from tests.factories import BotFactory, BotVersionFactory, finished_match


def test_profile_chart_has_a_few_gridlines_and_signed_changes(arena):
    ana = arena.player()
    rival = arena.create_user()
    # Four close games: the chart spans about 40 points.
    for placements in ([1, 2], [2, 1], [1, 2], [2, 1]):
        rating_apply_match(match_id=finished_match([ana.user, rival], placements).pk)
    page = ana.page
    page.goto(reverse("accounts:profile", args=[ana.user.username]))
    chart = page.locator("svg.rating-chart").first
    expect(chart).to_be_visible()
    lines = chart.locator("line.grid-line")
    count = lines.count()
    assert 2 <= count <= 7, f"{count} gridlines"
    labels = [int(t) for t in chart.locator("text.axis-label").all_text_contents()]
    steps = {b - a for a, b in itertools.pairwise(labels)}
    assert len(steps) == 1 and steps.pop() in (5, 10, 20), labels
    titles = chart.locator("circle.rating-dot title").all_text_contents()
    assert any("(+" in t for t in titles) and any("(\u2212" in t for t in titles)
    assert not any("(-" in t for t in titles), titles


def test_rankings_link_uploaded_bots_and_explain_fixed_bots(arena):
    ana = arena.player()
    version = BotVersionFactory(bot=BotFactory(name=arena.unique("Crane")))
    rating_apply_match(
        match_id=finished_match(
            [ana.user, f"bot:{version.pk}", "builtin:heuristic"], [2, 1, 3]
        ).pk
    )
    page = ana.page
    page.goto("/rankings/?game=duelo")
    row = page.locator("tr", has_text="Heuristic bot")
    expect(row.locator(".badge", has_text="fixed")).to_be_visible()
    expect(page.get_by_text("a built-in bot whose rating never moves")).to_be_visible()
    page.get_by_role("link", name=version.bot.name).click()
    expect(page).to_have_url(arena.url(reverse("bots:detail", args=[version.bot_id])))
    expect(page.locator("h1")).to_contain_text(version.bot.name)
