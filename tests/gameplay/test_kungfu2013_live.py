"""Kung Fu (2013) live: the WebSocket frames of a full game against each seat's view."""

from __future__ import annotations

import json

import pytest

from gameplay.models import MatchStatus
from gameplay.rules import get_game
from tests.gameplay.live import (
    assert_frames_are_each_seats_view,
    db_start,
    play_two_seat_game,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]


async def test_full_game_frames_match_each_seats_allowed_view(players):
    """Two people play a whole game over WebSockets (seeded random moves); every
    frame each seat, a spectator and an anonymous watcher received equals the
    engine's observation for that seat at that version, its events are exactly
    the events that seat may see, and no frame names a card hidden from it."""
    import random

    rnd = random.Random(7)
    match = await db_start(players[:2], game="kungfu2013", config={"life": 5})
    game = await play_two_seat_game(
        match,
        players[:2],
        players[4],
        choose=lambda legal: legal[rnd.randrange(len(legal))]["id"],
        max_moves=2000,
    )
    assert game.final.status == MatchStatus.FINISHED
    assert game.last[0]["result"]["winners"] == game.final.result["winners"]
    engine = get_game("kungfu2013")

    def no_hidden_card(frame: dict, state: dict, seat: int | None) -> None:
        # The other hand's cards never appear in this seat's frame, outside the
        # events' public parts: a card paid or discarded face up in this step
        # may be reshuffled and drawn by the opponent in the same step, and the
        # public parts are held to the engine's events (whose secrecy the rule
        # property tests check) by assert_frames_are_each_seats_view.
        visible = {key: value for key, value in frame.items() if key != "events"}
        visible["private"] = [ev["private"] for ev in frame.get("events") or []]
        text = json.dumps(visible)
        own = json.dumps(engine.observe(state, seat))
        for other in (0, 1):
            if other == seat:
                continue
            for card in engine.observe(state, other)["hand"]:
                if card["code"] not in own:
                    assert f'"code": "{card["code"]}"' not in text

    await assert_frames_are_each_seats_view(game, engine, no_hidden_card)
