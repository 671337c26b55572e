"""The site in another language, in the browser (issue 32 §1): the browser's
Accept-Language, the footer's switcher, and a whole Duelo game in Portuguese."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gameplay.models import Match, MatchStatus

from .duelo import MATCH_URL, play_by_clicking


def test_the_footer_switcher_changes_the_language(arena, page):
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    footer = page.locator("footer")
    footer.get_by_label("Language").select_option("de")
    footer.get_by_role("button", name="Change language").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    nav = page.get_by_role("navigation").first
    expect(nav.get_by_role("link", name="Anmelden")).to_be_visible()
    # The choice stays for the next pages (the cookie), whatever the browser says.
    page.goto("/games/")
    expect(page.get_by_role("heading", name="Spiele", exact=True)).to_be_visible()


def test_a_whole_duelo_game_in_portuguese(arena):
    # The browser asks for Brazilian Portuguese; the user has no setting.
    me = arena.player(locale="pt-BR")
    page = me.page
    page.goto("/games/duelo/")
    expect(page.locator("html")).to_have_attribute("lang", "pt-br")
    form = page.locator("form[action$='/tables/']")
    form.locator("select[name='players']").select_option("3")
    form.get_by_role("button", name="Abrir mesa").click()
    expect(page).to_have_url(MATCH_URL)
    public_id = MATCH_URL.search(page.url).group(1)
    for bot in ("random", "heuristic"):
        page.locator("select[name='bot']").select_option(bot)
        page.get_by_role("button", name="Colocar um bot").click()

    board = page.locator("#kfa-board")
    expect(board).to_be_visible()
    expect(page.locator("[data-role='connection']")).to_contain_text("Conectado")
    expect(board.get_by_role("button", name="Desistir")).to_be_visible()
    expect(board.get_by_role("heading", name="Registro da partida")).to_be_visible()

    assert play_by_clicking(page) > 0

    results = page.locator("[data-role='results']")
    expect(results).to_contain_text(re.compile(r"vence|Você vence"))
    expect(results.get_by_role("columnheader", name="Colocação")).to_be_visible()
    expect(results.get_by_role("button", name="Verificar semente")).to_be_visible()
    match = arena.wait_until(
        lambda: Match.objects.filter(
            public_id=public_id, status=MatchStatus.FINISHED
        ).first(),
        message="the match to be stored as finished",
    )
    assert match.result["winners"]
