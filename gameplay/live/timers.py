"""Server timers fired by the live owner (``gameplay.live.owner``).

The owner of a fast-path match fires its server timers itself (an offer
declined after 20 s, a draft dropped, a claim checked after 2 s), on its
event loop at the due time, against its copy, committed by the same
compare-and-set as a move (``store.append``), its frames built
from memory, and no worker check is armed: when the owner lets the match go
(its last socket closed) or a firing fails, the due time is handed to the
worker's check (``hand_over``); when the process dies, beat's sweep
(``tasks.sweep_timers``, every 5 s) finds the committed timers due. Left
to the worker alone, each timer step took the match's row lock for a whole
ORM transaction, made the owner's next move fail its compare-and-set and
read the match again, and was broadcast from another process; and arming
its check at each new earliest due time cost the owner two Redis round
trips and the worker a task: on a busy real-time table that was the
larger part of the slow round trips.

Moves and firings share the copies of ``copies``; the owner imports this
module and this module never imports the owner.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.utils import timezone

from gameplay import agents, broadcast, clocks, moverule, selectors, services
from gameplay.live import copies, store
from gameplay.live.copies import Applied, LiveMatch
from gameplay.models import ActionKind, MatchStatus
from gameplay.rules import get_game

logger = logging.getLogger(__name__)

# Rearming the loop's handle costs nothing; firing a hair after the due time
# keeps the engine's "due by now" test true on the first try.
FIRE_LATE_S = 0.005
_firing: set[asyncio.Task] = set()


def cancel_fire(live: LiveMatch) -> None:
    if live.fire_handle is not None:
        live.fire_handle.cancel()
    live.fire_handle = live.fire_due = None


def hand_over(live: LiveMatch) -> None:
    """This process lets the match go: the firing it had scheduled becomes
    the worker's check."""
    due = live.fire_due
    cancel_fire(live)
    if due is not None:
        copies.arm_soon(live, due)


def fire_at(live: LiveMatch, due: Any) -> None:
    """Fire ``live``'s timers at ``due`` from this loop (one handle per
    match: a new earliest due time replaces the old)."""
    if due == live.fire_due and live.fire_handle is not None:
        return
    cancel_fire(live)
    loop = asyncio.get_running_loop()
    delay = max(0.0, (due - timezone.now()).total_seconds()) + FIRE_LATE_S
    live.fire_due = due
    live.fire_handle = loop.call_later(delay, _fire_soon, live)


def _fire_soon(live: LiveMatch) -> None:
    due = live.fire_due
    live.fire_handle = live.fire_due = None
    if copies.matches.get(live.pk) is not live:
        return  # let go meanwhile: handed to the worker's check
    task = asyncio.ensure_future(fire_timers(live, due))
    _firing.add(task)
    task.add_done_callback(_firing.discard)


async def fire_timers(live: LiveMatch, due: Any = None) -> int:
    """Apply ``live``'s due timers (``apply_due``) and broadcast them;
    the number of steps applied. Never raises: a firing that failed hands
    ``due`` (the due time it was for) to the worker's check."""
    try:
        async with live.lock:
            loop = asyncio.get_running_loop()
            if copies.threads() <= 0:
                applied = await _timers_single_thread(live)
            else:
                applied = await loop.run_in_executor(
                    copies.executor(), _timers_run, live
                )
            if applied.messages:
                await broadcast.send_messages(applied.messages, wait=False)
    except Exception:
        logger.warning("firing the timers of match %s failed", live.pk, exc_info=True)
        if due is not None:
            copies.arm_soon(live, due)
        return 0
    if applied.arm is not None:
        fire_at(live, applied.arm)
    return applied.version


def _timers_run(live: LiveMatch) -> Applied:
    return copies.guarded(live, apply_due, live)


def apply_due(live: LiveMatch) -> Applied:
    """The due timer steps of the copy, applied and committed in one round
    trip (the rule of ``services.match_apply_timers``: one at a time in
    order of due time, each re-checked against the state the one before
    left; the broadcast carries the last one's events). ``version`` of the
    result: the steps applied. A step that would end the match, or a match
    off the fast path, is left to ``services.match_apply_timers`` (the
    locked check: finishing, ratings, bots), run here."""
    for _attempt in range(copies.MAX_ATTEMPTS):
        match = live.match if live.match is not None else copies.read(live)
        if match.status != MatchStatus.ACTIVE or not match.timers:
            return Applied(version=0, messages=[])
        engine = get_game(match.game)
        if copies.needs_full_path(match, engine) or agents.played_by_bots_runner(
            list(selectors.seats_of(match))
        ):
            return _timers_by_service(live)
        now = timezone.now()
        state, timers = match.state, match.timers
        steps: list[store.Logged] = []
        snapshots: dict[int, dict[str, Any]] = {}
        version = match.version
        for _ in range(clocks.MAX_TIMER_STEPS):
            found = clocks.first_due_timer(
                engine=engine, state=state, timers=timers, now=now
            )
            if found is None:
                break
            _key, timer = found
            step = moverule.advance(
                engine=engine,
                state=state,
                version=version,
                seat=timer["seat"],
                action_id=timer["action"],
            )
            if isinstance(step, moverule.Refusal) or not step.changed or step.over:
                return _timers_by_service(live)  # not for the copy to judge
            kind = ActionKind.TABLE if step.seat is None else ActionKind.TIMEOUT
            steps.append(store.Logged(step.seat, step.action_id, kind, step.events))
            version = step.version
            if step.snapshot:
                snapshots[version] = step.state
            state = step.state
            timers = clocks.timers_after(
                engine=engine, state=state, old=timers, now=now
            )
        if not steps:
            # Nothing due (the copy was read again meanwhile, and another
            # writer moved the timers): fire again at the earliest due time.
            return Applied(
                version=0, messages=[], arm=clocks.next_timer_due(match=match)
            )
        written = store.append(
            match_id=match.pk,
            from_version=match.version,
            steps=steps,
            state=state,
            timers=timers,
            now=now,
            snapshots=snapshots,
        )
        if not written:
            live.match = None  # someone else wrote first: decide again
            continue
        match.state, match.timers = state, timers
        match.version += len(steps)
        match.turn_started_at = now
        live.timer_steps += len(steps)
        arm = copies.after_step(live, match)
        last = steps[-1]
        try:
            messages = broadcast.match_messages(
                match=match,
                events=last.events,
                step={"kind": str(last.kind), "seat": last.seat},
            )
        except Exception:  # committed: the clients resync from the beat
            logger.exception("broadcast of match %s timers failed", match.pk)
            live.match = None
            messages = []
        return Applied(version=len(steps), messages=messages, arm=arm)
    return Applied(version=0, messages=[])


def _timers_by_service(live: LiveMatch) -> Applied:
    """The locked check of ``gameplay.services`` (it broadcasts and arms
    what follows itself); the copy is read again afterwards."""
    done = services.match_apply_timers(match_id=live.pk)
    live.match = None
    return Applied(version=len(done), messages=[])


_timers_single_thread = sync_to_async(_timers_run, thread_sensitive=True)
