"""Simultaneous play: a clock per seat to act, and bots asked in parallel."""

from __future__ import annotations

import itertools
import json
import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from bots.protocol.match import Agent, LocalHost, MatchPlayer
from bots.protocol.seat_log import SeatLog
from gameplay import frames, services
from gameplay.models import ActionKind, Match, MatchStatus
from gameplay.rules import get_game
from gameplay.services import SeatSpec, bot_turns
from tests.gameplay.conftest import start_match

pytestmark = pytest.mark.django_db

ENGINE = get_game("kungfu2019")


def _pick(match: Match, seat: int, user, index: int = 0) -> str:
    match.refresh_from_db()
    action = ENGINE.legal_action_ids(match.state, seat)[index]
    services.match_act(match_id=match.pk, user=user, action_id=action)
    return action


def test_each_seat_to_act_has_its_own_clock_and_only_expired_ones_default(
    players,
) -> None:
    """Three seats pick at once with 30 s a decision. Seat 0 picks after 25 s,
    seat 2 picks and takes it back: their clocks restart, seat 1's keeps
    running from the start. At 31 s only seat 1 gets its default, logged as a
    timeout; seats 0 and 2 are unaffected and seat 2 still has to choose."""
    match = start_match(
        players[:3],
        game="kungfu2019",
        config={"players": 3},
        time_control={"per_move": 30},
    )
    started = timezone.now() - timedelta(seconds=25)
    Match.objects.filter(pk=match.pk).update(turn_started_at=started)
    _pick(match, 0, players[0])
    _pick(match, 2, players[2])
    match.refresh_from_db()
    services.match_act(match_id=match.pk, user=players[2], action_id="unpick")
    match.refresh_from_db()
    assert ENGINE.actors(match.state) == [1, 2]
    seats = {s["number"]: s for s in frames.seats_public(match=match)}
    assert seats[0]["deadline"] is None  # picked: no clock runs
    assert seats[1]["deadline"] == (started + timedelta(seconds=30)).isoformat()
    assert seats[2]["deadline"] > seats[1]["deadline"]
    expected = ENGINE.timeout_action(match.state, 1)
    done = services.match_expire_clocks(
        match_id=match.pk, now=started + timedelta(seconds=31)
    )
    assert done == [f"seat 1: timeout, played {expected}"]
    match.refresh_from_db()
    assert ENGINE.actors(match.state) == [2]
    last = match.actions.order_by("-version").first()
    assert last is not None
    assert (last.seat, last.action_id, last.kind) == (1, expected, ActionKind.TIMEOUT)


def test_every_expired_seat_gets_its_default_in_one_check(players) -> None:
    """Nobody picks in time (an absent player's clock runs like anyone's): one
    check commits every seat's default, the last one reveals and the packs
    pass, and every seat's next decision has a fresh clock."""
    match = start_match(
        players[:3],
        game="kungfu2019",
        config={"players": 3},
        time_control={"per_move": 30},
    )
    defaults = [ENGINE.timeout_action(match.state, s) for s in range(3)]
    assert match.turn_started_at is not None
    done = services.match_expire_clocks(
        match_id=match.pk, now=match.turn_started_at + timedelta(seconds=31)
    )
    assert done == [f"seat {s}: timeout, played {defaults[s]}" for s in range(3)]
    match.refresh_from_db()
    assert match.version == 3
    assert ENGINE.observe(match.state, None)["draft"]["turn"] == 1
    assert ENGINE.actors(match.state) == [0, 1, 2]
    assert all(s.acting_since is None for s in match.seats.all())


def test_total_clocks_are_charged_per_seat_while_others_commit(players) -> None:
    """A total clock is charged with the seat's own decision time: seat 1,
    choosing since the deal, pays 20 s although seat 0 moved in between."""
    match = start_match(
        players[:3],
        game="kungfu2019",
        config={"players": 3},
        time_control={"total": 600},
    )
    started = timezone.now() - timedelta(seconds=20)
    Match.objects.filter(pk=match.pk).update(turn_started_at=started)
    _pick(match, 0, players[0])
    _pick(match, 1, players[1])
    clocks = {s.number: s.clock_ms for s in match.seats.all()}
    first, second = clocks[0], clocks[1]
    assert first is not None and 579_000 <= first <= 580_500
    assert second is not None and 579_000 <= second <= 580_500
    assert clocks[2] == 600_000


def test_builtin_bots_are_asked_in_parallel_and_finish_the_match(
    players, monkeypatch
) -> None:
    """A bot-only Kung Fu (2019) match runs to its end; whenever several bot
    seats must act, every one of them is asked on the same state (same
    version) before any answer is applied."""
    versions: list[tuple[int, list[int]]] = []
    real_many = services.match_system_act_many

    def many(*, match_id, moves, expected_version):
        versions.append((expected_version, [m.seat for m in moves]))
        return real_many(
            match_id=match_id, moves=moves, expected_version=expected_version
        )

    monkeypatch.setattr(bot_turns, "match_system_act_many", many)
    match = services.match_create(
        game="kungfu2019",
        seats=[SeatSpec(agent="builtin:random") for _ in range(3)],
        config={"players": 3},
    )
    services.match_start(match_id=match.pk)
    for _ in range(20):  # what the queued bot task does, batch after batch
        if not services.match_play_builtin_bots(match_id=match.pk):
            break
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result is not None
    assert match.result["engine"]["reason"] in ("rounds", "last_standing")
    # The first ask: all three draft picks at version 0, in one batch.
    assert versions[0] == (0, [0, 1, 2])
    assert sum(len(seats) > 1 for _, seats in versions) > 10
    # Every batch was applied whole: versions advance by the batch's size.
    for (v, seats), (w, _) in itertools.pairwise(versions):
        assert w == v + len(seats)
    assert match.version == sum(len(seats) for _, seats in versions)


class _BarrierAgent:
    """A bot that, asked together with the others, waits for all of them: if
    the seats were asked one after another the barrier would break."""

    def __init__(self, barrier: threading.Barrier, log: list, seat: int) -> None:
        self.barrier = barrier
        self.log = SeatLog(seat=seat, agent="barrier")
        self.asked = log

    def launch(self) -> None:
        return None

    def greet(self, hello) -> None:
        return None

    def decide(
        self, game, state, seat, events, version, *, tick=None, refused=None
    ) -> str:
        actors = game.actors(state)
        self.asked.append((version, seat, tuple(actors)))
        if len(actors) == 3:
            self.barrier.wait()
        return game.legal_action_ids(state, seat)[0]

    def finish(self, message) -> None:
        return None

    def close(self) -> None:
        return None


def test_match_player_asks_every_bot_to_act_at_once() -> None:
    """The match player (uploaded bots' runner, ``botmatch``) asks all seats
    of a simultaneous choice at the same time: three agents that each wait for
    the other two before answering finish a whole game."""
    barrier = threading.Barrier(3, timeout=10)
    log: list = []
    agents: dict[int, Agent] = {
        seat: _BarrierAgent(barrier, log, seat) for seat in range(3)
    }
    config = ENGINE.validate_config({"players": 3})
    host = LocalHost(game=ENGINE, players=3, match_seed=1)
    player = MatchPlayer(
        game=ENGINE,
        state=ENGINE.setup(config, 1),
        agents=agents,
        host=host,
        config=config,
    )
    host.bind(player)
    outcome = player.play()
    assert ENGINE.is_over(player.state)
    assert outcome.faults == {}
    first = [entry for entry in log if entry[0] == 0]
    assert sorted(seat for _, seat, _ in first) == [0, 1, 2]


def test_the_clock_sweep_finds_a_seat_still_choosing_while_others_moved(
    players,
) -> None:
    """Beat's safety net looks at each seat's own start: seat 0 has just
    picked (the match changed a moment ago), seats 1 and 2 have been choosing
    for 40 s with a 30 s limit, and the sweep commits their defaults."""
    from gameplay import tasks

    match = start_match(
        players[:3],
        game="kungfu2019",
        config={"players": 3},
        time_control={"per_move": 30},
    )
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=40)
    )
    _pick(match, 0, players[0])
    assert tasks.sweep_expired_clocks() == 1
    match.refresh_from_db()
    kinds = list(match.actions.order_by("version").values_list("seat", "kind"))
    assert kinds == [
        (0, ActionKind.MOVE),
        (1, ActionKind.TIMEOUT),
        (2, ActionKind.TIMEOUT),
    ]


def test_the_api_move_path_takes_simultaneous_commits_and_take_backs(
    players,
) -> None:
    """Over HTTP: two seats pick at version 0 (the second after the first
    moved the match to 1), the first sees its take-back in its frame and uses
    it although it is not to act, the third seat's frame shows none of it, and
    a second pick by a seat that already moved at version 0 is stale."""
    from rest_framework.test import APIClient

    def api(user) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    match = start_match(players[:3], game="kungfu2019", config={"players": 3})
    url = f"/api/matches/{match.public_id}/act/"
    picks = [ENGINE.legal_action_ids(match.state, s)[0] for s in range(3)]
    assert api(players[0]).post(url, {"action": picks[0], "version": 0}).json() == {
        "version": 1,
        "finished": False,
    }
    second = api(players[1]).post(url, {"action": picks[1], "version": 0})
    assert second.status_code == 200 and second.json()["version"] == 2
    again = api(players[1]).post(url, {"action": "unpick", "version": 0})
    assert again.status_code == 409 and again.json()["code"] == "stale_version"
    frame = api(players[0]).get(f"/api/matches/{match.public_id}/").json()
    assert frame["actors"] == [2] and frame["legal"] == []
    assert [a["id"] for a in frame["retract"]] == ["unpick"]
    other = api(players[2]).get(f"/api/matches/{match.public_id}/").json()
    # Seat 2's own pack is another one: seat 0's kept card is nowhere in its frame.
    assert other["retract"] == []
    assert f'"{picks[0].removeprefix("pick:")}"' not in json.dumps(other)
    back = api(players[0]).post(url, {"action": "unpick", "version": 2})
    assert back.status_code == 200 and back.json()["version"] == 3
    match.refresh_from_db()
    assert ENGINE.actors(match.state) == [0, 2]
