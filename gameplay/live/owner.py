"""The owner of a live match in this web process: its state in memory.

A web process that holds sockets of a match keeps that match (row, seats,
users) in memory. A move by one of its sockets is decided against that copy
by the move rule (``gameplay.moverule``, which ``services.match_act`` applies
under the row lock), appended to the log in one round trip (``store.append``:
a compare-and-set on the version under the row lock), and broadcast from
memory: no re-read of the match, its seats or its state, no ORM query
building. On PostgreSQL the common move is made on the event loop, its
append awaited there (``_act_in_loop``, ``pgasync``); the rest (a copy to
read, a refusal to confirm, a lost compare-and-set, a finish) goes to a
database thread (``_act_sync``) and back.

Who owns: whoever holds the current version. Two processes may hold one match
(its players' sockets landed on different processes); each writes only
through the compare-and-set, so exactly one writer wins each version and the
other finds out (its write is refused, or the broadcast of the newer version
reaches its sockets first) and reads the match again: the row lock and the
re-read are paid only when ownership moves. Within a process one asyncio lock
per match puts its intents in arrival order, and the database's order is the
order of the log. Several seats may act at once (``actors`` with several
seats): each intent is decided against the state it is applied to, in that
order, so simultaneous commits and real-time intents need nothing more here
(the rule lets a move chosen at an older version stand when every step since
was another seat's, and a seat not to act take back a hidden commit).

Real-time tables (engine ``realtime``, intents from any seat at any time)
and games with server timers (engine ``timers``) are done here too: the
engine alone judges an intent (a pause refuses trades with its reason), the
match's timers after the step (``clocks.timers_after``) go into the same
compare-and-set as the step, and the owner fires the timers itself at the
earliest due time (``gameplay.live.timers``); a real-time table's
built-in bots act on their own ticks, whose chain the owner only keeps
running. Timer steps of matches no process holds (and those that end the
match) are applied by the worker under the row lock
(``services.match_apply_timers``); their
broadcast tells the owner to read again.

The move that ends the match is made here too: the result is computed from
the copy's seats and written with the step in the same compare-and-set
(``store.append`` with a ``Finish``: status, result, placements; refused
if the committed seats' forfeits are not the copy's), and the finished row is the
announcement's outbox entry: right after the commit a worker is asked to
announce it (``enqueue.announce_match_finished``: rating, tournament pairing)
or, if this process dies or the broker is away, beat's sweep does, once.

What is not done here, and goes through ``services.match_act`` (row lock,
full re-read, after-commit hooks) before the copy is read again: matches
with a clock (charging and arming) or with bot seats whose turn follows a
move (turn-based bots, uploaded bots: queued after the commit). Everything that
changes a match elsewhere (resign, claim, presence, takeovers, moves over
the API, timer steps) keeps going through ``gameplay.services``; the
compare-and-set sees it, and its broadcast tells the owners to re-read.

Guarantee: a move is acknowledged only after its commit, so every ``ack``
survives a crash of any process; a broadcast lost with a process or Redis is
made good by the clients' resync (version beats), a timer check never armed
(the process died after the commit, the broker was away) by beat's sweep
over the committed timers (``tasks.sweep_timers``). Cached presence (who is
connected, since when) is refreshed by the presence loop every beat; frames
may show it up to one beat late.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation
from django.db import InterfaceError, OperationalError, connection
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from gameplay import broadcast, clocks, enqueue, moverule, selectors, services
from gameplay.errors import MatchError, StaleVersion, refused
from gameplay.live import copies, pgasync, store, timers
from gameplay.live.copies import Applied, LiveMatch
from gameplay.models import ActionKind, Match, MatchStatus
from gameplay.rules import Game, GameError, get_game

logger = logging.getLogger(__name__)


def attach(match_pk: int) -> LiveMatch:
    """A socket of this process follows ``match_pk``."""
    live = copies.matches.get(match_pk)
    if live is None:
        live = copies.matches[match_pk] = LiveMatch(pk=match_pk)
    live.sockets += 1
    return live


def detach(match_pk: int) -> None:
    """A socket closed; the last one lets the match go."""
    live = copies.matches.get(match_pk)
    if live is None:
        return
    live.sockets -= 1
    if live.sockets <= 0 and not live.lock.locked():
        copies.matches.pop(match_pk, None)
        timers.hand_over(live)


def held(match_pk: int) -> LiveMatch | None:
    return copies.matches.get(match_pk)


def held_ids() -> list[int]:
    return [pk for pk, live in copies.matches.items() if live.match is not None]


def saw(match_pk: int, message: dict[str, Any]) -> None:
    """A broadcast of ``match_pk`` reached this process (a ``match.frame``).

    A newer version than the copy's was written by someone else (another
    process, the API, a bot task): the copy is dropped and read again at the
    next move. A frame built from a fresh read carries the seats as
    committed (presence, forfeits): they are taken over in place, and a
    changed status (the match ended) drops the copy.
    """
    live = copies.matches.get(match_pk)
    if live is None or live.match is None:
        return
    match = live.match
    version = message.get("version")
    if version is not None and version > match.version:
        live.match = None
    elif "status" in message:
        if message["status"] != match.status:
            live.match = None
        else:
            broadcast.apply_seat_rows(selectors.seats_of(match), message["seats"])


def forget(match_pk: int) -> None:
    live = copies.matches.get(match_pk)
    if live is not None:
        live.match = None


def refresh_seats(rows: list[tuple[int, int, Any, Any, Any]], versions: dict) -> None:
    """The presence loop's read: (seat pk, match pk, connected, seen_at,
    disconnected_at) of held matches, and each held match's version.

    Seen-at stamps are refreshed by whichever process holds a seat's socket;
    the copy takes them from here so its frames keep showing who is present.
    A copy behind the database's version is dropped. Runs in the database
    thread, like the moves.
    """
    by_match: dict[int, dict[int, tuple[Any, Any, Any]]] = {}
    for pk, match_pk, connected, seen_at, disconnected_at in rows:
        by_match.setdefault(match_pk, {})[pk] = (connected, seen_at, disconnected_at)
    for match_pk, version in versions.items():
        live = copies.matches.get(match_pk)
        if live is None or live.match is None:
            continue
        if version != live.match.version:
            live.match = None
            continue
        fresh = by_match.get(match_pk, {})
        for seat in selectors.seats_of(live.match):
            if seat.pk in fresh:
                seat.connected, seat.seen_at, seat.disconnected_at = fresh[seat.pk]


def _decide(
    match: Match,
    engine: Game,
    user: Any,
    action_id: str,
    expected_version: int | None,
    seat_number: Any,
    stepped_since: moverule.SteppedSince | None = None,
) -> moverule.Step:
    """The move rule (``moverule.decide_move``, as ``services.match_act``
    applies it under the row lock) against the copy; a refusal raises."""
    seats = selectors.seats_of(match)
    if stepped_since is None:
        stepped_since = selectors.stepped_since(match.pk)
    decided = moverule.decide_move(
        engine=engine,
        active=match.status == MatchStatus.ACTIVE,
        version=match.version,
        state=match.state,
        seats=seats,
        user_id=user.pk if user is not None and user.is_authenticated else None,
        action_id=action_id,
        expected_version=expected_version,
        stepped_since=stepped_since,
        seat_number=seat_number,
    )
    if isinstance(decided, moverule.Refusal):
        raise refused(decided, seats=seats)
    return decided


def _act_sync(
    live: LiveMatch,
    user: Any,
    action_id: str,
    expected_version: int | None,
    seat_number: Any = None,
) -> Applied:
    """Decide, append, and build the broadcast (in the database thread)."""
    for attempt in range(copies.MAX_ATTEMPTS):
        fresh = live.match is None
        match = live.match if live.match is not None else copies.read(live)
        engine = get_game(match.game)
        if copies.needs_full_path(match, engine):
            return _full_path(live)
        try:
            step = _decide(
                match, engine, user, action_id, expected_version, seat_number
            )
        except MatchError:
            if fresh:
                raise
            live.match = None  # a refusal from the copy is confirmed by a read
            continue
        except GameError:
            # A state the engine refuses: an earlier rules version is called
            # off with the reason (NotActive); anything else stays an error.
            live.match = None
            services.raise_if_called_off(match_id=match.pk)
            raise
        if not step.changed:
            # Changes nothing (a real-time "pass"): logged nowhere, answered
            # with the version it met, as ``services.match_act`` does.
            return Applied(version=match.version, messages=[])
        applied = _write_sync(live, match, engine, step, user, action_id)
        if applied is None:
            # Someone else wrote first: read, and decide again on fresh data.
            live.match = None
            if attempt == copies.MAX_ATTEMPTS - 1:
                raise StaleVersion(N_("the match moved on; resync"))
            continue
        return applied
    raise StaleVersion(N_("the match moved on; resync"))


def _write_sync(
    live: LiveMatch,
    match: Match,
    engine: Game,
    step: moverule.Step,
    user: Any,
    action_id: str,
) -> Applied | None:
    """Append the decided ``step`` (with the finish, when it ends the match)
    and build its broadcast; None: the compare-and-set was refused, nothing
    written (in the database thread)."""
    now = timezone.now()
    finish = _finish_of(match, step.state, now) if step.over else None
    timers = None if finish is not None else _timers_of(match, engine, step, now)
    if not _append(**_append_args(match, user, action_id, step, now, timers, finish)):
        return None
    arm = _committed(live, match, step, now, timers, finish)
    messages = _messages(live, match, step, finish)
    if finish is not None:
        _announce(match)
    return Applied(version=match.version, messages=messages, arm=arm)


def _timers_of(
    match: Match, engine: Game, step: moverule.Step, now: Any
) -> dict[str, Any] | None:
    """Server timers (engine ``timers``) after ``step``, to move with it in the
    same compare-and-set (a committed step never leaves them behind); None:
    no timers, or unchanged (the column stays as it is)."""
    if getattr(engine, "timers", None) is None or _timers_stand(engine, step):
        return None
    timers = clocks.timers_after(
        engine=engine, state=step.state, old=match.timers, now=now
    )
    return None if timers == match.timers else timers


def _timers_stand(engine: Game, step: moverule.Step) -> bool:
    """The step's events are all the engine's ``timer_quiet_events``: its
    timers, and whether each one's action is legal, are what they were."""
    quiet: frozenset[str] | None = getattr(engine, "timer_quiet_events", None)
    if not quiet or not step.events:
        return False
    return all(event["type"] in quiet for event in step.events)


def _append_args(
    match: Match,
    user: Any,
    action_id: str,
    step: moverule.Step,
    now: Any,
    timers: dict[str, Any] | None,
    finish: store.Finish | None,
) -> dict[str, Any]:
    """``store.append``'s arguments for a person's move ``step`` of ``match``."""
    mover_seat = step.seat
    assert mover_seat is not None  # a person's move is made at their seat
    return {
        "match_id": match.pk,
        "from_version": match.version,
        "steps": [store.Logged(step.seat, action_id, ActionKind.MOVE, step.events)],
        "state": step.state,
        "now": now,
        "snapshots": {step.version: step.state} if step.snapshot else {},
        "timers": timers,
        "mover": store.Mover(seat=mover_seat, user_id=user.pk),
        "finish": finish,
    }


def _committed(
    live: LiveMatch,
    match: Match,
    step: moverule.Step,
    now: Any,
    timers: dict[str, Any] | None,
    finish: store.Finish | None,
) -> Any:
    """The copy moved to the committed step; returns the due time of a timer
    check to arm (``copies.after_step``). Never raises: the move is
    committed and its ack must go out."""
    match.state = step.state
    match.version = step.version
    match.turn_started_at = now
    if timers is not None:
        match.timers = timers
    live.fast_moves += 1
    if finish is not None:
        _finished(live, match, finish)
        return None
    stand = _timers_stand(get_game(match.game), step)
    return copies.after_step(live, match, timers_stand=stand)


def _broadcast_of(
    match: Match, step: moverule.Step, finish: store.Finish | None
) -> broadcast.Messages:
    try:
        if finish is not None:
            match.just_finished = True  # nothing hangs off it yet
        return broadcast.match_messages(
            match=match,
            events=step.events,
            step={"kind": str(ActionKind.MOVE), "seat": step.seat},
            quiet=True,
        )
    finally:
        match.just_finished = False


def _messages(
    live: LiveMatch, match: Match, step: moverule.Step, finish: store.Finish | None
) -> broadcast.Messages:
    """The committed step's broadcast. Never raises (the ack must go out):
    a broadcast that fails drops the copy, and the clients resync."""
    try:
        return _broadcast_of(match, step, finish)
    except Exception:
        logger.exception(
            "broadcast of match %s version %s failed", match.pk, match.version
        )
        live.match = None
        return []


def _finish_of(match: Match, state: dict[str, Any], now: Any) -> store.Finish:
    """The finish of ``match`` at ``state``, from the copy's seats (the write
    checks their forfeits against the committed ones)."""
    result = services.final_result(match=match, state=state)
    return store.Finish(
        result=result,
        placements=list(result["placements"]),
        forfeited=list(result["forfeited"]),
        reason="completed",
        finished_at=now,
    )


def _finished(live: LiveMatch, match: Match, finish: store.Finish) -> None:
    """The finish committed: the copy ends as the row did; ``_announce``
    then announces it (rating, tournament pairing) through the outbox, as
    ``services.finish.finish_match``'s after-commit hook does. Never raises:
    the move is committed and its ack must go out; an announcement that fails
    or never runs (the broker away, the process killed here) stays owed in the row
    (``finish_announced_at`` null) and beat's sweep makes it
    (``services.announce_finished_matches``), once."""
    match.status = MatchStatus.FINISHED
    match.result = finish.result
    match.end_reason = finish.reason
    match.finished_at = finish.finished_at
    match.timers = {}
    for seat in selectors.seats_of(match):
        seat.placement = finish.placements[seat.number]
    live.armed_due = None
    live.finishes += 1


def _announce(match: Match) -> None:
    """After the finishing frames are built (so they go out as committed, not
    after a round trip): queue the announcement (rating, tournament pairing)
    through the outbox, as ``services.finish.finish_match``'s after-commit hook
    does; a worker makes it. Never raises (see ``_finished``)."""
    try:
        enqueue.announce_match_finished(match_id=match.pk)
    except Exception:
        logger.exception("finish announcement of match %s failed", match.pk)


def _append(**kwargs: Any) -> bool:
    try:
        return store.append(**kwargs)
    except (InterfaceError, OperationalError):
        # A connection the database dropped (restart, idle kill): the next call
        # opens a new one. The write is not retried: it may have committed.
        connection.close()
        raise


# ``_act_sync``'s answer for a move it leaves to ``services.match_act``.
FULL_PATH = Applied(version=-1, messages=[])


def _full_path(live: LiveMatch) -> Applied:
    """Leave the move to the general locked service (run by ``act`` on
    Channels' database thread: its after-commit broadcast goes through the
    event loop from there)."""
    live.match = None
    return FULL_PATH


def _match_act(
    user: Any, match_pk: int, action_id: str, expected_version: Any, seat_number: Any
) -> services.ActOutcome:
    return services.match_act(
        match_id=match_pk,
        user=user,
        action_id=action_id,
        expected_version=expected_version,
        seat_number=seat_number,
    )


_full_path_in_db_thread = database_sync_to_async(_match_act)


def act_sync(
    live: LiveMatch,
    user: Any,
    action_id: str,
    expected_version: int | None,
    *,
    seat_number: Any = None,
) -> Applied:
    """The move path without an event loop (scripts, tests): the broadcast's
    messages are returned, not sent."""
    applied = _act_sync(live, user, action_id, expected_version, seat_number)
    if applied is FULL_PATH:
        outcome = _match_act(user, live.pk, action_id, expected_version, seat_number)
        return Applied(version=outcome.version, messages=[])
    if applied.arm is not None:
        copies.arm(live, applied.arm)
    return applied


def _run_sync(
    live: LiveMatch,
    user: Any,
    action_id: str,
    expected_version: int | None,
    seat_number: Any,
) -> Applied:
    return copies.guarded(
        live, _act_sync, live, user, action_id, expected_version, seat_number
    )


class _OnTheThread(Exception):
    """The move needs what the event loop must not do (read the log): the
    database thread makes it (``_act_sync``)."""


def _ask_the_thread(seat: int, version: int) -> bool:
    raise _OnTheThread


async def _act_in_loop(
    live: LiveMatch,
    user: Any,
    action_id: str,
    expected_version: int | None,
    seat_number: Any,
) -> Applied | None:
    """The common move on PostgreSQL, made on the event loop (``copies.in_loop``):
    decided against the copy, appended by awaiting one round trip on one of
    the loop's connections (``pgasync``), the broadcast built here. The
    database thread's hand-offs each way cost more CPU than the move rule
    and the frames do on their own (docs/performance.md, "The move's path in
    the event loop"); both are CPU-only and short.

    None: the move is the database thread's (``_act_sync``), unchanged: no
    copy, a copy whose refusal a read must confirm, a compare-and-set lost
    to another writer (read and decide again), a move at an older version
    (the rule asks the log), matches with clocks or bots. Nothing is
    written then. The move that ends the match is decided here and written
    on the thread (``_write_sync``: the result, the announcement).
    """
    match = live.match
    assert match is not None
    engine = get_game(match.game)
    if copies.needs_full_path(match, engine) or not copies.fits_loop(match):
        return None
    try:
        step = _decide(
            match,
            engine,
            user,
            action_id,
            expected_version,
            seat_number,
            stepped_since=_ask_the_thread,
        )
    except MatchError:
        live.match = None  # a refusal from the copy is confirmed by a read
        return None
    except (GameError, _OnTheThread):
        return None
    if not step.changed:
        return Applied(version=match.version, messages=[])
    if step.over:
        # The finish (its result, the announcement, the finishing frames'
        # reads) is written on the thread, from the step decided here.
        loop = asyncio.get_running_loop()
        finished = await loop.run_in_executor(
            copies.executor(),
            copies.guarded,
            live,
            _write_sync,
            live,
            match,
            engine,
            step,
            user,
            action_id,
        )
        if finished is None:
            live.match = None  # another writer first: the thread reads, decides again
        return finished
    now = timezone.now()
    timers = _timers_of(match, engine, step, now)
    args = _append_args(match, user, action_id, step, now, timers, None)
    try:
        async with pgasync.connection(copies.threads()) as conn:
            written = await store.append_async(conn, **args)
    except BaseException:
        # Broken or cancelled: committed or not, the next move reads.
        live.match = None
        raise
    if not written:
        live.match = None  # another writer first: the thread reads, decides again
        return None
    arm = _committed(live, match, step, now, timers, None)
    live.loop_moves += 1
    try:
        messages = _broadcast_of(match, step, None)
    except SynchronousOnlyOperation:
        # A listener reads or writes the database: built again on a thread.
        loop = asyncio.get_running_loop()
        messages = await loop.run_in_executor(
            copies.executor(), _messages, live, match, step, None
        )
    except Exception:  # committed: the ack must go out; the clients resync
        logger.exception(
            "broadcast of match %s version %s failed", match.pk, match.version
        )
        live.match = None
        messages = []
    return Applied(version=match.version, messages=messages, arm=arm)


# Moves run on the copies' database threads (``copies.threads``); with none
# (SQLite), on Channels' single database thread.
_single_thread = sync_to_async(_run_sync, thread_sensitive=True)


async def _in_db_thread(
    live: LiveMatch,
    user: Any,
    action_id: str,
    expected_version: int | None,
    seat_number: Any,
) -> Applied:
    args = (live, user, action_id, expected_version, seat_number)
    if copies.threads() <= 0:
        return await _single_thread(*args)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(copies.executor(), _run_sync, *args)


async def act(
    *,
    match_pk: int,
    user: Any,
    action_id: Any,
    expected_version: Any,
    seat_number: Any = None,
) -> int:
    """A person's move through this process's copy; returns the new version.

    Raises the same ``MatchError``s as ``services.match_act``, changing nothing
    (``seat_number``: the seat the client says it moves for, which the move
    rule refuses unless it is the user's).
    """
    services.check_act_input(action_id=action_id, expected_version=expected_version)
    live = copies.matches.get(match_pk)
    if live is None:
        live = copies.matches[match_pk] = LiveMatch(pk=match_pk)
    async with live.lock:
        applied = None
        if live.match is not None and copies.in_loop():
            applied = await _act_in_loop(
                live, user, action_id, expected_version, seat_number
            )
        if applied is None:
            applied = await _in_db_thread(
                live, user, action_id, expected_version, seat_number
            )
        if applied is FULL_PATH:
            outcome = await _full_path_in_db_thread(
                user, match_pk, action_id, expected_version, seat_number
            )
            applied = Applied(version=outcome.version, messages=[])
        # Handed over before the lock is let go, so one match's frames leave
        # in order; the publish to other processes follows in that order
        # without being waited for (the ack need not wait on Redis).
        if applied.messages:
            try:
                await broadcast.send_messages(applied.messages, wait=False)
            except Exception:  # Redis away: clients resync from the version beat
                logger.warning(
                    "broadcast of match %s version %s failed",
                    match_pk,
                    applied.version,
                    exc_info=True,
                )
    if applied.arm is not None:
        timers.fire_at(live, applied.arm)
    if live.sockets <= 0 and copies.matches.get(match_pk) is live:
        copies.matches.pop(match_pk, None)
        timers.hand_over(live)
    return applied.version
