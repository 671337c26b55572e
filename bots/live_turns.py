"""Uploaded bots in live matches with people: one sandboxed process a decision.

An all-bot match is played start to finish in one worker task
(:func:`bots.services.bot_match_play`). A match with a person in it moves at
the person's pace, which may be minutes per move, so a bot process held for the
whole match would pin a worker slot for as long. Instead, whenever an
uploaded bot's seat is to act, gameplay announces it
(``gameplay.signals.uploaded_bot_turn``) and a task on the ``bots`` queue runs
:func:`bot_live_turns`: it starts the bot in the sandbox, says ``hello``, sends
one ``act`` (with every event the seat may see since the deal, so a bot that
tracks events rebuilds its memory), submits the answer through
``match_system_commit`` (at the version it was asked at: other seats'
commits meanwhile do not make a simultaneous choice stale) and closes the
process. The step count and what is left of the bank carry over between
decisions, so the protocol's time limits hold for the match as a whole.
When several uploaded bots must act at once (simultaneous commits), they are
started and asked in parallel, on the same state, and their answers go in
together (:func:`bot_live_decide_many`).

A bot that faults (crash, timeout, malformed or illegal answer) forfeits at
once, as in bot matches. If no worker can run it (no sandbox, no bots worker)
the seat simply does not move: gameplay's clocks and claim rules then apply to
it like to an absent person, so nobody is stuck at the table.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from django.core.cache import cache

from bots.models import BotVersion
from bots.protocol.match import ProcessAgent, forfeit_reason
from bots.protocol.transport import BotFault
from bots.seats import (
    add_to_match_log,
    close_agent,
    forfeit_seat,
    seat_agent,
    seat_hello,
    seat_version,
)
from gameplay.enqueue import bot_move_pace
from gameplay.errors import IllegalMove, NotActive, NotYourTurn, StaleVersion
from gameplay.models import Match, MatchAction, Seat
from gameplay.rules import get_game
from gameplay.selectors import uploaded_bot_seats_to_act
from gameplay.services import (
    ActOutcome,
    SystemMove,
    match_system_act_many,
    match_system_commit,
)

logger = logging.getLogger(__name__)

#: How long the bank and step count of a seat are remembered between decisions.
SESSION_SECONDS = 7 * 24 * 3600
#: Decisions, and seconds, one task spends before handing on to a fresh task:
#: a decision may take start-up plus per-move time plus bank (16 s by
#: default), and the task's soft limit is 280 s.
MAX_DECISIONS_PER_TASK = 60
TASK_BUDGET_SECONDS = 200.0
#: Upper bound of the pause before a paced move (a misconfiguration must not
#: hold a bots worker for long).
MAX_PACE_SECONDS = 5.0


@dataclass(frozen=True)
class LiveTurn:
    """What one decision did, for the task's return value and the tests."""

    seat: int
    action: str = ""
    fault: str = ""
    #: Seconds from starting the bot to its move being in (clean-up excluded).
    answer_s: float | None = None


def has_people(*, match_id: int) -> bool:
    """Whether a person sits at the match (else the all-bot runner plays it)."""
    return Seat.objects.filter(match_id=match_id, agent="").exists()


def _session_key(match_id: int, seat: int) -> str:
    return f"bots:live:{match_id}:{seat}"


def _seat_events(match_id: int) -> list[dict]:
    """Every logged event in order; ``view_events`` later keeps the seat's view."""
    events: list[dict] = []
    for batch in (
        MatchAction.objects.filter(match_id=match_id)
        .order_by("version")
        .values_list("events", flat=True)
    ):
        events.extend(batch or [])
    return events


def _forfeit(match_id: int, seat: int, reason: str) -> LiveTurn:
    forfeit_seat(match_id=match_id, seat=seat, reason=reason)
    return LiveTurn(seat=seat, fault=reason)


@dataclass
class _Ask:
    """One uploaded-bot seat's decision in the making."""

    seat: Seat
    version: BotVersion
    agent: ProcessAgent
    hello: dict
    session: dict
    events: list
    action: str = ""
    started: float = 0.0
    error: BaseException | None = None


def _prepare(*, match: Match, seat: Seat, events: list) -> _Ask | LiveTurn:
    """Everything a decision needs from the database, read before it runs."""
    version, reason = seat_version(seat)
    if version is None:
        return _forfeit(match.pk, seat.number, reason)
    agent = seat_agent(version, seat.number)
    hello = seat_hello(match, seat.number, agent)
    session = cache.get(_session_key(match.pk, seat.number)) or {}
    return _Ask(
        seat=seat,
        version=version,
        agent=agent,
        hello=hello,
        session=session,
        events=events,
    )


def _think(ask: _Ask, match: Match) -> None:
    """Start the bot, greet it, ask it (no database: may run in a thread)."""
    agent = ask.agent
    ask.started = time.perf_counter()
    try:
        agent.launch()
        assert agent.process is not None
        agent.process.bank_left = float(
            ask.session.get("bank", agent.time_control.bank)
        )
        agent.step = int(ask.session.get("steps", 0))
        agent.greet(ask.hello)
        ask.action = agent.decide(
            get_game(match.game),
            match.state,
            ask.seat.number,
            ask.events,
            match.version,
        )
    except BotFault as fault:
        agent.log.fault = fault.reason
        agent.log.fault_detail = fault.detail
        if fault.stderr:
            agent.log.stderr = fault.stderr
    except BaseException as exc:  # SandboxUnavailable: raised by the caller
        ask.error = exc


def _keep_session(ask: _Ask, match: Match) -> None:
    process = ask.agent.process
    if process is not None:
        cache.set(
            _session_key(match.pk, ask.seat.number),
            {"bank": process.bank_left, "steps": ask.agent.step},
            SESSION_SECONDS,
        )


def _close(ask: _Ask) -> None:
    close_agent(ask.agent)


def _wind_down(ask: _Ask, match: Match) -> LiveTurn | None:
    """After the close: the log, and the forfeit of a bot that faulted."""
    add_to_match_log(
        match_id=match.pk, seat=ask.seat.number, version=ask.version, log=ask.agent.log
    )
    if ask.agent.log.fault:
        reason = forfeit_reason(BotFault(ask.agent.log.fault))
        return _forfeit(match.pk, ask.seat.number, reason)
    return None


def _pace(match: Match) -> None:
    # Paced like built-in bots' moves (BOT_MOVE_DELAY after the previous move,
    # thinking time included), so the person can follow them.
    pause = bot_move_pace(match)
    if pause:
        time.sleep(min(pause, MAX_PACE_SECONDS))


def bot_live_decide(*, match: Match, seat: Seat) -> LiveTurn | None:
    """One decision of one uploaded-bot seat; None when the match moved on.

    Raises :class:`~bots.sandbox.SandboxUnavailable` when bots cannot run on
    this worker (the task retries later; meanwhile the seat's clock runs).
    """
    ask = _prepare(match=match, seat=seat, events=_seat_events(match.pk))
    if isinstance(ask, LiveTurn):
        return ask
    outcome: LiveTurn | None = None
    try:
        _think(ask, match)
        if ask.error is not None:
            raise ask.error
        _keep_session(ask, match)
        if not ask.agent.log.fault:
            _pace(match)
            # The move goes in before the sandbox is torn down: the person
            # waits for the answer, not for the clean-up.
            try:
                # At the version it thought at: others' commits meanwhile (a
                # built-in bot's, a person's) leave a simultaneous choice valid.
                match_system_commit(
                    match_id=match.pk,
                    seat_number=seat.number,
                    action_id=ask.action,
                    expected_version=match.version,
                )
                answered = time.perf_counter() - ask.started
                outcome = LiveTurn(
                    seat=seat.number, action=ask.action, answer_s=answered
                )
            except (StaleVersion, NotYourTurn, NotActive, IllegalMove):
                outcome = None  # someone moved meanwhile; the caller looks again
    finally:
        _close(ask)
    return _wind_down(ask, match) or outcome


def bot_live_decide_many(*, match: Match, seats: list[Seat]) -> list[LiveTurn]:
    """Several uploaded-bot seats that must act at once, asked in parallel.

    Each bot runs in its own sandbox, all started together and asked on the
    same state (one thread each: they wait on their processes), so the table
    waits for the slowest bot, not for the sum. Their answers go in together
    (``match_system_act_many``, each re-validated); a bot that faulted
    forfeits after the others' answers are in. Empty when the match moved on.
    """
    events = _seat_events(match.pk)
    asks: list[_Ask] = []
    turns: list[LiveTurn] = []
    for seat in seats:
        ask = _prepare(match=match, seat=seat, events=events)
        if isinstance(ask, LiveTurn):
            turns.append(ask)
        else:
            asks.append(ask)
    if turns:
        return turns  # a forfeit changed the match: the caller looks again
    try:
        threads = [
            threading.Thread(target=_think, args=(ask, match), name="bot-live-ask")
            for ask in asks
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for ask in asks:
            if ask.error is not None:
                raise ask.error
        for ask in asks:
            _keep_session(ask, match)
        answered = [ask for ask in asks if not ask.agent.log.fault]
        if answered:
            _pace(match)
            try:
                applied = match_system_act_many(
                    match_id=match.pk,
                    moves=[SystemMove(a.seat.number, a.action) for a in answered],
                    expected_version=match.version,
                )
            except StaleVersion:
                # Another seat committed while these thought (a built-in bot
                # choosing at the same time, a person): each answer may still
                # stand by the simultaneous rule, so the bots are not asked
                # (and their sandboxes started) again for the same choice.
                applied = _commit_each(match, answered)
            except (NotYourTurn, NotActive):
                applied = []
            now = time.perf_counter()
            turns += [
                LiveTurn(seat=a.seat.number, action=a.action, answer_s=now - a.started)
                for a in answered[: len(applied)]
            ]
    finally:
        closing = [threading.Thread(target=_close, args=(ask,)) for ask in asks]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()
    for ask in asks:
        fault = _wind_down(ask, match)
        if fault is not None:
            turns.append(fault)
    return turns


def _commit_each(match: Match, answered: list[_Ask]) -> list[ActOutcome]:
    """The answers one by one at the version they were chosen at
    (``match_system_commit``), up to the first one refused."""
    applied: list[ActOutcome] = []
    for ask in answered:
        try:
            applied.append(
                match_system_commit(
                    match_id=match.pk,
                    seat_number=ask.seat.number,
                    action_id=ask.action,
                    expected_version=match.version,
                )
            )
        except (StaleVersion, NotYourTurn, NotActive, IllegalMove):
            break
    return applied


def bot_live_turns(*, match_id: int) -> list[LiveTurn]:
    """Make every move that is an uploaded bot's in a match with people.

    Idempotent: it looks at the match as it is now and does nothing when no
    uploaded bot is to act (or when nobody but bots sits there: the all-bot
    runner plays those matches).
    """
    if not has_people(match_id=match_id):
        return []
    turns: list[LiveTurn] = []
    started = time.monotonic()
    for _ in range(MAX_DECISIONS_PER_TASK):
        if time.monotonic() - started > TASK_BUDGET_SECONDS:
            break  # the task queues a fresh one for what is left
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            break
        seats = uploaded_bot_seats_to_act(match=match)
        if not seats:
            break
        if len(seats) > 1:
            turns += bot_live_decide_many(match=match, seats=seats)
            continue
        turn = bot_live_decide(match=match, seat=seats[0])
        if turn is not None:
            turns.append(turn)
    logger.debug(
        "match %s: %d live bot decisions in %.2f s",
        match_id,
        len(turns),
        time.monotonic() - started,
    )
    return turns
