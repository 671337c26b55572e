"""A game's page keeps "Your games" live over the player socket (/ws/me/).

The statuses used to be drawn once ("Active") and went stale; the page now
shows whose move it is and follows each ``turn`` frame without a reload.
"""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match
from gameplay.rules import get_game


def _mover(match: Match) -> int:
    match.refresh_from_db()
    return get_game(match.game).actors(match.state)[0]


def test_your_games_on_the_game_page_follow_the_moves_live(arena):
    me, rival = arena.player(), arena.create_user()
    match = services.match_create(
        game="duelo",
        seats=[services.SeatSpec(user=me.user), services.SeatSpec(user=rival)],
        config={"start": 0},
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=match.pk)
    assert _mover(match) == 0
    me.page.goto("/games/duelo/")
    row = me.page.locator(f'[data-your-games] [data-match="{match.public_id}"]')
    expect(row.locator("[data-turn]")).to_have_text("Your move")
    me.page.wait_for_function(
        "async () => (await import('/static/js/player-socket.js')).pageState?.live"
    )
    me.page.evaluate("() => { window.__sameDocument = true; }")
    users = {0: me.user, 1: rival}
    # Move until it is the rival's turn: the row says so without a reload.
    while _mover(match) == 0:
        action = get_game("duelo").legal_action_ids(match.state, 0)[0]
        arena.server_side(
            services.match_act, match_id=match.pk, user=users[0], action_id=action
        )
    expect(row.locator("[data-turn]")).to_have_text("Opponent to move")
    # The rival resigns: the game is over, and the row says that too.
    arena.server_side(services.match_resign, match_id=match.pk, user=rival)
    expect(row.locator("[data-turn]")).to_have_text("Over")
    assert me.page.evaluate("() => window.__sameDocument") is True
