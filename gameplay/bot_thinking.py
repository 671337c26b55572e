"""Built-in bots' thinking, apart from the database: one decision, or a batch.

A built-in bot's decision is pure: the seat's view (``decision_context``) of
one state and a seed in, an action id out. :class:`BuiltinAsk` carries exactly
that (JSON-like, picklable), so the hosts can think where they like:

- live tables think each seat of a simultaneous choice in its own Celery task
  (``gameplay.tasks.play_builtin_seat``), so the worker's processes think in
  parallel and each commit goes in when it is ready;
- the bot runner, which plays a whole match in one task, gives a batch of asks
  to :class:`ParallelThinker`, a pool of worker processes (ISMCTS is CPU-bound
  Python: threads would take turns on the GIL);
- everything else thinks in turn in its own process (:func:`think_in_turn`).

Wherever it is thought, an ask gives the same answer (the bots draw all their
randomness from the seed), so a match does not depend on where its bots ran.
No Django here: a forked pool worker never touches the database.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from gameplay.rules import get_game

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BuiltinAsk:
    """One built-in seat's decision: the state it is asked on, its bot, its seed.

    ``kind`` is how the move is logged (a move, or a takeover bot's move).
    """

    game: str
    state: dict[str, Any]
    seat: int
    bot: str
    seed: int
    kind: str = "move"


def builtin_seed(match_seed: int, version: int, seat: int) -> int:
    """The seed of a built-in decision at ``version``: per seat and version, so
    seats asked together on one state still draw different randomness, and a
    match of built-in bots is the same match wherever (and in whatever order)
    its seats think."""
    return match_seed ^ (version * 7919 + seat)


def builtin_think(ask: BuiltinAsk) -> str:
    """One decision, from the seat's view only (the bot never sees the state)."""
    from gameplay.rules.bots import decision_context, get_bot

    ctx = decision_context(get_game(ask.game), ask.state, ask.seat, ask.seed)
    return get_bot(ask.bot).choose(ctx)


#: How a host thinks a batch of asks (all on one state): answers in ask order.
Thinker = Callable[[list[BuiltinAsk]], list[str]]


def think_in_turn(asks: list[BuiltinAsk]) -> list[str]:
    """The batch in this process, one ask after another."""
    return [builtin_think(ask) for ask in asks]


def worth_parallel(asks: list[BuiltinAsk]) -> bool:
    """Several asks, one of them for a bot that thinks long (``bot_thinks_long``).

    Random and heuristic bots decide in microseconds: handing them to another
    process (pickling the state, a round trip through a pipe) costs more than
    the decision itself.
    """
    from gameplay.rules.bots import bot_thinks_long

    return len(asks) > 1 and any(bot_thinks_long(ask.bot) for ask in asks)


@contextlib.contextmanager
def _may_fork() -> Iterator[None]:
    """Let this process start the pool's workers although it is daemonic.

    A Celery prefork worker's processes are daemonic, and multiprocessing
    refuses children to those (they could outlive a killed parent). The
    pool's workers cannot: each dies with its parent (:func:`_die_with_parent`),
    and the pool is shut down at the end of the match.
    """
    # multiprocessing's private process config (typeshed leaves it out).
    config = multiprocessing.current_process()._config  # type: ignore[attr-defined]
    daemon = config.get("daemon")
    config["daemon"] = False
    try:
        yield
    finally:
        if daemon is None:
            config.pop("daemon", None)
        else:
            config["daemon"] = daemon


def _die_with_parent() -> None:
    """In a pool worker: be killed when the process that forked it dies (Linux
    ``PR_SET_PDEATHSIG``), so a worker process killed at its time limit
    leaves no thinker behind."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


#: Modules whose after-fork hooks a pool worker skips (see ``_ThinkerProcess``).
_SKIPPED_AFTER_FORK = ("kombu", "celery", "redis", "django")


class _ThinkerProcess(multiprocessing.context.ForkProcess):
    """A forked pool worker that does not run the broker clients' after-fork
    hooks.

    kombu registers one that closes every pooled connection in the child; for
    a connection left waiting on a BRPOP (a consumer used earlier in this
    process, as a test's worker leaves it), closing reads from the socket the
    parent still owns, and the child blocks there for ever: the pool never
    starts and the match hangs. A worker here runs engine and bot code only,
    never Celery, Redis or the database, and leaves with ``os._exit``, so the
    inherited connections are never touched; every other hook
    (multiprocessing's own queues and locks) runs as usual.
    """

    @staticmethod
    def _after_fork() -> None:
        from multiprocessing import util

        # multiprocessing's private registries (typeshed leaves them out).
        util._finalizer_registry.clear()  # type: ignore[attr-defined]
        registry = util._afterfork_registry  # type: ignore[attr-defined]
        for (_index, _ident, func), obj in sorted(registry.items()):
            module = getattr(func, "__module__", "") or ""
            if module.split(".", 1)[0] in _SKIPPED_AFTER_FORK:
                continue
            try:
                func(obj)
            except Exception as exc:  # as multiprocessing does: logged, not fatal
                util.info("after forker raised exception %s", exc)


class _ThinkerContext(multiprocessing.context.ForkContext):
    Process = _ThinkerProcess


class ParallelThinker:
    """A pool of worker processes that thinks a batch of asks at once.

    Made once per match (the processes are forked on first use and reused for
    every batch), closed with :meth:`close`. A batch that does not pay
    (:func:`worth_parallel`) is thought in turn here; so is everything when
    this process may not fork (the pool cannot start), which is logged.
    """

    def __init__(self, *, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self._broken = False

    def __call__(self, asks: list[BuiltinAsk]) -> list[str]:
        if self.workers < 2 or not worth_parallel(asks):
            return think_in_turn(asks)
        if self._broken:
            return think_in_turn(asks)
        try:
            with _may_fork():
                if self._pool is None:
                    # fork: the workers start in milliseconds with every engine
                    # already imported; they run engine and bot code only.
                    self._pool = ProcessPoolExecutor(
                        max_workers=self.workers,
                        mp_context=_ThinkerContext(),
                        initializer=_die_with_parent,
                    )
                futures = [self._pool.submit(builtin_think, ask) for ask in asks]
            return [future.result() for future in futures]
        except (BrokenProcessPool, OSError, AssertionError) as exc:
            # A worker died or could not start (AssertionError: multiprocessing
            # refused a daemonic parent after all): the asks are pure, so
            # thinking them here gives the same answers (a bot's own error
            # comes back from here too, unchanged).
            logger.warning("built-in bots' process pool failed (%s); in turn", exc)
            self._broken = True
            self.close()
            return think_in_turn(asks)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
