"""Duelo's table at the end of a game and with two copies of a card in hand.

At a deck-out end the rulebook's reveal ("Hands revealed" in the log) turns
every hand face up: the board showed the opponent's cards as backs. When the
game ends while the page is open, the results open above the table and pushed
the log's last lines (the reveal, the result) out of view, and so did they
on a page opened after the end. With two copies of
a card in hand, clicking the other copy changed nothing on the page.
"""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import services
from gameplay.services import SeatSpec
from tests.gameplay.conftest import first_legal

# Seeds found with the engine: first-legal play of seed 1 (two players) ends
# after 66 steps with the deck out and both hands revealed (seat 0: [7, 8],
# seat 1: [6, 7]); in seed 3 seat 0 moves first holding two copies of a card.
END_SEED = 1
END_STEPS = 66
COPIES_SEED = 3
DESKTOP = {"width": 1280, "height": 800}


def _match(arena, users, seed: int):
    match = arena.server_side(
        services.match_create,
        game="duelo",
        seats=[SeatSpec(user=user) for user in users],
    )
    return arena.server_side(services.match_start, match_id=match.pk, seed=seed)


def _play(match, users, steps: int) -> None:
    """Each seat to act plays its first legal action, ``steps`` times."""
    for _ in range(steps):
        seat, action = first_legal(match)
        services.match_act(
            match_id=match.pk,
            user=users[seat],
            action_id=action,
            expected_version=match.version,
        )


def _rival_hand(page):
    return page.locator("#kfa-board [data-role='opponents'] .seat .hand")


def test_a_finished_game_shows_the_revealed_hands(arena):
    me = arena.player(viewport=DESKTOP)
    rival = arena.create_user(display_name=arena.unique("Rival"))
    match = _match(arena, [me.user, rival], END_SEED)
    arena.server_side(_play, match, [me.user, rival], END_STEPS)
    match.refresh_from_db()
    assert match.status == "finished"
    me.page.goto(f"/matches/{match.public_id}/")
    hand = _rival_hand(me.page)
    expect(hand).to_have_class("hand hand-open")
    expect(hand).to_have_attribute(
        "aria-label", f"{rival.display_name}'s hand: Tiger Style (6), Dragon Style (7)"
    )
    log = me.page.locator("[data-role='log']")
    expect(log.locator("li").last).to_contain_text("Game over")
    # Opened after the end, the results at the top do not push the log's last
    # lines (the reveal, the result) below the fold.
    expect(log.locator("li", has_text="Hands revealed")).to_be_in_viewport()
    expect(log.locator("li").last).to_be_in_viewport()
    expect(me.page.locator("[data-role='results']")).to_be_visible()
    # A spectator sees both revealed hands, and the log's end too.
    watcher = arena.player(viewport=DESKTOP)
    watcher.page.goto(f"/matches/{match.public_id}/")
    expect(watcher.page.locator("#kfa-board .seat .hand-open")).to_have_count(2)
    watcher_log = watcher.page.locator("[data-role='log'] li")
    expect(watcher_log.last).to_contain_text("Game over")
    expect(watcher_log.last).to_be_in_viewport()


def test_the_end_seen_live_turns_the_hand_and_keeps_the_log_in_view(arena):
    me = arena.player(viewport=DESKTOP)
    rival = arena.create_user(display_name=arena.unique("Rival"))
    match = _match(arena, [me.user, rival], END_SEED)
    arena.server_side(_play, match, [me.user, rival], END_STEPS - 1)
    me.page.goto(f"/matches/{match.public_id}/")
    log = me.page.locator("[data-role='log']")
    expect(log.locator("li").last).to_contain_text("Tiger Style (6) face up")
    expect(_rival_hand(me.page)).to_have_class("hand hand-closed")
    # The last move ends the game while the page is open.
    arena.server_side(_play, match, [me.user, rival], 1)
    expect(me.page.locator("[data-role='results']")).to_be_visible()
    expect(_rival_hand(me.page)).to_have_class("hand hand-open")
    expect(log.locator("li").last).to_contain_text("Game over")
    expect(log.locator("li", has_text="Hands revealed")).to_be_in_viewport()
    expect(log.locator("li").last).to_be_in_viewport()


def test_clicking_the_other_copy_of_a_card_moves_the_choice(arena):
    me = arena.player(viewport=DESKTOP)
    rival = arena.create_user()
    match = _match(arena, [me.user, rival], COPIES_SEED)
    hand = match.state["hands"][0]
    me.page.goto(f"/matches/{match.public_id}/")
    cards = me.page.locator("#kfa-board .my-hand .kcard-choice")
    expect(cards).to_have_count(len(hand))
    values = [
        int(v)
        for v in me.page.locator(
            "#kfa-board .my-hand .kcard-choice .kcard-focus"
        ).all_inner_texts()
    ]
    twin = next(v for v in values if values.count(v) == 2)
    first, second = (i for i, v in enumerate(values) if v == twin)
    cards.nth(first).click()
    expect(cards.nth(first)).to_have_attribute("aria-pressed", "true")
    expect(cards.nth(second)).to_have_attribute("aria-pressed", "false")
    # The other copy: the same card, now that copy is the chosen one.
    cards.nth(second).click()
    expect(cards.nth(second)).to_have_attribute("aria-pressed", "true")
    expect(cards.nth(first)).to_have_attribute("aria-pressed", "false")
    expect(me.page.locator("#kfa-board .action-face legend")).to_contain_text("Play ")
    # Clicking the chosen copy takes the choice back.
    cards.nth(second).click()
    expect(cards.nth(second)).to_have_attribute("aria-pressed", "false")
    expect(me.page.locator("#kfa-board .action-face")).to_have_count(0)
