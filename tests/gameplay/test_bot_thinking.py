"""Built-in decisions thought apart from the database: in turn, or in a pool.

The pool's proof of parallelism is a bot whose thought waits for the other
seat's thought (a barrier shared by the forked workers): thought one after
another, the first would wait alone and the barrier break.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.synchronize import Barrier

import pytest

from gameplay.bot_thinking import (
    BuiltinAsk,
    ParallelThinker,
    builtin_think,
    think_in_turn,
    worth_parallel,
)
from gameplay.rules import bots as rule_bots
from gameplay.rules import get_game
from gameplay.rules.bots.heuristic import HeuristicBot

ENGINE = get_game("kungfu2019")
#: Set before the pool forks, so its workers inherit it.
_BARRIER: Barrier | None = None


class MeetingBot:
    """Thinks long (by its class flag) and only with the other seat thinking."""

    name = "meeting"
    thinks_long = True

    def choose(self, ctx) -> str:
        assert _BARRIER is not None
        _BARRIER.wait()
        return ctx.legal_ids[-1]


class SlowHeuristic(HeuristicBot):
    """The heuristic, flagged as thinking long so that the pool takes it."""

    thinks_long = True


@pytest.fixture
def bots(monkeypatch):
    global _BARRIER
    _BARRIER = multiprocessing.get_context("fork").Barrier(2, timeout=20)
    monkeypatch.setitem(rule_bots._FACTORIES, "meeting", MeetingBot)
    monkeypatch.setitem(rule_bots._FACTORIES, "slow_heuristic", SlowHeuristic)
    yield
    _BARRIER = None


def _asks(bot: str, *, seed: int, players: int = 3) -> list[BuiltinAsk]:
    state = ENGINE.setup(ENGINE.validate_config({"players": players}), seed)
    return [
        BuiltinAsk(game="kungfu2019", state=state, seat=seat, bot=bot, seed=seat + 1)
        for seat in ENGINE.actors(state)
    ]


def test_the_pool_thinks_two_seats_at_the_same_time(bots) -> None:
    thinker = ParallelThinker(workers=2)
    try:
        asks = _asks("meeting", seed=3)[:2]
        answers = thinker(asks)
        assert thinker._pool is not None, "the batch went to the processes"
    finally:
        thinker.close()
    assert answers == [ENGINE.legal_action_ids(a.state, a.seat)[-1] for a in asks]


def test_the_pool_gives_the_answers_of_thinking_in_turn(bots) -> None:
    """Asks are pure: the processes answer exactly what this process would."""
    thinker = ParallelThinker(workers=2)
    try:
        for seed in range(4):
            asks = _asks("slow_heuristic", seed=seed, players=4)
            assert thinker(asks) == think_in_turn(asks)
    finally:
        thinker.close()


def test_a_batch_that_does_not_pay_stays_in_this_process() -> None:
    """Random and heuristic bots decide in microseconds: no process is started."""
    asks = _asks("heuristic", seed=1)
    assert not worth_parallel(asks) and not worth_parallel(_asks("ismcts", seed=1)[:1])
    assert worth_parallel(_asks("ismcts", seed=1))
    thinker = ParallelThinker(workers=2)
    assert thinker(asks) == [builtin_think(ask) for ask in asks]
    assert thinker._pool is None


class _BrokerClient:
    """Stands for a kombu connection pool left with a consumer waiting."""


def _hanging_broker_after_fork(obj) -> None:
    # kombu's real hook blocked for ever on the parent's socket (seen in a full
    # run after a test that consumed); dying at once fails the same way, fast.
    import os

    os._exit(3)


_hanging_broker_after_fork.__module__ = "kombu.resource"


def test_the_pool_starts_although_a_broker_client_has_an_after_fork_hook(bots):
    """The workers skip the broker clients' after-fork hooks (they never talk to
    the broker); without that, such a hook kills or blocks every worker."""
    from multiprocessing import util

    client = _BrokerClient()
    util.register_after_fork(client, _hanging_broker_after_fork)
    thinker = ParallelThinker(workers=2)
    try:
        asks = _asks("meeting", seed=3)[:2]
        answers = thinker(asks)
        assert thinker._pool is not None and not thinker._broken
    finally:
        thinker.close()
        del client
    assert answers == [ENGINE.legal_action_ids(a.state, a.seat)[-1] for a in asks]
