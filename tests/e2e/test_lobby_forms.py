"""The game lobby's open-tables list and its three forms, in the browser.

The open-tables list said "rated round win" (no number) for every game but
Duelo: it read Duelo's own ``rounds`` key. It now lists each table's public
options in its game's words. Quick play, "Open a table" and "Challenge a
player" shared element ids (``id_rated``, ``id_players``), so clicking one
form's "Rated" label ticked the other form's box.
"""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import lobby

ROW = "table tbody tr"


def test_open_tables_show_each_games_options_by_name(arena):
    host = arena.create_user(display_name=arena.unique("Host"))
    arena.server_side(
        lobby.table_create,
        host=host,
        game="duelo",
        players=2,
        options={"rounds": 3, "start": "highest_focus"},
        rated=True,
    )
    arena.server_side(
        lobby.table_create, host=host, game="kungfu2013", players=2, options={"life": 7}
    )
    me = arena.player()
    me.page.goto("/games/duelo/")
    row = me.page.locator(ROW, has_text=host.display_name)
    expect(row).to_have_count(1)
    expect(row).to_contain_text("rated")
    expect(row).to_contain_text("Round wins needed: 3")
    expect(row).to_contain_text("Who starts: Highest Focus draw")
    me.page.goto("/games/kungfu2013/")
    row = me.page.locator(ROW, has_text=host.display_name)
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Starting life: 7")
    expect(row).not_to_contain_text("round win")
    expect(row).not_to_contain_text("rated")


def test_each_lobby_form_has_ids_of_its_own(arena):
    me = arena.player()
    me.page.goto("/games/duelo/")
    duplicates = me.page.evaluate(
        """() => {
          const seen = {};
          for (const el of document.querySelectorAll("[id]")) {
            seen[el.id] = (seen[el.id] || 0) + 1;
          }
          return Object.keys(seen).filter((id) => seen[id] > 1);
        }"""
    )
    assert duplicates == []
    quick = me.page.locator(
        "form", has=me.page.get_by_role("button", name="Find opponents")
    )
    table = me.page.locator(
        "form", has=me.page.get_by_role("button", name="Open table")
    )
    challenge = me.page.locator(
        "form", has=me.page.get_by_role("button", name="Send challenge")
    )
    boxes = [
        form.get_by_role("checkbox", name="Rated") for form in (quick, table, challenge)
    ]
    for box in boxes:
        expect(box).not_to_be_checked()
    # A click on a form's own "Rated" label ticks that form's box, no other.
    for i, form in enumerate((quick, table, challenge)):
        form.locator("label", has_text="Rated").click()
        for j, box in enumerate(boxes):
            (expect(box).to_be_checked if j == i else expect(box).not_to_be_checked)()
        form.locator("label", has_text="Rated").click()
        expect(boxes[i]).not_to_be_checked()
