"""Post-game analysis: ask on the result screen, watch it run, read it in the replay."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.test_duelo_end_and_copies import END_SEED, END_STEPS, _match, _play

DESKTOP = {"width": 1280, "height": 900}


def test_finish_ask_for_the_analysis_and_read_the_graph(arena):
    me = arena.player(viewport=DESKTOP)
    rival = arena.create_user(display_name=arena.unique("Rival"))
    match = _match(arena, [me.user, rival], END_SEED)
    arena.server_side(_play, match, [me.user, rival], END_STEPS)
    page = me.page
    page.goto(f"/matches/{match.public_id}/")
    results = page.locator("[data-role='results']")
    expect(results).to_be_visible()
    results.get_by_role("button", name="Analyse this game").click()
    page.wait_for_url(f"**/matches/{match.public_id}/replay/")
    panel = page.locator("#analysis-panel")
    # Queued, then running with progress, then done (the worker's budget is
    # the test settings' small one).
    graph = panel.locator("svg.analysis-graph")
    expect(graph).to_be_visible(timeout=90_000)
    expect(panel.locator("[data-role='analysis-status']")).to_contain_text(
        "iterations per decision"
    )
    expect(graph.locator("path.analysis-line")).to_have_count(2)
    dots = graph.locator("circle.analysis-dot")
    assert dots.count() > 5
    expect(panel.locator("[data-role='analysis-summary'] tr")).to_have_count(3)
    # At the start, the first decision's menu: values, the best, the one played.
    menu = panel.locator("[data-role='analysis-menu']")
    expect(menu).to_be_visible()
    expect(menu).to_contain_text("★ best")
    expect(menu).to_contain_text("✓ played")
    # A dot jumps the replay to that decision.
    dots.nth(3).click()
    version = dots.nth(3).get_attribute("data-version")
    expect(page.locator("[data-role='slider']")).to_have_value(version or "")
    # What the rival knew: my menus are not shown in that view.
    page.locator("[data-role='perspective']").select_option("seat:1")
    expect(panel.locator("svg.analysis-graph")).to_be_visible()
    page.locator("[data-nav='start']").click()
    first = match.actions.order_by("version").first()
    text = "its menu is not shown" if first.seat == 0 else "★ best"
    expect(panel.locator("[data-role='analysis-menu']")).to_contain_text(text)
