"""Simultaneous play over WebSockets: a whole Kung Fu (2019) game by three people.

Every seat that has a choice sends it at once, at the version it saw (the
platform accepts a commit chosen while others committed), some take a hidden
commit back, and every frame each seat, a spectator and an anonymous watcher
received is exactly what the engine lets it know at that version.
"""

from __future__ import annotations

import asyncio
import json
import random
from unittest import mock

import pytest
from channels.db import database_sync_to_async

from gameplay import consumers, selectors
from gameplay.models import MatchStatus
from gameplay.rules import get_game, view_events
from tests.gameplay.live import (
    connect,
    db_events_at,
    db_match,
    db_start,
    db_state_at,
    receive,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]

ENGINE = get_game("kungfu2019")
SEATS = 3


async def _until_version(comm, version: int, frames: list) -> dict:
    """Frames up to the state frame of ``version``; acks and errors collected."""
    while True:
        frame = await receive(comm)
        frames.append(frame)
        if frame["type"] == "state" and frame["version"] >= version:
            return frame


async def _play(match, users, watcher) -> tuple[dict, dict[str, list], int]:
    rnd = random.Random(2019)
    seats = [await connect(match, user) for user in users]
    spectator = await connect(match, watcher)
    anonymous = await connect(match, None)
    everyone = {str(i): c for i, c in enumerate(seats)}
    everyone |= {"spec": spectator, "anon": anonymous}
    frames: dict[str, list] = {who: [] for who in everyone}
    current = {
        who: await _until_version(c, 0, frames[who]) for who, c in everyone.items()
    }
    retracts = 0
    rounds = 0
    while current["0"]["status"] == MatchStatus.ACTIVE:
        rounds += 1
        assert rounds < 3000, "the game did not end"
        version = current["0"]["version"]
        sent: dict[int, str] = {}
        for seat in range(SEATS):
            frame = current[str(seat)]
            assert frame["version"] == version
            if seat in frame["actors"]:
                assert frame["legal"], "a seat to act is offered its menu"
                sent[seat] = rnd.choice(frame["legal"])["id"]
            else:
                assert frame["legal"] == []
                if frame["retract"] and rnd.random() < 0.15:
                    sent[seat] = rnd.choice(frame["retract"])["id"]
        assert sent, "somebody is to act"
        # All at once, all at the version they saw: the second and third reach
        # the server after the first has already bumped the version.
        for seat, action in sent.items():
            await seats[seat].send_json_to(
                {"type": "act", "action": action, "version": version}
            )
        applied = version
        for seat, action in sent.items():
            while True:
                frame = await receive(seats[seat])
                frames[str(seat)].append(frame)
                if frame["type"] in ("ack", "error"):
                    break
            if frame["type"] == "ack":
                applied = max(applied, frame["version"])
                retracts += action.startswith(("un", "reopen"))
            else:
                # Only a take-back may be refused: the last commit of the
                # others came first and revealed everything.
                assert action.startswith(("un", "reopen")), (action, frame)
        assert applied > version
        for who, comm in everyone.items():
            last = current[who]
            while last["version"] < applied:
                last = await _until_version(comm, applied, frames[who])
            current[who] = last
    for comm in everyone.values():
        await comm.disconnect()
    return current, frames, retracts


async def test_three_people_play_kungfu2019_at_once_and_see_only_their_view(
    players,
):
    match = await db_start(players[:SEATS], game="kungfu2019", config={"players": 3})
    with mock.patch.multiple(consumers, RATE_PER_SECOND=1e9, RATE_BURST=1e9):
        current, frames, retracts = await _play(match, players[:SEATS], players[5])
    final = await db_match(match.pk)
    assert final.status == MatchStatus.FINISHED
    assert current["spec"]["result"]["winners"] == final.result["winners"]
    assert retracts > 0, "some commits were taken back and chosen again"
    simultaneous = 0
    for who, received in frames.items():
        seat = int(who) if who.isdigit() else None
        for frame in received:
            if frame["type"] != "state" or frame["status"] == MatchStatus.FINISHED:
                continue
            state = await db_state_at(final, frame["version"])
            assert frame["seat"] == seat
            assert frame["view"] == ENGINE.observe(state, seat)
            assert frame["actors"] == ENGINE.actors(state)
            simultaneous += len(frame["actors"]) > 1
            if frame["events"] is not None:
                events = await db_events_at(final, frame["version"])
                assert frame["events"] == view_events(events, seat)
            if seat is None:
                assert frame["legal"] == [] and frame["retract"] == []
                assert frame["view"]["hand"] is None
            else:
                assert frame["retract"] == ENGINE.retract_actions(state, seat)
            _no_hidden_choice(frame, state, seat)
    assert simultaneous > 0


def _no_hidden_choice(frame: dict, state: dict, seat: int | None) -> None:
    """No card another seat holds, keeps or has committed unrevealed, and no
    unfinished dice assignment of another seat, appears in this seat's frame."""
    text = json.dumps(frame)
    own = json.dumps(ENGINE.observe(state, seat))
    public = json.dumps(ENGINE.observe(state, None))
    for other in range(SEATS):
        if other == seat:
            continue
        view = ENGINE.observe(state, other)
        secret = set(view["hand"])
        if view["draft"]:
            secret |= set(view["draft"]["pack"])
            secret |= {view["draft"]["pick"]} - {None}
        if view["commits"]:
            secret |= set(view["commits"]["mine"])
        for code in secret:
            if f'"{code}"' not in own and f'"{code}"' not in public:
                assert f'"{code}"' not in text, (code, other, seat)
        mine = (view["fight"] or {}).get("mine")
        if mine and not mine["done"] and mine["sets"]:
            assert json.dumps(mine["sets"]) not in json.dumps(frame["view"]["fight"])


@database_sync_to_async
def _api(client_method, path):
    return client_method(path)


async def test_spectators_and_replays_show_commits_only_once_revealed(players):
    """Mid-game, with two of three seats committed: the public API frame, the
    match page and the replay endpoints show who committed, never what; after
    the end the replay's public and per-seat perspectives still hold each
    step's hidden commits back until their reveal."""
    from django.test import Client

    match = await db_start(players[:SEATS], game="kungfu2019", config={"players": 3})

    @database_sync_to_async
    def commit_two() -> list[str]:
        from gameplay import services

        picks = []
        for seat in (0, 1):
            m = type(match).objects.get(pk=match.pk)
            action = ENGINE.legal_action_ids(m.state, seat)[0]
            services.match_act(match_id=match.pk, user=players[seat], action_id=action)
            picks.append(action.removeprefix("pick:"))
        return picks

    picks = await commit_two()

    @database_sync_to_async
    def public_reads():
        client = Client()
        frame = client.get(f"/api/matches/{match.public_id}/").json()
        page = client.get(f"/matches/{match.public_id}/")
        replay = client.get(f"/api/matches/{match.public_id}/replay/")
        seat_replay = client.get(
            f"/api/matches/{match.public_id}/replay/?perspective=seat:0"
        )
        return frame, page, replay, seat_replay

    frame, page, replay, seat_replay = await public_reads()
    assert frame["view"]["draft"]["picked"] == [True, True, False]
    assert frame["view"]["draft"]["pick"] is None
    body = page.content.decode()
    for pick in picks:
        assert f'"{pick}"' not in json.dumps(frame)
        assert f"pick:{pick}" not in body
    assert replay.status_code in (403, 404, 409)
    assert seat_replay.status_code in (403, 404, 409)

    @database_sync_to_async
    def finish_and_replay():
        from gameplay import services

        for _ in range(2000):
            m = type(match).objects.get(pk=match.pk)
            if m.is_over:
                break
            seat = ENGINE.actors(m.state)[0]
            services.match_act(
                match_id=match.pk,
                user=players[seat],
                action_id=ENGINE.legal_action_ids(m.state, seat)[0],
            )
        m = type(match).objects.get(pk=match.pk)
        return (
            m,
            selectors.match_replay(match=m, perspective="spectator"),
            selectors.match_replay(match=m, perspective="seat:1"),
        )

    final, spectator, seat1 = await finish_and_replay()
    assert final.status == MatchStatus.FINISHED
    state = ENGINE.setup(final.config, final.seed)
    for public_step, seat_step in zip(
        spectator["steps"][1:], seat1["steps"][1:], strict=True
    ):
        state, events = ENGINE.apply(
            state, public_step["seat"], public_step["action_id"]
        )
        assert public_step["view"] == ENGINE.observe(state, None)
        assert public_step["events"] == view_events(events, None)
        assert seat_step["view"] == ENGINE.observe(state, 1)
        assert seat_step["events"] == view_events(events, 1)
        assert "hands" not in public_step and "hands" not in seat_step
        for event in public_step["events"]:
            assert event["private"] == {}
        if public_step["view"]["commits"]:
            assert public_step["view"]["commits"]["mine"] is None


async def test_bursts_of_commits_at_one_version_are_all_accepted(players):
    """The three seats' picks, all sent at version 0 before any answer, are all
    applied (versions 1-3) and the packs pass once; a second pick sent again at
    version 0 by a seat that already moved is refused as stale."""
    match = await db_start(players[:SEATS], game="kungfu2019", config={"players": 3})
    with mock.patch.multiple(consumers, RATE_PER_SECOND=1e9, RATE_BURST=1e9):
        seats = [await connect(match, user) for user in players[:SEATS]]
        frames: list = []
        first = [await _until_version(c, 0, frames) for c in seats]
        for comm, frame in zip(seats, first, strict=True):
            await comm.send_json_to(
                {"type": "act", "action": frame["legal"][0]["id"], "version": 0}
            )
        await asyncio.sleep(0)
        replies = []
        for comm in seats:
            while True:
                frame = await receive(comm)
                if frame["type"] in ("ack", "error"):
                    replies.append(frame)
                    break
        assert sorted(r.get("version") for r in replies) == [1, 2, 3]
        again = first[0]["legal"][1]["id"]
        await seats[0].send_json_to({"type": "act", "action": again, "version": 0})
        while True:
            frame = await receive(seats[0])
            if frame["type"] in ("ack", "error"):
                break
        assert frame["type"] == "error" and frame["code"] == "stale_version"
        for comm in seats:
            await comm.disconnect()
    final = await db_match(match.pk)
    assert final.version == 3
    assert ENGINE.observe(final.state, None)["draft"]["turn"] == 1
