"""Kung Fu (2019), the dice game, through the platform: matches with several seats
choosing at once, frames that hide other seats' cards and dice, API, lobby,
challenges, quick play, built-in bots, replays, ladder and pages, with no
game-specific platform code."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.urls import reverse

from gameplay import frames, lobby, selectors, services
from gameplay.models import MatchStatus
from gameplay.rules import get_game
from gameplay.rules.kungfu2019.cards import NAME
from gameplay.rules.kungfu2019.engine import CODE
from gameplay.services import SeatSpec
from tests.gameplay.conftest import api_for, start_match

pytestmark = pytest.mark.django_db
GAME = "kungfu2019"
ENGINE = get_game(GAME)


def _hidden_from(state: dict, seat: int | None) -> set[str]:
    """Codes only other seats may know: their hands, packs, picks, commits; the deck."""
    out = {CODE[c] for c in state["deck"]}
    for other in range(state["n"]):
        if other != seat:
            for key in ("hands", "packs", "picks", "commit"):
                out.update(CODE[c] for c in state[key][other])
    return out


def _check_frames(match) -> None:
    """Every seat's frame and the spectator's name no card hidden from them."""
    state = match.state
    sent: list[tuple[int | None, dict[str, Any]]] = [
        (s, frames.seat_frame(match=match, seat=s)) for s in range(state["n"])
    ]
    sent.append((None, frames.spectator_frame(match=match)))
    for seat, frame in sent:
        text = json.dumps(frame)
        leaked = {c for c in _hidden_from(state, seat) if f'"{c}"' in text}
        assert not leaked, (seat, state["phase"], leaked)
        fight = frame["view"]["fight"]
        if fight is not None and seat is not None and seat in fight["fighters"]:
            assert fight["mine"]["role"] in ("atk", "def")


def play_random(match, users, seed: int = 1, max_steps: int = 3000, check=False):
    rnd = random.Random(seed)
    for step in range(max_steps):
        match.refresh_from_db()
        if match.is_over:
            return step
        if check and step % 7 == 0:
            _check_frames(match)
        actors = ENGINE.actors(match.state)
        seat = actors[rnd.randrange(len(actors))]
        ids = ENGINE.legal_action_ids(match.state, seat)
        aid = "auto" if "auto" in ids and rnd.random() < 0.5 else rnd.choice(ids)
        services.match_act(
            match_id=match.pk,
            user=users[seat],
            action_id=aid,
            expected_version=match.version,
        )
    raise AssertionError("match did not end")


def test_a_full_three_player_match_hides_what_it_must_and_replays(
    players, client
) -> None:
    users = players[:3]
    match = start_match(users, game=GAME, config={"players": 3})
    assert len(ENGINE.actors(match.state)) == 3  # everyone drafts at once
    play_random(match, users, check=True)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result is not None and match.result["winners"]
    full = selectors.match_replay(match=match, perspective="full")
    assert len(full["steps"]) == match.version + 1
    for seat in range(3):
        mine = selectors.match_replay(match=match, perspective=f"seat:{seat}")
        for step in mine["steps"]:
            assert step["view"]["seat"] == seat
            assert "hands" not in step
    client.force_login(users[0])
    page = client.get(reverse("gameplay:replay", args=[match.public_id]))
    assert page.status_code == 200
    assert "js/boards/kungfu2019.js" in page.content.decode()


def test_a_seat_may_take_back_its_commit_until_the_last_is_in(players) -> None:
    users = players[:2]
    match = start_match(users, game=GAME, config={"players": 2})
    pick = ENGINE.legal_action_ids(match.state, 0)[0]
    services.match_act(
        match_id=match.pk, user=users[0], action_id=pick, expected_version=0
    )
    match.refresh_from_db()
    frame = frames.seat_frame(match=match, seat=0)
    assert [a["id"] for a in frame["retract"]] == ["unpick"]
    assert frame["legal"] == []
    other = frames.seat_frame(match=match, seat=1)
    # Quoted: the bare code can turn up inside the frame's hex seed commitment.
    assert f'"{pick.split(":")[1]}"' not in json.dumps(other)
    services.match_act(
        match_id=match.pk, user=users[0], action_id="unpick", expected_version=1
    )
    match.refresh_from_db()
    assert 0 in ENGINE.actors(match.state)


def test_lobby_table_with_the_draft_option_and_refused_stacked_decks(players) -> None:
    table = lobby.table_create(
        host=players[0], game=GAME, players=3, options={"draft": False}
    )
    lobby.table_join(match_id=table.pk, user=players[1])
    lobby.table_join(match_id=table.pk, user=players[2])
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE
    assert table.state["phase"] == "play"  # the first-game deal: no draft
    with pytest.raises(Exception, match="deck"):
        lobby.table_create(
            host=players[3], game=GAME, players=3, options={"deck": ["c01"]}
        )
    with pytest.raises(Exception, match="5"):
        lobby.table_create(host=players[3], game=GAME, players=6)


def test_bots_fill_a_table_and_a_bot_only_match_plays_to_the_end(
    players, django_capture_on_commit_callbacks
) -> None:
    table = lobby.table_create(host=players[0], game=GAME, players=3)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="random")
        lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="heuristic")
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE
    # The bots chose their draft cards at once; only the person is left to pick.
    assert ENGINE.actors(table.state) == [0]
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(
            game=GAME,
            seats=[
                SeatSpec(agent="builtin:random"),
                SeatSpec(agent="builtin:heuristic"),
                SeatSpec(agent="builtin:random"),
            ],
            config={"players": 3},
        )
        services.match_start(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED, match.status


def test_pages_render_the_games_board_and_rules(client, players) -> None:
    match = start_match(players[:3], game=GAME, config={"players": 3})
    client.force_login(players[0])
    page = client.get(reverse("gameplay:match", args=[match.public_id]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "js/boards/kungfu2019.js" in html
    assert 'data-role="center"' in html
    assert "boards/kungfu2013" not in html
    rules = client.get(reverse("gameplay:rules", args=[GAME]))
    assert rules.status_code == 200
    text = rules.content.decode()
    for name in NAME.values():
        assert name.replace("'", "&#x27;") in text
    detail = client.get(reverse("gameplay:game_detail", args=[GAME]))
    assert detail.status_code == 200


def test_rated_match_feeds_the_games_own_ladder(
    players, django_capture_on_commit_callbacks
) -> None:
    users = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match(users, game=GAME, rated=True, config={"players": 2})
        play_random(match, users, seed=3)
    rankings = api_for(None).get(f"/api/rankings/?game={GAME}")
    assert rankings.status_code == 200, rankings.json()
    names = str(rankings.json())
    assert users[0].username in names and users[1].username in names
