"""Uploaded bots at live real-time tables: one process a seat, for the match.

A turn-based match with people asks an uploaded bot one decision at a time,
each in a fresh sandboxed process (:mod:`bots.live_turns`). A real-time game
has no turns: every seat may act at every moment, so a process per decision
would be a process per second per seat. Here a worker on the ``bots`` queue
holds the match instead (task ``bots.live_realtime``): it starts one sandboxed process
per uploaded-bot seat, says ``hello`` once, and then, on the wall clock's
ticks (``REALTIME_BOT_TICK`` seconds from the match's start, the same ticks
gameplay's built-in bots act on), sends each seat the ``act`` of a bot match
on the virtual clock: the tick, the events since its previous ``act``, its
intents the engine refused meanwhile. The answers of a tick go in together,
in the tick's rotating seat order (``gameplay.rules.ticks.tick_order``),
through ``match_system_intents``, the same service the built-in bots' ticks
use: one lock, each intent judged by the engine against the state it meets,
after whatever people and built-in bots sent before it (arrival order).

Faults are those of bot matches: a crash, a hang (no answer within the
per-decision limit plus the bank), a flood (a line over the cap), a malformed
or illegal answer forfeit the seat through ``match_forfeit`` (at three or
more seats the takeover bot plays on, which the live log shows). A worker
that dies stops renewing the match's lease (``bots.tasks.MatchLease``);
another worker picks the match up within a minute with fresh processes,
whose first ``act`` carries every event since the deal, with what is left of
each seat's bank. Before each tick's intents go in the driver checks it still
holds the lease, so two drivers never act for one seat. When the match ends
each process hears ``game_over`` and is closed. Without a sandbox the seats
are forfeited ("bot sandbox unavailable"), never run unprotected.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from bots.models import BotVersion
from bots.protocol.match import ProcessAgent, forfeit_reason
from bots.protocol.seat_log import REFUSED_KEPT, refused_told
from bots.protocol.transport import BotFault
from bots.sandbox import SandboxError, SandboxUnavailable
from bots.seats import (
    add_to_match_log,
    close_agent,
    forfeit_seat,
    seat_agent,
    seat_hello,
    seat_version,
)
from gameplay.agents import UPLOADED_PREFIX, is_uploaded
from gameplay.models import Match, MatchAction, MatchStatus, Seat
from gameplay.moverule import is_realtime
from gameplay.rules import Game, get_game, view_events
from gameplay.rules.ticks import PASS, tick_order
from gameplay.services import (
    RefusedIntent,
    SystemMove,
    match_system_intents,
)

logger = logging.getLogger(__name__)

#: Reason a seat forfeits with when no worker may run it in the sandbox.
NO_SANDBOX = "bot sandbox unavailable"
#: How long each seat's bank and step count are remembered (a resumed driver
#: carries them on).
SESSION_SECONDS = 6 * 3600


def tick_seconds() -> float:
    """Seconds per wall-clock tick, the built-in bots' (gameplay.tasks)."""
    from gameplay.enqueue import realtime_bot_tick_seconds

    return realtime_bot_tick_seconds()


def wall_tick(match: Match) -> int:
    """The tick the wall clock is at, counted from the match's start."""
    if match.started_at is None:
        return 0
    since = (timezone.now() - match.started_at).total_seconds()
    return max(0, int(since / tick_seconds()))


def needs_driver(match: Match) -> bool:
    """An active live real-time table with an uploaded bot seat still playing.

    Live: a person sits there (all-bot matches are the runner's, on the
    virtual clock).
    """
    if match.status != MatchStatus.ACTIVE or not is_realtime(get_game(match.game)):
        return False
    seats = list(match.seats.all())
    return any(seat.agent == "" for seat in seats) and any(
        _holds(seat) for seat in seats
    )


def _holds(seat: Seat) -> bool:
    return is_uploaded(seat.agent) and not seat.forfeited and not seat.replaced_by_bot


def tables_to_drive() -> list[int]:
    """Active live matches with an uploaded seat in play, real-time games only."""
    uploaded = Seat.objects.filter(
        agent__startswith=UPLOADED_PREFIX, forfeited=False
    ).values("match_id")
    people = Seat.objects.filter(agent="").values("match_id")
    candidates = (
        Match.objects.filter(status=MatchStatus.ACTIVE, pk__in=uploaded)
        .filter(pk__in=people)
        .order_by("started_at", "pk")
        .values_list("pk", "game")
    )
    return [pk for pk, game in candidates[:500] if is_realtime(get_game(game))]


def _session_key(public_id: object, seat: int) -> str:
    # The public id, not the pk: a pk may come back (a test database made
    # again) while the cache still holds the old match's sessions.
    return f"bots:rt-live:session:{public_id}:{seat}"


@dataclass
class HeldSeat:
    """One uploaded-bot seat this worker drives, with its running process."""

    number: int
    version: BotVersion
    agent: ProcessAgent
    #: The match version up to which this seat has been told the events.
    told: int = 0
    #: Refused intents not told yet (``act.refused``).
    untold: list[dict[str, Any]] = field(default_factory=list)
    logged_decisions: int = 0
    logged_think_s: float = 0.0


@dataclass
class TickReport:
    """What one tick did (for the tests and the task's log)."""

    tick: int
    asked: list[int] = field(default_factory=list)
    sent: list[tuple[int, str]] = field(default_factory=list)
    applied: int = 0
    refused: list[RefusedIntent] = field(default_factory=list)
    faults: dict[int, str] = field(default_factory=dict)


class LeaseLost(Exception):
    """Another driver holds the match now: stop without acting."""


class LiveRealtimeTable:
    """The uploaded-bot seats of one live real-time match, held by this worker.

    :meth:`open` starts and greets the processes, :meth:`tick` plays one tick,
    :meth:`close` tells them the result (when the match is over), stops them
    and writes each seat's match log. ``still_held`` is asked before each
    tick's intents go in: False stops the driver (it lost its lease).
    """

    def __init__(
        self, *, match_id: int, still_held: Callable[[], bool] = lambda: True
    ) -> None:
        self.match_id = match_id
        self.still_held = still_held
        self.seats: dict[int, HeldSeat] = {}
        self.game: Game | None = None  # set by open()
        self.public_id: object = None

    # -- start -----------------------------------------------------------------

    def open(self) -> bool:
        """Start a process for every uploaded seat in play; False if none runs."""
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None or not needs_driver(match):
            return False
        self.game = get_game(match.game)
        self.public_id = match.public_id
        held = [seat for seat in match.seats.all() if _holds(seat)]
        for seat in held:
            version, reason = seat_version(seat)
            if version is None:
                self._forfeit(seat.number, reason)
                continue
            self.seats[seat.number] = HeldSeat(
                number=seat.number,
                version=version,
                agent=seat_agent(version, seat.number),
            )
        try:
            for held_seat in self.seats.values():
                held_seat.agent.launch()
        except (SandboxUnavailable, SandboxError) as exc:
            logger.warning("match %s: uploaded bots refused: %s", self.match_id, exc)
            for number in list(self.seats):
                self._drop(number)
                self._forfeit(number, NO_SANDBOX)
            return False
        for number, held_seat in list(self.seats.items()):
            session = cache.get(_session_key(self.public_id, number)) or {}
            process = held_seat.agent.process
            assert process is not None
            if "bank" in session:
                process.bank_left = float(session["bank"])
            held_seat.agent.step = int(session.get("steps", 0))
            try:
                held_seat.agent.greet(seat_hello(match, number, held_seat.agent))
            except BotFault as fault:
                self._fault(number, fault)
        return bool(self.seats)

    # -- one tick ----------------------------------------------------------------

    def tick(self, tick: int) -> TickReport | None:
        """Ask every held seat among the actors once; None when the match ended.

        All are asked on the same state, in parallel (one thread a process:
        they wait on pipes), and their intents go in together in the tick's
        rotating seat order. A seat that faults forfeits after the others'
        intents are in.
        """
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None or match.status != MatchStatus.ACTIVE:
            return None
        game = self.game or get_game(match.game)
        seats = {seat.number: seat for seat in match.seats.all()}
        for number in list(self.seats):
            seat = seats.get(number)
            if seat is None or not _holds(seat):
                self._drop(number)  # forfeited meanwhile (e.g. resigned by staff)
        if not self.seats:
            return None
        report = TickReport(tick=tick)
        actors = [n for n in game.actors(match.state) if n in self.seats]
        if not actors:
            return report  # a claim is being checked: nothing to ask
        events = self._events_since(
            min(self.seats[n].told for n in actors), upto=match.version
        )
        answers: dict[int, str | BotFault] = {}

        def ask(number: int) -> None:
            held_seat = self.seats[number]
            seen = [
                e
                for version, batch in events
                if version > held_seat.told
                for e in batch
            ]
            refused, held_seat.untold = held_seat.untold, []
            try:
                answers[number] = held_seat.agent.decide(
                    game,
                    match.state,
                    number,
                    seen,
                    match.version,
                    tick=tick,
                    refused=refused,
                )
            except BotFault as fault:
                answers[number] = fault
            held_seat.told = match.version

        report.asked = list(actors)
        threads = [
            threading.Thread(target=ask, args=(n,), name=f"rt-bot-{n}")
            for n in actors[1:]
        ]
        for thread in threads:
            thread.start()
        ask(actors[0])
        for thread in threads:
            thread.join()
        moves = []
        for number in tick_order(actors, tick, len(seats)):
            answer = answers.get(number)
            if isinstance(answer, str) and answer != PASS:
                moves.append(SystemMove(number, answer))
        if moves:
            if not self.still_held():
                raise LeaseLost(f"match {self.match_id}: another driver holds it")
            refused: list[RefusedIntent] = []
            report.applied = match_system_intents(
                match_id=self.match_id, moves=moves, refused=refused
            )
            report.sent = [(m.seat, m.action_id) for m in moves]
            report.refused = refused
            for intent in refused:
                self._note_refused(tick, intent)
        for number in actors:
            answer = answers.get(number)
            if isinstance(answer, BotFault):
                report.faults[number] = answer.reason
                self._fault(number, answer)
        self._keep_sessions()
        return report

    def _events_since(
        self, version: int, *, upto: int | None = None
    ) -> list[tuple[int, list]]:
        """Logged events after ``version`` (to ``upto``: the state asked on)."""
        actions = MatchAction.objects.filter(
            match_id=self.match_id, version__gt=version
        )
        if upto is not None:
            actions = actions.filter(version__lte=upto)
        rows = actions.order_by("version").values_list("version", "events")
        return [(v, batch or []) for v, batch in rows]

    def _note_refused(self, tick: int, intent: RefusedIntent) -> None:
        held_seat = self.seats.get(intent.seat)
        if held_seat is None:
            return
        held_seat.agent.log.note_refused(
            tick, intent.action_id, intent.reason, intent.code, intent.params
        )
        if len(held_seat.untold) < REFUSED_KEPT:
            held_seat.untold.append(
                refused_told(
                    tick=tick,
                    action_id=intent.action_id,
                    code=intent.code,
                    params=intent.params,
                    reason=intent.reason,
                )
            )

    def _keep_sessions(self) -> None:
        for number, held_seat in self.seats.items():
            process = held_seat.agent.process
            if process is not None:
                cache.set(
                    _session_key(self.public_id, number),
                    {"bank": process.bank_left, "steps": held_seat.agent.step},
                    SESSION_SECONDS,
                )

    # -- faults, forfeits, the end ------------------------------------------------

    def _fault(self, number: int, fault: BotFault) -> None:
        held_seat = self.seats.get(number)
        if held_seat is not None:
            log = held_seat.agent.log
            log.fault, log.fault_detail = fault.reason, fault.detail[:300]
            if fault.stderr:
                log.stderr = fault.stderr
            self._drop(number)
        self._forfeit(number, forfeit_reason(fault))

    def _forfeit(self, number: int, reason: str) -> None:
        forfeit_seat(match_id=self.match_id, seat=number, reason=reason)

    def _drop(self, number: int) -> None:
        """Stop one seat's process and write its log."""
        held_seat = self.seats.pop(number, None)
        if held_seat is not None:
            self._stop(held_seat)
            self._write_log(held_seat)

    @staticmethod
    def _stop(held_seat: HeldSeat) -> None:
        """Kill the process and its sandbox (no database: may run in a thread)."""
        close_agent(held_seat.agent)

    def close(self) -> None:
        """game_over to each process if the match is over; stop all; write logs."""
        match = Match.objects.filter(pk=self.match_id).first()
        if match is not None and match.is_over and self.game is not None:
            result = match.result or {}
            over = {
                "type": "game_over",
                "result": {key: result.get(key) for key in ("placements", "winners")}
                | {
                    "forfeited": sorted(
                        s.number for s in match.seats.all() if s.forfeited
                    )
                },
                "reason": match.end_reason or "completed",
            }
            for number, held_seat in self.seats.items():
                events = [
                    e for _, batch in self._events_since(held_seat.told) for e in batch
                ]
                held_seat.agent.finish(
                    {
                        **over,
                        "observation": self.game.observe(match.state, number),
                        "events": view_events(events, number),
                    }
                )
        # The sandboxes are torn down in parallel (mostly waiting on the
        # kernel); the logs are written here, on this thread's connection.
        held, self.seats = list(self.seats.values()), {}
        closing = [
            threading.Thread(target=self._stop, args=(h,), name="rt-bot-close")
            for h in held
        ]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()
        for held_seat in held:
            self._write_log(held_seat)

    def _write_log(self, held_seat: HeldSeat) -> None:
        """Add what this process did to the seat's match log (the owner's)."""
        add_to_match_log(
            match_id=self.match_id,
            seat=held_seat.number,
            version=held_seat.version,
            log=held_seat.agent.log,
        )


@dataclass
class DriveReport:
    ticks: int = 0
    applied: int = 0
    faults: dict[int, str] = field(default_factory=dict)
    stopped: str = ""


def live_realtime_drive(
    *,
    match_id: int,
    still_held: Callable[[], bool] = lambda: True,
    sleep: Callable[[float], None] = time.sleep,
    max_ticks: int | None = None,
) -> DriveReport:
    """Hold the uploaded seats of a live real-time match until it ends.

    Tick ``t`` is played at ``started_at + t * REALTIME_BOT_TICK`` by the wall
    clock; a driver that fell behind (a slow bot, a loaded worker) skips ahead
    to the next tick instead of playing old ones late. ``max_ticks`` bounds
    the ticks (tests; a resumed driver carries on from the wall clock).
    Always stops every process it started.
    """
    report = DriveReport()
    table = LiveRealtimeTable(match_id=match_id, still_held=still_held)
    try:
        if not table.open():
            report.stopped = "nothing to drive"
            return report
        match = Match.objects.get(pk=match_id)
        assert match.started_at is not None  # table.open(): it is in play
        step = tick_seconds()
        tick = wall_tick(match) + 1
        while max_ticks is None or report.ticks < max_ticks:
            if not still_held():
                report.stopped = "lease lost"
                break
            at = match.started_at + timedelta(seconds=tick * step)
            wait = (at - timezone.now()).total_seconds()
            if wait > 0:
                sleep(wait)
            try:
                done = table.tick(tick)
            except LeaseLost:
                report.stopped = "lease lost"
                break
            if done is None:
                report.stopped = "match over"
                break
            report.ticks += 1
            report.applied += done.applied
            report.faults.update(done.faults)
            tick = max(tick + 1, wall_tick(match) + 1)
        else:
            report.stopped = "tick limit"
    finally:
        table.close()
    return report
