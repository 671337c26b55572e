"""People's names and card names where the engine says "seat 1" and "r12".

An engine knows seats by number and cards by code. The page showed its
reasons as they came ("offer 12 is not open (declined by seat 1)") and the
Kung Fu (2013) replay labelled steps with codes ("pays with r12").
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from gameplay import services
from gameplay.models import MatchAction
from gameplay.rules import get_game
from gameplay.rules.kungfu2013.catalogue import card_entries
from gameplay.services import SeatSpec
from tests.e2e.a11y import assert_accessible_in_both_schemes


def _match(arena, game: str, users, seed: int):
    match = arena.server_side(
        services.match_create, game=game, seats=[SeatSpec(user=u) for u in users]
    )
    return arena.server_side(services.match_start, match_id=match.pk, seed=seed)


def _play_using_effects(match, users) -> None:
    """To the end: each seat activates every effect it may (so coins are
    paid), otherwise plays its first legal action."""
    engine = get_game(match.game)
    while True:
        match.refresh_from_db()
        if match.is_over:
            return
        seat = engine.actors(match.state)[0]
        ids = engine.legal_action_ids(match.state, seat)
        action = "effect:use" if "effect:use" in ids else ids[0]
        services.match_act(
            match_id=match.pk,
            user=users[seat],
            action_id=action,
            expected_version=match.version,
        )


def test_an_engine_refusal_names_the_people(arena):
    me = arena.player()
    rival = arena.create_user(display_name=arena.unique("Rival"))
    match = _match(arena, "duelo", [me.user, rival], 1)
    sockets = []

    def through(ws):
        ws.connect_to_server()  # frames pass both ways unchanged
        sockets.append(ws)

    me.page.route_web_socket(re.compile(r"/ws/match/"), through)
    me.page.goto(f"/matches/{match.public_id}/")
    expect(me.page.locator("[data-role='connection']")).to_contain_text("Connected")
    # The server's own wording of an engine refusal, as an error frame.
    sockets[0].send(
        json.dumps(
            {
                "type": "error",
                "code": "illegal_action",
                "message": "offer 12 is not open (declined by seat 1); "
                "offer 3 is not addressed to seat 0",
                "request_id": None,
            }
        )
    )
    error = me.page.locator("[data-role='error']")
    expect(error).to_be_visible()
    expect(error).to_contain_text(
        f"offer 12 is not open (declined by {rival.display_name}); "
        "offer 3 is not addressed to you"
    )
    expect(error).not_to_contain_text("seat 1")
    assert_accessible_in_both_schemes(me.page, "the table's error banner")


def test_the_kungfu2013_replay_names_the_cards_paid_with(arena):
    me = arena.player()
    rival = arena.create_user()
    match = _match(arena, "kungfu2013", [me.user, rival], 1)
    arena.server_side(_play_using_effects, match, [me.user, rival])
    pay = (
        MatchAction.objects.filter(match=match, action_id__startswith="pay:")
        .order_by("version")
        .first()
    )
    assert pay is not None, "seed 1 played this way pays coins (step 41)"
    code = pay.action_id.split(":")[1]
    name = next(card["name"] for card in card_entries() if card["code"] == code)
    me.page.goto(
        f"/matches/{match.public_id}/replay/#perspective=full&step={pay.version}"
    )
    label = me.page.locator("[data-role='step-label']")
    expect(label).to_contain_text(f"pays with {name} (")
    # As a word: a unique username ("user1233x31") may hold the letters.
    expect(label).not_to_contain_text(re.compile(rf"\b{re.escape(code)}\b"))
