"""The owner of a live match in this web process: its state in memory.

A web process that holds sockets of a match keeps that match (row, seats,
users) in memory. A move by one of its sockets is decided against that copy
by the move rule (``gameplay.moverule``, which ``services.match_act`` applies
under the row lock), appended to the log in one round trip (``store.append``:
a compare-and-set on the version under the row lock), and broadcast from
memory: no re-read of the match, its seats or its state, no ORM query
building, one hop to the database thread and back.

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
earliest due time (``_fire_at``, ``fire_timers``); a real-time table's
built-in bots act on their own ticks, whose chain the owner only keeps
running. Timer steps of matches no process holds (and those that end the
match) are applied by the worker under the row lock
(``services.match_apply_timers``); their
broadcast tells the owner to read again.

The move that ends the match is made here too: the result is computed from
the copy's seats and written with the step in the same compare-and-set
(``store.append`` with a ``Finish``: status, result, placements; refused
if the committed seats' forfeits are not the copy's), and the finished row is the
announcement's outbox entry, announced right after the commit
(``services.match_announce_finished``: rating, tournament pairing) or, if
this process dies or the broker is away, by beat's sweep, once.

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.utils import timezone

from gameplay import (
    agents,
    broadcast,
    clocks,
    enqueue,
    frames,
    moverule,
    selectors,
    services,
)
from gameplay.errors import MatchError, MatchNotFound, StaleVersion, refused
from gameplay.live import reader, store
from gameplay.models import ActionKind, Match, MatchStatus
from gameplay.rules import Game, get_game

logger = logging.getLogger(__name__)

# A move refused by a compare-and-set is retried against a fresh read this
# many times (another writer moved in between) before the client is told.
MAX_ATTEMPTS = 3


@dataclass
class LiveMatch:
    """One match as this process holds it; ``match`` None = read it again."""

    pk: int
    match: Match | None = None
    sockets: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The due time this process last armed (or found armed) a timer check
    # for (``services.after_step``): None = unknown, arm at the next step.
    armed_due: Any = None
    # Counters, for tests and the benchmark's profile.
    reads: int = 0
    fast_moves: int = 0
    finishes: int = 0  # matches this copy finished (the last move made here)
    timer_arms: int = 0  # times a step asked to arm a timer check
    timer_steps: int = 0  # timer steps this copy applied (``fire_timers``)
    # This process's own firing of the match's timers (``_fire_at``): the
    # loop's handle and the due time it is for.
    fire_handle: Any = None
    fire_due: Any = None


@dataclass(frozen=True)
class Applied:
    version: int
    messages: broadcast.Messages
    # The new earliest due time of the match's timers after the step
    # (``_after_step``): the owner's loop fires them then (``_fire_at``); the
    # path without a loop (``act_sync``) arms the worker's check for it.
    arm: Any = None


# This process's matches. Touched by the event loop (attach, detach, saw) and
# by the database thread (reads, moves) while the loop holds the match's lock.
_matches: dict[int, LiveMatch] = {}


def attach(match_pk: int) -> LiveMatch:
    """A socket of this process follows ``match_pk``."""
    live = _matches.get(match_pk)
    if live is None:
        live = _matches[match_pk] = LiveMatch(pk=match_pk)
    live.sockets += 1
    return live


def detach(match_pk: int) -> None:
    """A socket closed; the last one lets the match go."""
    live = _matches.get(match_pk)
    if live is None:
        return
    live.sockets -= 1
    if live.sockets <= 0 and not live.lock.locked():
        _matches.pop(match_pk, None)
        _hand_over(live)


def held(match_pk: int) -> LiveMatch | None:
    return _matches.get(match_pk)


def held_ids() -> list[int]:
    return [pk for pk, live in _matches.items() if live.match is not None]


def saw(match_pk: int, message: dict[str, Any]) -> None:
    """A broadcast of ``match_pk`` reached this process (a ``match.frame``).

    A newer version than the copy's was written by someone else (another
    process, the API, a bot task): the copy is dropped and read again at the
    next move. A frame built from a fresh read carries the seats as
    committed (presence, forfeits): they are taken over in place, and a
    changed status (the match ended) drops the copy.
    """
    live = _matches.get(match_pk)
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
    live = _matches.get(match_pk)
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
        live = _matches.get(match_pk)
        if live is None or live.match is None:
            continue
        if version != live.match.version:
            live.match = None
            continue
        fresh = by_match.get(match_pk, {})
        for seat in selectors.seats_of(live.match):
            if seat.pk in fresh:
                seat.connected, seat.seen_at, seat.disconnected_at = fresh[seat.pk]


def _read(live: LiveMatch) -> Match:
    match = reader.read_match(live.pk)
    if match is None:
        raise MatchNotFound("no such match")
    live.reads += 1
    live.match = match
    # Someone else may have armed or fired a timer check since: ask again.
    live.armed_due = None
    return match


def _needs_full_path(match: Match, engine: Game) -> bool:
    """Moves that need more than the log append: clocks, bot seats' turns.

    A real-time table's built-in bots act on ticks, not after a move: the
    owner only keeps their tick chain running (``services.after_step``), so
    such a table stays here. Uploaded bots and turn-based bot seats are
    queued after each commit by the services (their turn follows a move).
    """
    if match.time_control:
        return True  # clocks: charged and armed in services
    realtime = moverule.is_realtime(engine)
    for seat in selectors.seats_of(match):
        if not (seat.agent or seat.replaced_by_bot or not seat.user_id):
            continue  # a person
        builtin = agents.plays_builtin(seat)
        if not (realtime and builtin):
            return True
    return False


def _decide(
    match: Match, engine: Game, user: Any, action_id: str, expected_version: int | None
) -> moverule.Step:
    """The move rule (``moverule.decide_move``, as ``services.match_act``
    applies it under the row lock) against the copy; a refusal raises."""
    decided = moverule.decide_move(
        engine=engine,
        active=match.status == MatchStatus.ACTIVE,
        version=match.version,
        state=match.state,
        seats=selectors.seats_of(match),
        user_id=user.pk if user is not None and user.is_authenticated else None,
        action_id=action_id,
        expected_version=expected_version,
        stepped_since=selectors.stepped_since(match.pk),
    )
    if isinstance(decided, moverule.Refusal):
        raise refused(decided)
    return decided


def _act_sync(
    live: LiveMatch, user: Any, action_id: str, expected_version: int | None
) -> Applied:
    """Decide, append, and build the broadcast (in the database thread)."""
    for attempt in range(MAX_ATTEMPTS):
        fresh = live.match is None
        match = live.match if live.match is not None else _read(live)
        engine = get_game(match.game)
        if _needs_full_path(match, engine):
            return _full_path(live, user, action_id, expected_version)
        try:
            step = _decide(match, engine, user, action_id, expected_version)
        except MatchError:
            if fresh:
                raise
            live.match = None  # a refusal from the copy is confirmed by a read
            continue
        if not step.changed:
            # Changes nothing (a real-time "pass"): logged nowhere, answered
            # with the version it met, as ``services.match_act`` does.
            return Applied(version=match.version, messages=[])
        now = timezone.now()
        finish = _finish_of(match, step.state, now) if step.over else None
        timers = None
        if finish is None and getattr(engine, "timers", None) is not None:
            # Server timers (engine ``timers``) move with the step, in the
            # same compare-and-set: a committed step never leaves them behind.
            timers = clocks.timers_after(
                engine=engine, state=step.state, old=match.timers, now=now
            )
            if timers == match.timers:
                timers = None  # unchanged: the column stays as it is
        mover_seat = step.seat
        assert mover_seat is not None  # a person's move is made at their seat
        written = _append(
            match_id=match.pk,
            from_version=match.version,
            steps=[store.Logged(step.seat, action_id, ActionKind.MOVE, step.events)],
            state=step.state,
            now=now,
            snapshots={step.version: step.state} if step.snapshot else {},
            timers=timers,
            mover=store.Mover(seat=mover_seat, user_id=user.pk),
            finish=finish,
        )
        if not written:
            # Someone else wrote first: read, and decide again on fresh data.
            live.match = None
            if attempt == MAX_ATTEMPTS - 1:
                raise StaleVersion("the match moved on; resync")
            continue
        match.state = step.state
        match.version = version = step.version
        match.turn_started_at = now
        if timers is not None:
            match.timers = timers
        live.fast_moves += 1
        arm = None
        if finish is not None:
            _finished(live, match, finish)
        else:
            arm = _after_step(live, match)
        try:
            if finish is not None:
                match.just_finished = True  # nothing hangs off it yet
            messages = broadcast.match_messages(
                match=match,
                events=step.events,
                step={"kind": str(ActionKind.MOVE), "seat": step.seat},
            )
        except Exception:  # the move is committed: its ack must not be lost
            logger.exception(
                "broadcast of match %s version %s failed", match.pk, version
            )
            live.match = None
            messages = []
        finally:
            match.just_finished = False
        if finish is not None:
            _announce(match)
        return Applied(version=version, messages=messages, arm=arm)
    raise StaleVersion("the match moved on; resync")


def _after_step(live: LiveMatch, match: Match) -> Any:
    """What follows a committed step, decided from the copy (no read): the
    bots' tick chain of a real-time table kept running, and the due time
    whose timer check is to be armed (returned; None: nothing to arm), only
    when the earliest due time changed since this process last armed one
    (each arm is a cache write and a broker message, two Redis round trips;
    a busy table's steps mostly leave the earliest due time where it was).

    Never raises: the step is committed and its ack must go out. A check
    that could not be armed (broker or cache away) is beat's sweep's
    (``tasks.sweep_timers``), from the timers committed with the step.
    """
    try:
        seats = selectors.seats_of(match)
        due = services.after_step(match=match, seats=seats, arm_timers=False)
        arm = None
        if due is not None and due != live.armed_due:
            live.timer_arms += 1
            arm = due
        live.armed_due = due
        return arm
    except Exception:
        logger.exception("after-step hooks of match %s failed", match.pk)
        live.armed_due = None  # try again at the next step
        return None


def _arm(live: LiveMatch, due: Any) -> None:
    """Arm the worker's timer check for ``due``. Never raises: a check not
    armed is beat's sweep's, and the next step tries again."""
    try:
        enqueue.arm_timer_check(match_id=live.pk, due=due)
    except Exception:
        logger.warning("arming the timer check of match %s failed", live.pk)
        live.armed_due = None


# Arms run on a thread of their own, off the event loop and the match's lock
# (two Redis round trips: a cache write and a broker message).
_arm_pool: ThreadPoolExecutor | None = None


def _arm_soon(live: LiveMatch, due: Any) -> None:
    """Hand the timers due at ``due`` to the worker's check (the owner lets
    the match go, or its own firing failed)."""
    global _arm_pool
    if _arm_pool is None:
        _arm_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-arm")
    _arm_pool.submit(_arm, live, due)


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
    after the announcement's round trips): rating and tournament pairing
    through the outbox. Never raises (see ``_finished``)."""
    try:
        services.match_announce_finished(match_id=match.pk)
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


def _full_path(
    live: LiveMatch, user: Any, action_id: str, expected_version: int | None
) -> Applied:
    """Leave the move to the general locked service (run by ``act`` on
    Channels' database thread: its after-commit broadcast goes through the
    event loop from there)."""
    live.match = None
    return FULL_PATH


def _match_act(user: Any, match_pk: int, action_id: str, expected_version: Any):
    return services.match_act(
        match_id=match_pk,
        user=user,
        action_id=action_id,
        expected_version=expected_version,
    )


_full_path_in_db_thread = database_sync_to_async(_match_act)


def act_sync(
    live: LiveMatch, user: Any, action_id: str, expected_version: int | None
) -> Applied:
    """The move path without an event loop (scripts, tests): the broadcast's
    messages are returned, not sent."""
    applied = _act_sync(live, user, action_id, expected_version)
    if applied is FULL_PATH:
        outcome = _match_act(user, live.pk, action_id, expected_version)
        return Applied(version=outcome.version, messages=[])
    if applied.arm is not None:
        _arm(live, applied.arm)
    return applied


def _run_sync(
    live: LiveMatch, user: Any, action_id: str, expected_version: int | None
) -> Applied:
    return _guarded(live, _act_sync, live, user, action_id, expected_version)


def _guarded(live: LiveMatch, work: Any, *args: Any) -> Applied:
    """``work(*args)`` on a move thread: a database error drops the copy and
    a broken connection, so the next call reads and reconnects."""
    try:
        return work(*args)
    except DatabaseError:
        live.match = None
        if not connection.in_atomic_block and not connection.is_usable():
            connection.close()
        raise


def _frames_of(
    match: Match, user: Any, seated: bool, after_version: int | None
) -> list[dict[str, Any]]:
    """A socket's own frames from ``match`` as just read."""
    out: list[dict[str, Any]] = []
    # A seat that resigned or was left sees only the public view from then on.
    seat = selectors.viewer_seat(match=match, user=user) if seated else None
    if after_version is not None:
        steps = selectors.events_since(
            match=match, seat=seat, after_version=after_version
        )
        out.append({"type": "history", "after_version": after_version, "steps": steps})
    if seat is None:
        out.append(frames.spectator_frame(match=match))
    else:
        out.append(frames.seat_frame(match=match, seat=seat))
    return out


def _frames_sync(
    live: LiveMatch, user: Any, seated: bool, after_version: int | None
) -> list[dict[str, Any]]:
    """A socket's own frames (``sync``): from a fresh read, which also becomes
    the copy (a client asking to resync may know of a move this process
    missed)."""
    return _frames_of(_read(live), user, seated, after_version)


@dataclass(frozen=True)
class Opened:
    """What a socket learns at connect, from one database call."""

    match_pk: int
    seat_number: int | None  # the user's seat (None: a spectator)
    seat_pk: int | None
    match: Match  # as read after the seat was counted
    frames: list[dict[str, Any]]
    messages: broadcast.Messages  # the table's broadcast: who is connected now


def _open_sync(public_id: str, user: Any) -> Opened | None:
    """A socket opened on ``public_id``: find the match, count the user's seat
    (if they have one), and read the match once, after the count, for the
    socket's own frame, the table's broadcast and this process's copy.

    One call on the database thread (one connection check) instead of one for
    the lookup and one for the rest; the seat is taken from the read's seats.
    None: no such match.
    """
    match_pk = reader.match_pk_of(public_id)
    if match_pk is None:
        return None
    if user is not None and user.is_authenticated:
        # No row for a user without a seat: then nothing is counted.
        services.seat_connected(match_id=match_pk, user=user, announce=False)
    try:
        match = _read(LiveMatch(pk=match_pk))
    except MatchNotFound:  # deleted meanwhile
        return None
    seat = selectors.user_seat(match=match, user=user)
    seated = seat is not None
    frames = _frames_of(match, user, seated, None)
    messages: broadcast.Messages = []
    if seated:
        try:
            messages = broadcast.match_messages(match=match, reread=True)
        except Exception:  # the socket still gets its own frame
            logger.exception("connect broadcast of match %s failed", match_pk)
    return Opened(
        match_pk=match_pk,
        seat_number=seat.number if seat is not None else None,
        seat_pk=seat.pk if seat is not None else None,
        match=match,
        frames=frames,
        messages=messages,
    )


def _close_sync(match_pk: int, user: Any) -> broadcast.Messages:
    """A seated socket closed: the seat counted out (and the grace check armed
    when it was the last), and the table's broadcast of who is connected now,
    built here from a fresh read and sent by the event loop (``close_socket``)."""
    if not services.seat_disconnected(match_id=match_pk, user=user, announce=False):
        return []  # no seat: nothing changed at the table
    try:
        match = _read(LiveMatch(pk=match_pk))
        return broadcast.match_messages(match=match, reread=True)
    except Exception:  # counted out; the others learn it from the next beat
        logger.exception("disconnect broadcast of match %s failed", match_pk)
        return []


_frames_in_db_thread = database_sync_to_async(_frames_sync)
_open_in_db_thread = database_sync_to_async(_open_sync)
_close_in_db_thread = database_sync_to_async(_close_sync)


async def open_socket(*, public_id: str, user: Any) -> Opened | None:
    """A socket of this process opened on a match (``public_id`` canonical):
    the seat counted, the table told, the match held (``attach``; the socket
    must ``detach`` when it closes). None: no such match, nothing held."""
    # On Channels' one database thread, not the moves' threads: when many
    # sockets open at once (a round of 400 games starting) on a saturated
    # process, connects there starved the moves of the games in play (p50
    # 2 s, moves lost in ``bench/live_load.py``); on the one thread the games
    # in play keep moving and the connects wait.
    opened = await _open_in_db_thread(public_id, user)
    if opened is None:
        return None
    live = attach(opened.match_pk)
    # The read becomes the copy unless a move holds the match (it sets the
    # copy itself) or the copy is already newer.
    if not live.lock.locked() and (
        live.match is None or live.match.version <= opened.match.version
    ):
        live.match = opened.match
        live.reads += 1
    try:
        await broadcast.send_messages(opened.messages)
    except Exception:  # Redis away: the others learn it from the next beat
        logger.warning(
            "connect broadcast of match %s failed", opened.match_pk, exc_info=True
        )
    return opened


async def close_socket(*, match_pk: int, user: Any) -> None:
    """A seated socket of this process closed: count it out and tell the
    table (on Channels' database thread, like ``open_socket``; the broadcast
    leaves from the event loop, not by a hop back to it)."""
    messages = await _close_in_db_thread(match_pk, user)
    try:
        await broadcast.send_messages(messages)
    except Exception:  # Redis away: the others learn it from the next beat
        logger.warning("disconnect broadcast of match %s failed", match_pk)


async def state_frames(
    *, match_pk: int, user: Any, seated: bool, after_version: int | None
) -> list[dict[str, Any]]:
    live = _matches.get(match_pk) or LiveMatch(pk=match_pk)
    return await _frames_in_db_thread(live, user, seated, after_version)


# Moves run on their own few threads, each with its own connection, without
# ``database_sync_to_async``'s connection check around each call (a connection
# is closed and reopened only when a call finds it broken). Channels runs all
# database calls of a process on one thread: every match's move then waits for
# every other match's round trip, and on a loaded machine a round trip is long.
# Moves of one match stay in order (its lock); different matches overlap their
# waits. SQLite (one writer anyway; tests share an in-memory database) keeps
# Channels' single thread. ``LIVE_DB_THREADS`` overrides the count (0 = that
# single thread).
DEFAULT_THREADS_POSTGRESQL = 4
_pool: ThreadPoolExecutor | None = None
_single_thread = sync_to_async(_run_sync, thread_sensitive=True)


def _threads() -> int:
    configured = getattr(settings, "LIVE_DB_THREADS", None)
    if configured is not None:
        return int(configured)
    return DEFAULT_THREADS_POSTGRESQL if connection.vendor == "postgresql" else 0


async def _in_db_thread(
    live: LiveMatch, user: Any, action_id: str, expected_version: int | None
) -> Applied:
    threads = _threads()
    if threads <= 0:
        return await _single_thread(live, user, action_id, expected_version)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        _executor(), _run_sync, live, user, action_id, expected_version
    )


async def act(
    *, match_pk: int, user: Any, action_id: Any, expected_version: Any
) -> int:
    """A person's move through this process's copy; returns the new version.

    Raises the same ``MatchError``s as ``services.match_act``, changing nothing.
    """
    services.check_act_input(action_id=action_id, expected_version=expected_version)
    live = _matches.get(match_pk)
    if live is None:
        live = _matches[match_pk] = LiveMatch(pk=match_pk)
    async with live.lock:
        applied = await _in_db_thread(live, user, action_id, expected_version)
        if applied is FULL_PATH:
            outcome = await _full_path_in_db_thread(
                user, match_pk, action_id, expected_version
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
        _fire_at(live, applied.arm)
    if live.sockets <= 0 and _matches.get(match_pk) is live:
        _matches.pop(match_pk, None)
        _hand_over(live)
    return applied.version


# --- Timers fired by the owner ---------------------------------------------------
#
# The owner of a fast-path match fires its server timers itself (an offer
# declined after 20 s, a draft dropped, a claim checked after 2 s), on its
# event loop at the due time, against its copy, committed by the same
# compare-and-set as a move (``store.append_timer_steps``), its frames built
# from memory, and no worker check is armed: when the owner lets the match go
# (its last socket closed) or a firing fails, the due time is handed to the
# worker's check (``_hand_over``); when the process dies, beat's sweep
# (``tasks.sweep_timers``, every 5 s) finds the committed timers due. Left
# to the worker alone, each timer step took the match's row lock for a whole
# ORM transaction, made the owner's next move fail its compare-and-set and
# read the match again, and was broadcast from another process; and arming
# its check at each new earliest due time cost the owner two Redis round
# trips and the worker a task: on a busy real-time table that was the
# larger part of the slow round trips.
# Rearming the loop's handle costs nothing; firing a hair after the due time
# keeps the engine's "due by now" test true on the first try.
FIRE_LATE_S = 0.005
_firing: set[asyncio.Task] = set()


def _cancel_fire(live: LiveMatch) -> None:
    if live.fire_handle is not None:
        live.fire_handle.cancel()
    live.fire_handle = live.fire_due = None


def _hand_over(live: LiveMatch) -> None:
    """This process lets the match go: the firing it had scheduled becomes
    the worker's check."""
    due = live.fire_due
    _cancel_fire(live)
    if due is not None:
        _arm_soon(live, due)


def _fire_at(live: LiveMatch, due: Any) -> None:
    """Fire ``live``'s timers at ``due`` from this loop (one handle per
    match: a new earliest due time replaces the old)."""
    if due == live.fire_due and live.fire_handle is not None:
        return
    _cancel_fire(live)
    loop = asyncio.get_running_loop()
    delay = max(0.0, (due - timezone.now()).total_seconds()) + FIRE_LATE_S
    live.fire_due = due
    live.fire_handle = loop.call_later(delay, _fire_soon, live)


def _fire_soon(live: LiveMatch) -> None:
    due = live.fire_due
    live.fire_handle = live.fire_due = None
    if _matches.get(live.pk) is not live:
        return  # let go meanwhile: handed to the worker's check
    task = asyncio.ensure_future(fire_timers(live, due))
    _firing.add(task)
    task.add_done_callback(_firing.discard)


async def fire_timers(live: LiveMatch, due: Any = None) -> int:
    """Apply ``live``'s due timers (``_timers_sync``) and broadcast them;
    the number of steps applied. Never raises: a firing that failed hands
    ``due`` (the due time it was for) to the worker's check."""
    try:
        async with live.lock:
            loop = asyncio.get_running_loop()
            if _threads() <= 0:
                applied = await _timers_single_thread(live)
            else:
                applied = await loop.run_in_executor(_executor(), _timers_run, live)
            if applied.messages:
                await broadcast.send_messages(applied.messages, wait=False)
    except Exception:
        logger.warning("firing the timers of match %s failed", live.pk, exc_info=True)
        if due is not None:
            _arm_soon(live, due)
        return 0
    if applied.arm is not None:
        _fire_at(live, applied.arm)
    return applied.version


def _timers_run(live: LiveMatch) -> Applied:
    return _guarded(live, _timers_sync, live)


def _timers_sync(live: LiveMatch) -> Applied:
    """The due timer steps of the copy, applied and committed in one round
    trip (the rule of ``services.match_apply_timers``: one at a time in
    order of due time, each re-checked against the state the one before
    left; the broadcast carries the last one's events). ``version`` of the
    result: the steps applied. A step that would end the match, or a match
    off the fast path, is left to ``services.match_apply_timers`` (the
    locked check: finishing, ratings, bots), run here."""
    for _attempt in range(MAX_ATTEMPTS):
        match = live.match if live.match is not None else _read(live)
        if match.status != MatchStatus.ACTIVE or not match.timers:
            return Applied(version=0, messages=[])
        engine = get_game(match.game)
        if _needs_full_path(match, engine) or agents.played_by_bots_runner(
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
        arm = _after_step(live, match)
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


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_threads(), thread_name_prefix="live-db")
    return _pool
