"""Bots of a real-time game (Kung Fu (2009)) on the virtual clock.

The match player runs real-time matches tick by tick (gameplay/rules/ticks.py):
built-in seats are the same match as ``ticks.run`` gives, uploaded bots are
asked in the sandbox at every tick with the tick and their refused intents,
faults forfeit as in the other games, and the recorded steps replay exactly.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bots.localmatch import load_bot, staged_bots
from bots.protocol.match import (
    BuiltinAgent,
    LocalHost,
    MatchPlayer,
    ProcessAgent,
)
from bots.protocol.transport import TimeControl
from gameplay.rules import get_game, ticks
from gameplay.rules.bots import get_bot
from tests.bots.botsrc import realtime_crasher

GAME = "kungfu2009"
EXAMPLE = Path(__file__).resolve().parents[2] / "bots/examples/kungfu2009_collector.py"

CRASH_AT_TICK_3 = realtime_crasher(game=GAME, tick=3)

# Thinks far too long from tick 2 on.
SLOW_FROM_TICK_2 = b"""
import time
import kungfu_bot

GAME = "kungfu2009"

def choose(turn):
    if turn.tick >= 2:
        time.sleep(30)
    return kungfu_bot.PASS

kungfu_bot.run(choose)
"""

# Offers nothing but always accepts the first offer it may accept, and keeps
# what the match player tells it of its refused intents on stderr.
GRABBER = b"""
import kungfu_bot

GAME = "kungfu2009"

def choose(turn):
    for r in turn.refused:
        kungfu_bot.log("REFUSED", r["tick"], r["action"], r["code"], r["reason"])
    assert turn.tick is not None and turn.legal_ids[0] == kungfu_bot.PASS
    for a in turn.legal_ids:
        if a.startswith("accept:"):
            return a
    return kungfu_bot.PASS

kungfu_bot.run(choose)
"""


class RecordingHost(LocalHost):
    """A local match that keeps the steps it is asked to record."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.steps: list[tuple[int | None, str]] = []

    def record(self, seat, action_id):
        self.steps.append((seat, action_id))


def play(agents, *, seed, players, max_ticks=5_000):
    game = get_game(GAME)
    config = game.validate_config({"players": players})
    host = RecordingHost(game=game, players=players, match_seed=seed)
    player = MatchPlayer(
        game=game,
        state=game.setup(config, seed),
        agents=agents,
        host=host,
        config=config,
        match_seed=seed,
        max_ticks=max_ticks,
    )
    host.bind(player)
    outcome = player.play()
    return game, config, host, player, outcome


def replayed(game, config, seed, steps):
    state = game.setup(config, seed)
    for seat, action_id in steps:
        state, _ = game.apply(state, seat, action_id)
    return state


def test_builtin_seats_play_the_same_match_as_the_tick_driver():
    seed = random.randrange(1 << 40)
    players = random.choice([3, 4, 5])
    names = [random.choice(["heuristic", "random"]) for _ in range(players)]
    agents = {
        s: BuiltinAgent(names[s], seat=s, match_seed=seed) for s in range(players)
    }
    game, config, host, player, outcome = play(
        agents, seed=seed, players=players, max_ticks=600
    )
    reference = ticks.run(
        game,
        game.setup(config, seed),
        [get_bot(name) for name in names],
        seed,
        max_ticks=600,
    )
    assert host.steps == [(seat, aid) for _tick, seat, aid in reference.log]
    assert outcome.ticks == reference.ticks
    assert [r[:3] for r in outcome.refused] == [r[:3] for r in reference.refused]
    assert game.is_over(player.state)  # the engine's end, or the table's `end`
    assert replayed(game, config, seed, host.steps) == player.state
    assert outcome.result["placements"] == game.result(player.state)["placements"]
    assert "pass" not in {aid for _seat, aid in host.steps}


def test_the_table_ends_the_match_at_max_ticks():
    seed = random.randrange(1 << 40)
    agents = {s: BuiltinAgent("heuristic", seat=s, match_seed=seed) for s in range(4)}
    game, config, host, player, outcome = play(
        agents, seed=seed, players=4, max_ticks=5
    )
    assert outcome.ticks <= 5
    assert host.steps[-1] == (None, "end")
    assert game.result(player.state)["reason"] == "time"
    assert replayed(game, config, seed, host.steps) == player.state


@pytest.fixture
def staged():
    bots = {
        "example": load_bot(EXAMPLE, game=GAME),
        "crash": load_bot_bytes(CRASH_AT_TICK_3, "crash.py"),
        "grabber": load_bot_bytes(GRABBER, "grabber.py"),
        "slow": load_bot_bytes(SLOW_FROM_TICK_2, "slow.py"),
    }
    with staged_bots(bots) as dirs:
        yield dirs


def load_bot_bytes(data: bytes, name: str):
    from bots.uploads import inspect_upload

    return inspect_upload(filename=name, data=data, game=GAME)


def process(bot_dir, seat, *, per_move=2.0, bank=20.0):
    from bots import conf

    return ProcessAgent(
        bot_dir,
        seat=seat,
        label=f"seat {seat}",
        config=conf.sandbox_config(),
        time_control=TimeControl(startup=10.0, per_move=per_move, bank=bank),
    )


def trailing_table_steps(steps) -> int:
    """How many table steps end the log (the time-up ``check``s and ``end``)."""
    n = 0
    while n < len(steps) and steps[len(steps) - 1 - n][0] is None:
        n += 1
    return n


@pytest.mark.sandbox
def test_the_example_bot_plays_a_whole_match_in_the_sandbox(staged, settings):
    seed = random.randrange(1 << 40)
    players = 4
    mine = random.randrange(players)
    agents = {
        s: process(staged["example"], s)
        if s == mine
        else BuiltinAgent("heuristic", seat=s, match_seed=seed)
        for s in range(players)
    }
    game, config, host, player, outcome = play(
        agents, seed=seed, players=players, max_ticks=400
    )
    log = agents[mine].log
    assert not log.fault, (log.fault, log.fault_detail, log.stderr)
    assert game.is_over(player.state)
    # Asked at every tick but the table's (a claim checked; the table's steps
    # after the last tick, when time ran out during a claim, are no ticks):
    # far more decisions than in a turn game.
    during = host.steps[: len(host.steps) - trailing_table_steps(host.steps)]
    why = (seed, mine, outcome.ticks, log.decisions, host.steps[-3:])
    assert log.decisions <= outcome.ticks - during.count((None, "check")), why
    assert log.decisions > 50, why
    # It really played: its intents are among the recorded steps.
    assert any(seat == mine for seat, _ in host.steps)
    assert replayed(game, config, seed, host.steps) == player.state
    assert outcome.result["placements"][mine] in range(1, players + 1)


@pytest.mark.sandbox
def test_a_crash_forfeits_and_the_takeover_bot_plays_on(staged):
    seed = random.randrange(1 << 40)
    agents = {0: process(staged["crash"], 0)}
    agents |= {s: BuiltinAgent("heuristic", seat=s, match_seed=seed) for s in (1, 2, 3)}
    game, config, host, player, outcome = play(
        agents, seed=seed, players=4, max_ticks=300
    )
    assert outcome.faults == {0: "crash"}
    # Answered at ticks 0-2 (fewer if a claim paused the table), not at tick 3.
    assert 1 <= agents[0].log.decisions <= 3
    assert outcome.ticks > 3
    assert outcome.result["placements"][0] == 4 and outcome.result["forfeited"] == [0]
    assert game.is_over(player.state)
    # After the forfeit the takeover bot acts for seat 0 (the table goes on).
    assert replayed(game, config, seed, host.steps) == player.state


@pytest.mark.sandbox
def test_a_timeout_forfeits_like_in_the_other_games(staged):
    """Per-decision limit plus bank, as everywhere: over it, the seat forfeits
    with ``timeout`` and, with three players, the other two play on."""
    seed = random.randrange(1 << 40)
    agents = {
        0: BuiltinAgent("heuristic", seat=0, match_seed=seed),
        1: process(staged["slow"], 1, per_move=0.3, bank=0.3),
        2: BuiltinAgent("heuristic", seat=2, match_seed=seed),
    }
    game, config, host, player, outcome = play(
        agents, seed=seed, players=3, max_ticks=200
    )
    assert outcome.faults == {1: "timeout"}
    assert agents[1].log.fault == "timeout"
    assert outcome.result["placements"][1] == 3 and outcome.result["forfeited"] == [1]
    assert outcome.end_reason == "completed" and game.is_over(player.state)
    assert replayed(game, config, seed, host.steps) == player.state


class Scripted:
    """An in-process agent that plays a list of intents, then passes, and keeps
    what each ``act`` told it (tick, refused intents)."""

    def __init__(self, seat, script=()):
        from bots.protocol.seat_log import SeatLog

        self.log = SeatLog(seat=seat, agent="scripted")
        self.script = list(script)
        self.told: list[tuple[int, list]] = []

    def launch(self):
        return None

    def greet(self, hello):
        return None

    def decide(self, game, state, seat, events, version, *, tick=None, refused=None):
        self.told.append((tick, list(refused or [])))
        self.log.decisions += 1
        if not self.script:
            return "pass"
        step = self.script.pop(0)
        return step(game.observe(state, seat)) if callable(step) else step

    def finish(self, message):
        return None

    def close(self):
        return None


def gift_race(grabbers):
    """Seat 2 offers a gift to all (one card, nothing asked) at ticks 0-2; at
    tick 3 seats 0 and 1 both accept it, and the tick's order (3, 0, 1, 2)
    lets seat 0's accept through first."""
    seed = random.randrange(1 << 40)
    giver = Scripted(2, ["to:all", lambda obs: "give:" + obs["hand"][0], "send"])
    agents = {0: grabbers[0], 1: grabbers[1], 2: giver, 3: Scripted(3)}
    return seed, *play(agents, seed=seed, players=4, max_ticks=6)


def test_a_stale_intent_is_refused_recorded_and_told():
    accept = lambda obs: "accept:1"  # noqa: E731
    grabbers = [
        Scripted(0, ["pass"] * 3 + [accept]),
        Scripted(1, ["pass"] * 3 + [accept]),
    ]
    seed, game, config, host, player, outcome = gift_race(grabbers)
    assert (0, "accept:1") in host.steps and (1, "accept:1") not in host.steps
    [(tick, seat, action_id, reason)] = outcome.refused
    assert (tick, seat, action_id) == (3, 1, "accept:1")
    assert "offer 1 is not open (accepted by seat 0)" in reason
    assert grabbers[1].log.refused == [
        (3, "accept:1", reason, "offer_accepted", {"offer": 1, "player": 0})
    ]
    assert grabbers[1].log.refused_count == 1
    # Seat 1 hears of it at its next act (tick 4), and only then: the engine's
    # code and params for its program, the English detail for its log.
    told = {tick: refused for tick, refused in grabbers[1].told}
    assert told[4] == [
        {
            "tick": 3,
            "action": "accept:1",
            "code": "offer_accepted",
            "params": {"offer": 1, "player": 0},
            "reason": reason,
        }
    ]
    assert all(not r for t, r in told.items() if t != 4)
    # The refusal changed nothing: the steps alone rebuild the final state.
    assert replayed(game, config, seed, host.steps) == player.state
    assert host.steps[-1] == (None, "end")


@pytest.mark.sandbox
def test_an_uploaded_bot_is_told_the_tick_and_its_refused_intents(staged):
    grabbers = [process(staged["grabber"], 0), process(staged["grabber"], 1)]
    seed, game, config, host, player, outcome = gift_race(grabbers)
    for agent in grabbers:
        assert not agent.log.fault, (agent.log.fault_detail, agent.log.stderr)
        assert agent.log.decisions == 6  # ticks 0-5
    [(tick, seat, action_id, reason)] = outcome.refused
    assert (tick, seat, action_id) == (3, 1, "accept:1")
    assert f"REFUSED 3 accept:1 offer_accepted {reason}" in grabbers[1].log.stderr
    assert "REFUSED" not in grabbers[0].log.stderr
    assert replayed(game, config, seed, host.steps) == player.state


def test_time_up_during_a_claim_checks_it_then_ends():
    """A match whose ticks run out while a claim is on the table still ends:
    the table checks the claim first, then ends the match (both drivers)."""
    game = get_game(GAME)
    config = game.validate_config({"players": 4})
    start = random.randrange(1 << 30)
    for seed in range(start, start + 300):
        # The first claim of the match: stop the clock right after it.
        full = ticks.run(
            game,
            game.setup(config, seed),
            [get_bot("heuristic") for _ in range(4)],
            seed,
            max_ticks=60,
        )
        claims = [t for t, s, a in full.log if s is not None and a.startswith("claim")]
        if claims:
            limit = claims[0] + 1
            break
    else:
        pytest.fail("no claim in 300 seeded matches of 60 ticks")
    reference = ticks.run(
        game,
        game.setup(config, seed),
        [get_bot("heuristic") for _ in range(4)],
        seed,
        max_ticks=limit,
    )
    assert game.is_over(reference.state)
    assert [a for _t, s, a in reference.log if s is None][-2:] == ["check", "end"]
    agents = {s: BuiltinAgent("heuristic", seat=s, match_seed=seed) for s in range(4)}
    game, config, host, player, _outcome = play(
        agents, seed=seed, players=4, max_ticks=limit
    )
    assert host.steps == [(s, a) for _t, s, a in reference.log]
    assert game.is_over(player.state)


def example_in_process():
    """The example bot's ``choose`` with the SDK's own Turn, run in-process."""
    import sys
    import types

    sdk = types.ModuleType("kungfu_bot")
    sdk_path = EXAMPLE.parents[1] / "sdk/kungfu_bot.py"
    exec(compile(sdk_path.read_text(), str(sdk_path), "exec"), sdk.__dict__)
    sdk.run = lambda choose, **_: None
    saved = sys.modules.get("kungfu_bot")
    sys.modules["kungfu_bot"] = sdk
    try:
        space: dict = {}
        exec(compile(EXAMPLE.read_text(), str(EXAMPLE), "exec"), space)
    finally:
        if saved is None:
            sys.modules.pop("kungfu_bot", None)
        else:
            sys.modules["kungfu_bot"] = saved

    class Example:
        name = "example"

        def choose(self, ctx):
            raw = {
                "step": 1,
                "observation": ctx.observation,
                "events": [],
                "legal": ctx.legal_actions,
                "deadline_ms": 1000,
                "tick": 0,
            }
            return space["choose"](sdk.Turn(raw))

    return Example()


def test_the_example_does_not_stall_the_table():
    """With the planners it finishes matches by the engine's end (a pile
    completed), not by the tick limit: it joins impasse votes, without which
    a table where nobody can give what the others need trades in circles."""
    game = get_game(GAME)
    example = example_in_process()
    start = random.randrange(1 << 30)
    ended = 0
    for seed in range(start, start + 10):
        players = 4 + seed % 3
        bots = [example] + [get_bot("heuristic") for _ in range(players - 1)]
        config = game.validate_config({"players": players})
        match = ticks.run(game, game.setup(config, seed), bots, seed, max_ticks=5_000)
        ended += game.result(match.state)["reason"] != "time"
    assert ended >= 8
