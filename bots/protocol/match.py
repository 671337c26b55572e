"""Protocol v1, match level: one match between N agents, driven by the engine.

This module is the part of the bot runner that knows games but not Django: the
server (``bots.match_host``) and the local ``botmatch`` command both drive matches
through :class:`MatchPlayer`, so an author's bot meets exactly the messages,
limits and forfeit rules it will meet on the server. Where the two differ -
recording moves, who plays the built-in seats, what a forfeit does to the
match - is behind the small :class:`MatchHost` interface.

Uploaded bots are :class:`ProcessAgent` (a sandboxed process behind
:class:`~bots.protocol.transport.BotProcess`); built-in bots are
:class:`BuiltinAgent`, which decide in-process from the same seat view
(:func:`gameplay.rules.bots.decision_context`). See ``docs/protocol/bots.md``.

Real-time games (the engine's ``realtime`` flag) have no turns; their matches
run on the virtual clock of :mod:`gameplay.rules.ticks`
(:meth:`MatchPlayer._play_ticks`): at each tick every seat that may act,
uploaded or built-in, is asked for one intent or ``pass`` from the same state,
the intents are applied in the tick's rotated seat order, and an intent an
earlier one made stale is refused (and recorded) without changing anything.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from bots.protocol.seat_log import REFUSED_KEPT, SeatLog, refused_told
from bots.protocol.transport import BotFault, BotProcess, TimeControl
from bots.sandbox import SandboxConfig
from gameplay.agents import TAKEOVER_BOT, builtin_agent
from gameplay.bot_thinking import builtin_seed
from gameplay.moverule import is_realtime
from gameplay.rules import Event, Game, IllegalAction, State, view_events
from gameplay.rules.ticks import END, PASS, tick_order, tick_seed

PROTOCOL_VERSION = 1
#: The bot that plays on for a forfeited seat at tables of three or more (the
#: same one gameplay's services use for people who leave).
#: A safety net far above any real game length: an engine bug must not spin.
MAX_STEPS = 20_000
#: How long a finished bot may take to read its game_over line.
GAME_OVER_GRACE_S = 0.2
#: How long a bot told game_over has to save its data directory and exit
#: before it is stopped (docs/bots.md). A bot that exits at once costs
#: nothing; one that lingers holds its slot this long, beside the recording.
GAME_OVER_EXIT_S = 1.0
#: Ticks of the virtual clock a real-time match may last before the table's
#: ``end`` step ends it (the match's time limit): built-in bots finish a
#: 4-player Kung Fu (2009) exam in 700-1,300 ticks, bigger tables sooner.
MAX_TICKS = 5_000


def forfeit_reason(fault: BotFault) -> str:
    """The short reason a match stores for a bot's forfeit (e.g. ``bot timeout``)."""
    return f"bot {fault.reason}"


class Agent(Protocol):
    """One seat's player: an uploaded bot process or a built-in bot."""

    log: SeatLog

    def launch(self) -> None: ...

    def greet(self, hello: dict[str, Any]) -> None: ...

    def decide(
        self,
        game: Game,
        state: State,
        seat: int,
        events: list[Event],
        version: int,
        *,
        tick: int | None = None,
        refused: list[dict[str, Any]] | None = None,
    ) -> str: ...

    def finish(self, message: dict[str, Any]) -> None: ...

    def close(self) -> None: ...


class ProcessAgent:
    """An uploaded bot, run in the sandbox and spoken to in JSON lines."""

    def __init__(
        self,
        bot_dir: str | os.PathLike[str],
        *,
        seat: int,
        label: str,
        config: SandboxConfig | None = None,
        time_control: TimeControl | None = None,
        allow_unsandboxed: bool = False,
        data_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.bot_dir = bot_dir
        #: The bot's kept data directory (server matches; None: no data).
        self.data_dir = data_dir
        self.config = config
        self.time_control = time_control or TimeControl()
        self.allow_unsandboxed = allow_unsandboxed
        self.log = SeatLog(seat=seat, agent=label)
        self.process: BotProcess | None = None
        #: Told game_over: closing then waits GAME_OVER_EXIT_S for it to exit.
        self.told_over = False
        #: ``act`` messages sent so far; a host that asks the seat again in a
        #: fresh process (a live table) carries it over, as the bank.
        self.step = 0

    def launch(self) -> None:
        """Start the process (raises SandboxUnavailable when refused)."""
        self.process = BotProcess.start(
            self.bot_dir,
            config=self.config,
            time_control=self.time_control,
            allow_unsandboxed=self.allow_unsandboxed,
            data_dir=self.data_dir,
        )

    def greet(self, hello: dict[str, Any]) -> None:
        assert self.process is not None
        answer = self.process.handshake(hello)
        if answer.get("ready") is not True:
            self._fault(
                "malformed_output", 'the answer to hello must be {"ready": true}'
            )

    def decide(
        self,
        game: Game,
        state: State,
        seat: int,
        events: list[Event],
        version: int,
        *,
        tick: int | None = None,
        refused: list[dict[str, Any]] | None = None,
    ) -> str:
        assert self.process is not None
        legal = game.legal_actions(state, seat)
        tc = self.time_control
        self.step += 1
        message = {
            "type": "act",
            "step": self.step,
            "version": version,
            # Every seat choosing now, this one included: more than one means
            # they choose at the same time, none seeing the others' choices.
            "actors": game.actors(state),
            "observation": game.observe(state, seat),
            "events": view_events(events, seat),
            "legal": legal,
            "deadline_ms": round((tc.per_move + self.process.bank_left) * 1000),
            "per_move_ms": round(tc.per_move * 1000),
            "bank_ms": round(self.process.bank_left * 1000),
        }
        if tick is not None:
            # Real time: the virtual clock's tick, and this seat's intents of
            # earlier ticks that the engine refused since its previous act.
            message["tick"] = tick
            message["refused"] = refused or []
        started = time.perf_counter()
        answer = self.process.request(message)
        self.log.think_s += time.perf_counter() - started
        self.log.decisions += 1
        action = answer.get("action")
        if not isinstance(action, str):
            self._fault(
                "malformed_output", 'an answer must be {"action": "<legal id>"}'
            )
        if not any(option["id"] == action for option in legal):
            self._fault(
                "illegal_action", f"{action[:80]!r} is not among the legal actions"
            )
        return action

    def finish(self, message: dict[str, Any]) -> None:
        """Send game_over; best effort, the match is decided already.

        Closing is left to the caller, which sends every seat its game_over
        first so that all bots wind down in parallel.
        """
        if self.process is not None:
            with contextlib.suppress(BotFault):
                self.process.send(
                    message, deadline=time.monotonic() + GAME_OVER_GRACE_S
                )
                self.told_over = True

    def close(self) -> None:
        """Stop the bot. One told game_over gets GAME_OVER_EXIT_S to write its
        data and leave (a busy worker can leave it unscheduled for longer than
        the short grace of a faulted bot, and a bot stopped half-way through
        writing keeps a truncated file)."""
        if self.process is not None:
            grace = GAME_OVER_EXIT_S if self.told_over else None
            self.process.close(grace=grace)
            self.log.stderr = self.process.stderr_tail

    def _fault(self, reason: str, detail: str) -> NoReturn:
        assert self.process is not None
        self.process.close()
        raise BotFault(reason, detail, stderr=self.process.stderr_tail)


class BuiltinAgent:
    """A built-in bot deciding in-process from the seat's view, never the state."""

    def __init__(self, name: str, *, seat: int, match_seed: int) -> None:
        from gameplay.rules.bots import get_bot

        self.bot = get_bot(name)
        self.match_seed = match_seed
        self.log = SeatLog(seat=seat, agent=builtin_agent(name))

    def launch(self) -> None:
        return None

    def greet(self, hello: dict[str, Any]) -> None:
        return None

    def decide(
        self,
        game: Game,
        state: State,
        seat: int,
        events: list[Event],
        version: int,
        *,
        tick: int | None = None,
        refused: list[dict[str, Any]] | None = None,
    ) -> str:
        from gameplay.rules.bots import decision_context

        started = time.perf_counter()
        # On the virtual clock the seed is the tick's, as in gameplay.rules.ticks.
        seed = (
            builtin_seed(self.match_seed, version, seat)
            if tick is None
            else tick_seed(self.match_seed, tick, seat)
        )
        ctx = decision_context(game, state, seat, seed)
        action = self.bot.choose(ctx)
        self.log.think_s += time.perf_counter() - started
        self.log.decisions += 1
        return action

    def finish(self, message: dict[str, Any]) -> None:
        return None

    def close(self) -> None:
        return None


class MatchHost(Protocol):
    """Where a match lives: in memory (``botmatch``) or in the database."""

    def record(self, seat: int | None, action_id: str) -> None:
        """An agent's move the player applied; the host stores it.

        ``seat`` None is the table's own step of a real-time game (``check``,
        ``end``), which the player applies on the virtual clock.
        """

    def play_builtin(self, *, seat: int, state: State, version: int) -> list[Any]:
        """Let built-in (or takeover) seats move; return the ``(seat, id)`` made."""

    def forfeit(self, *, seat: int, reason: str) -> tuple[bool, list[Any]]:
        """Forfeit ``seat``; return (match over, moves others made meanwhile)."""

    def finish(self) -> dict[str, Any]:
        """Store what is left; return the result (placements, winners, ...)."""


@dataclass
class MatchOutcome:
    result: dict[str, Any]
    logs: list[SeatLog]
    steps: int
    end_reason: str = "completed"
    faults: dict[int, str] = field(default_factory=dict)
    #: Real time: ticks played, and every refused intent (tick, seat, id, reason).
    ticks: int = 0
    refused: list[tuple[int, int, str, str]] = field(default_factory=list)


class MatchPlayer:
    """Plays one match to its end, whatever the agents do.

    Every agent fault forfeits that seat through the host and play goes on
    (three or more players) or ends (two players); the player never raises for
    a bot's behaviour, only for infrastructure failures such as a refused
    sandbox, after closing every process it started.
    """

    def __init__(
        self,
        *,
        game: Game,
        state: State,
        agents: dict[int, Agent],
        host: MatchHost,
        config: dict[str, Any],
        version: int = 0,
        match_seed: int = 0,
        max_ticks: int = MAX_TICKS,
    ) -> None:
        self.game = game
        self.state = state
        self.agents = agents
        self.host = host
        self.config = config
        self.version = version
        self.match_seed = match_seed
        self.forfeited: set[int] = set()
        self.takeovers: dict[int, BuiltinAgent] = {}
        self.faults: dict[int, str] = {}
        self.pending: dict[int, list[Event]] = {seat: [] for seat in agents}
        self.ended = False
        self.end_reason = "completed"
        self.realtime = is_realtime(game)
        self.max_ticks = max_ticks
        self.tick = 0
        self.refused: list[tuple[int, int, str, str]] = []
        #: Per seat: its refused intents not yet told in an ``act``.
        self.untold: dict[int, list[dict[str, Any]]] = {}

    def hello(self, seat: int) -> dict[str, Any]:
        agent = self.agents[seat]
        tc = getattr(agent, "time_control", TimeControl())
        return {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "game": self.game.id,
            "rules_version": self.game.rules_version,
            "seat": seat,
            "players": self.config.get("players", len(self.agents)),
            "config": self.config,
            "time": {
                "startup_ms": round(tc.startup * 1000),
                "per_move_ms": round(tc.per_move * 1000),
                "bank_ms": round(tc.bank * 1000),
            },
        }

    def play(self) -> MatchOutcome:
        try:
            return self._play()
        finally:
            self._close_all()
            close = getattr(self.host, "close", None)
            if close is not None:
                close()  # e.g. the database host's thinking processes

    def _close_all(self) -> None:
        for thread in self._start_closing():
            thread.join()

    def _start_closing(self) -> list[threading.Thread]:
        """Close every agent in its own thread; the caller joins them.

        Closing waits for the bot to exit and tears its sandbox down, mostly
        waiting on the kernel, so the closes overlap each other and the
        recording of the result. Closing twice is harmless.
        """
        threads = [
            threading.Thread(target=agent.close, name="bot-close")
            for agent in self.agents.values()
        ]
        for thread in threads:
            thread.start()
        return threads

    def _play(self) -> MatchOutcome:
        # Start every process first so their interpreters boot in parallel.
        for agent in self.agents.values():
            agent.launch()
        for seat, agent in sorted(self.agents.items()):
            if self.ended:
                break
            try:
                agent.greet(self.hello(seat))
            except BotFault as fault:
                self._forfeit(seat, fault)
        if self.realtime:
            self._play_ticks()
        else:
            self._play_turns()
        # The bots hear the result computed here by the services' own rule, so
        # they can wind down while the host records the match.
        players = int(self.config.get("players") or len(self.agents))
        told = local_result(
            self.game, self.state, players=players, forfeited=self.forfeited
        )
        over = {
            "type": "game_over",
            "result": {
                key: told[key] for key in ("placements", "winners", "forfeited")
            },
            "reason": self.end_reason,
        }
        for seat, agent in self.agents.items():
            if seat in self.forfeited:
                continue
            agent.finish(
                {
                    **over,
                    "observation": self.game.observe(self.state, seat),
                    "events": view_events(self.pending.get(seat, []), seat),
                }
            )
        closing = self._start_closing()
        try:
            result = self.host.finish()
        finally:
            for thread in closing:
                thread.join()
        return MatchOutcome(
            result=result,
            logs=[agent.log for agent in self.agents.values()],
            steps=self.version,
            end_reason=self.end_reason,
            faults=dict(self.faults),
            ticks=self.tick,
            refused=list(self.refused),
        )

    def _play_turns(self) -> None:
        """A turn-based (or simultaneous) match: ask whoever is to act."""
        steps = 0
        while not self.ended and not self.game.is_over(self.state):
            steps += 1
            if steps > MAX_STEPS:
                raise RuntimeError(f"match exceeded {MAX_STEPS} steps")
            actors = self.game.actors(self.state)
            if not actors:
                break
            hosted = [
                s for s in actors if self.agents.get(s) is None or s in self.forfeited
            ]
            if hosted:
                others = [s for s in actors if s not in hosted]
                if others:
                    # Choosing at the same time: the bots are asked while the
                    # host plays the built-in seats, not after them.
                    play = functools.partial(self._play_hosted, hosted[0])
                    self._ask(others, meanwhile=play)
                else:
                    self._play_hosted(hosted[0])
                continue
            self._ask(actors)

    def _play_hosted(self, seat: int) -> None:
        """The host's built-in (or takeover) seats' moves, applied here."""
        moves = self.host.play_builtin(
            seat=seat, state=self.state, version=self.version
        )
        if not moves:
            raise RuntimeError(f"no built-in move for seat {seat}")
        for mover, action_id in moves:
            self._apply(mover, action_id)

    def _play_ticks(self) -> None:
        """A real-time match on the virtual clock (``gameplay.rules.ticks``).

        Each tick: when nobody may act the table takes its step (a claim is
        checked); otherwise every seat that may act is asked, all on the same
        state and in parallel, and the answers are applied in the order of
        ``tick_order`` (seat ``tick mod players`` first). ``pass`` changes
        nothing and is not recorded; an intent the engine refuses (one an
        earlier intent of the tick made stale) is recorded as refused, with the
        reason, and the seat hears of it in its next ``act``. A seat without an
        agent of its own (built-in, or forfeited and taken over) is played by
        a built-in agent seeded by the tick, exactly as ``ticks.run`` seeds it,
        so a match of built-in bots here is the same match as there. After
        ``max_ticks`` the table's ``end`` step ends the match (after its
        pending steps: a claim being checked is checked first).
        """
        game = self.game
        players = int(self.config.get("players") or len(self.agents))
        while (
            not self.ended
            and not game.is_over(self.state)
            and self.tick < self.max_ticks
        ):
            actors = game.actors(self.state)
            if not actors:
                step = game.legal_action_ids(self.state, None)[0]
                self._apply(None, step)
                self.host.record(None, step)
                self.tick += 1
                continue
            order = tick_order(actors, self.tick, players)
            answers = self._ask_all(order)
            for seat in order:
                answer = answers[seat]
                if isinstance(answer, BotFault) or self.ended:
                    continue
                if answer == PASS:
                    continue
                try:
                    self._apply(seat, answer)
                except IllegalAction as exc:
                    self._refuse(seat, answer, exc)
                    continue
                self.host.record(seat, answer)
                if game.is_over(self.state):
                    break
            for seat in order:
                answer = answers[seat]
                if isinstance(answer, BotFault) and not self.ended:
                    self._forfeit(seat, answer)
            self.tick += 1
        # Time is up: the table ends the match (as ticks.time_up does: a claim
        # still being checked is checked first).
        for _ in range(1000):
            if self.ended or game.is_over(self.state):
                break
            table = game.legal_action_ids(self.state, None)
            if not table:
                break
            step = END if END in table else table[0]
            self._apply(None, step)
            self.host.record(None, step)

    def _agent_for(self, seat: int) -> Agent:
        """The seat's agent; a built-in one for hosted or forfeited seats."""
        agent = self.agents.get(seat)
        if agent is None or seat in self.forfeited:
            takeover = self.takeovers.get(seat)
            if takeover is None:
                takeover = self.takeovers[seat] = BuiltinAgent(
                    TAKEOVER_BOT, seat=seat, match_seed=self.match_seed
                )
            return takeover
        return agent

    def _ask_all(self, seats: list[int]) -> dict[int, str | BotFault]:
        """One tick's intents: every seat asked on the same state, in parallel."""
        answers: dict[int, str | BotFault] = {}
        state, version, tick = self.state, self.version, self.tick
        told = {}
        for seat in seats:
            told[seat] = (self.pending.get(seat, []), self.untold.pop(seat, []))
            self.pending[seat] = []

        def ask(seat: int) -> None:
            events, refused = told[seat]
            try:
                answers[seat] = self._agent_for(seat).decide(
                    self.game,
                    state,
                    seat,
                    events,
                    version,
                    tick=tick,
                    refused=refused,
                )
            except BotFault as fault:
                answers[seat] = fault

        processes = [s for s in seats if isinstance(self._agent_for(s), ProcessAgent)]
        threads = [
            threading.Thread(target=ask, args=(seat,), name=f"bot-ask-{seat}")
            for seat in processes[1:]
        ]
        for thread in threads:
            thread.start()
        if processes:
            ask(processes[0])
        for seat in seats:
            if seat not in processes:
                ask(seat)  # built-in: in-process, a fraction of a millisecond
        for thread in threads:
            thread.join()
        return answers

    def _refuse(self, seat: int, action_id: str, exc: IllegalAction) -> None:
        reason = str(exc)
        self.refused.append((self.tick, seat, action_id, reason))
        agent = self.agents.get(seat)
        if agent is not None and seat not in self.forfeited:
            agent.log.note_refused(self.tick, action_id, reason, exc.code, exc.params)
            untold = self.untold.setdefault(seat, [])
            if len(untold) < REFUSED_KEPT:
                untold.append(
                    refused_told(
                        tick=self.tick,
                        action_id=action_id,
                        code=exc.code,
                        params=exc.params,
                        reason=reason,
                    )
                )

    def _ask(
        self, seats: list[int], *, meanwhile: Callable[[], None] | None = None
    ) -> None:
        """Ask every agent in ``seats`` (all to act now) and apply the answers.

        Several seats choosing at once (simultaneous commits) are asked in
        parallel, one thread each, all on the same state and version: each
        bot's time is its own, so three bots thinking a second each cost a
        second, not three. ``meanwhile`` runs in this thread while they think:
        the host's built-in seats choosing at the same time (which think in
        processes of their own, see ``bots.match_host``), whose moves are applied
        first. The answers are then applied in seat order, each re-validated
        by the engine; one that an earlier answer made illegal is dropped and
        that seat is asked again. Events that arrived while a seat thought are
        kept for its next ``act``.
        """
        answers: dict[int, str | BotFault] = {}
        state, version = self.state, self.version
        told = {seat: list(self.pending.get(seat, [])) for seat in seats}

        def ask(seat: int) -> None:
            try:
                answers[seat] = self.agents[seat].decide(
                    self.game, state, seat, told[seat], version
                )
            except BotFault as fault:
                answers[seat] = fault

        if len(seats) == 1 and meanwhile is None:
            ask(seats[0])
        else:
            threads = [
                threading.Thread(target=ask, args=(seat,), name=f"bot-ask-{seat}")
                for seat in seats
            ]
            for thread in threads:
                thread.start()
            try:
                if meanwhile is not None:
                    meanwhile()
            finally:
                for thread in threads:
                    thread.join()
        alone = len(seats) == 1 and meanwhile is None
        for seat in seats:
            answer = answers[seat]
            if isinstance(answer, BotFault) or self.ended:
                continue
            if seat not in self.game.actors(self.state):
                continue  # an earlier answer changed the decision: ask again
            seen = self.pending.get(seat, [])
            self.pending[seat] = seen[len(told[seat]) :]
            try:
                self._apply(seat, answer)
            except IllegalAction:
                if alone:
                    raise
                self.pending[seat] = seen  # changed by an earlier answer: again
                continue
            self.host.record(seat, answer)
        for seat in seats:
            answer = answers[seat]
            if isinstance(answer, BotFault) and not self.ended:
                self._forfeit(seat, answer)

    def _apply(self, seat: int | None, action_id: str) -> None:
        self.state, events = self.game.apply(self.state, seat, action_id)
        self.version += 1
        for pending in self.pending.values():
            pending.extend(events)

    def _forfeit(self, seat: int, fault: BotFault) -> None:
        agent = self.agents[seat]
        agent.close()
        agent.log.fault = fault.reason
        agent.log.fault_detail = fault.detail[:300]
        if fault.stderr:
            agent.log.stderr = fault.stderr
        self.forfeited.add(seat)
        self.faults[seat] = fault.reason
        reason = forfeit_reason(fault)
        ended, moves = self.host.forfeit(seat=seat, reason=reason)
        for mover, action_id in moves:
            self._apply(mover, action_id)
        if ended:
            self.ended = True
            self.end_reason = reason


def local_result(
    game: Game, state: State, *, players: int, forfeited: set[int]
) -> dict[str, Any]:
    """Placements as the match services compute them: forfeited seats last."""
    engine = game.result(state) if game.is_over(state) else None
    placements = list((engine or {}).get("placements") or [1] * players)
    if forfeited:
        survivors = [s for s in range(players) if s not in forfeited]
        ranked = [0] * players
        for s in survivors:
            ranked[s] = 1 + sum(1 for o in survivors if placements[o] < placements[s])
        for s in forfeited:
            ranked[s] = len(survivors) + 1
        placements = ranked
    return {
        "placements": placements,
        "winners": [s for s in range(players) if placements[s] == 1],
        "forfeited": sorted(forfeited),
        "engine": engine,
    }


class LocalHost:
    """An in-memory match: what ``botmatch`` and validation games use.

    Forfeits follow the match services' rule: with two players, or one player
    left, the match ends; otherwise the takeover bot plays the seat on.
    """

    def __init__(self, *, game: Game, players: int, match_seed: int) -> None:
        self.game = game
        self.players = players
        self.match_seed = match_seed
        self.forfeited: set[int] = set()
        self.builtins: dict[int, BuiltinAgent] = {}
        self.player: MatchPlayer | None = None

    def bind(self, player: MatchPlayer) -> None:
        self.player = player

    def record(self, seat: int | None, action_id: str) -> None:
        return None

    def play_builtin(self, *, seat: int, state: State, version: int) -> list[Any]:
        agent = self.builtins.get(seat)
        if agent is None:
            agent = self.builtins[seat] = BuiltinAgent(
                TAKEOVER_BOT, seat=seat, match_seed=self.match_seed
            )
        return [(seat, agent.decide(self.game, state, seat, [], version))]

    def forfeit(self, *, seat: int, reason: str) -> tuple[bool, list[Any]]:
        self.forfeited.add(seat)
        remaining = self.players - len(self.forfeited)
        return (self.players <= 2 or remaining <= 1), []

    def finish(self) -> dict[str, Any]:
        assert self.player is not None
        return local_result(
            self.game,
            self.player.state,
            players=self.players,
            forfeited=self.forfeited,
        )


def play_local_match(
    *,
    game: Game,
    config: dict[str, Any],
    seed: int,
    agents: dict[int, Agent],
) -> MatchOutcome:
    """Play a whole match in memory (no database), e.g. for ``botmatch``."""
    clean = game.validate_config({**config, "players": len(agents)})
    state = game.setup(clean, seed)
    host = LocalHost(game=game, players=len(agents), match_seed=seed)
    player = MatchPlayer(
        game=game,
        state=state,
        agents=agents,
        host=host,
        config=clean,
        match_seed=seed,
    )
    host.bind(player)
    return player.play()
