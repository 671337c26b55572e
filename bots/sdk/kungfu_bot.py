"""Kung Fu Arena bot SDK: protocol v1 in one small, standard-library-only module.

Every bot the platform runs can ``import kungfu_bot`` (the platform puts this file
next to your ``main.py`` unless you ship your own copy). A whole bot is::

    import kungfu_bot

    GAME = "duelo"

    def choose(turn: kungfu_bot.Turn) -> str:
        return turn.legal_ids[0]

    kungfu_bot.run(choose)

``run`` answers the hello, calls ``choose`` for every request to act and sends
back the id it returns, and returns when the game is over. Print debugging output
to ``sys.stderr`` (or use :func:`log`): stdout carries the protocol, and your
stderr is kept for you on the bot page. The full protocol is in
docs/protocol/bots.md.

Real-time games (Kung Fu (2009)) have no turns: you are asked at every tick of
the match's clock (``turn.tick``), at the same moment as every other seat, and
may answer :data:`PASS` (always legal) to do nothing this tick. An intent that
another seat's intent of the same tick made stale is refused and changes
nothing; ``turn.refused`` tells you of it at your next request.
"""

from __future__ import annotations

import json
import sys

# Deliberately no dataclasses or typing imports: every import is paid at each
# bot start, and start-up time counts against the bot's start-up limit.

__all__ = ["PASS", "GameOver", "Hello", "Turn", "log", "run"]

#: Real time: the intent that does nothing this tick (always in the menu).
PASS = "pass"


class Hello:
    """The first message: which game, which seat, the rules and the time limits."""

    __slots__ = ("config", "game", "players", "raw", "rules_version", "seat", "time")

    def __init__(self, raw: dict) -> None:
        self.raw = raw
        self.game: str = raw["game"]
        self.seat: int = raw["seat"]
        self.players: int = raw["players"]
        self.rules_version: str = raw["rules_version"]
        self.config: dict = raw.get("config", {})
        self.time: dict = raw.get("time", {})


class Turn:
    """A request to act: what your seat sees and the actions you may take."""

    __slots__ = (
        "actors",
        "deadline_ms",
        "events",
        "legal",
        "observation",
        "raw",
        "refused",
        "step",
        "tick",
    )

    def __init__(self, raw: dict) -> None:
        self.raw = raw
        self.step: int = raw["step"]
        self.observation: dict = raw["observation"]
        self.events: list = raw["events"]
        self.legal: list = raw["legal"]
        self.deadline_ms: int = raw["deadline_ms"]
        #: Every seat choosing at this moment, yours included.
        self.actors: list = raw.get("actors", [])
        #: Real time: the tick of the match's clock (None in turn-based games).
        self.tick = raw.get("tick")
        #: Real time: your intents refused since your previous request, each
        #: ``{"tick", "action", "code", "params", "reason"}`` (gone stale, e.g.
        #: ``offer_accepted``: an offer accepted by another seat first, or
        #: ``paused``: the game paused by a claim); ``reason`` is English.
        self.refused: list = raw.get("refused", [])

    @property
    def realtime(self) -> bool:
        """True in a real-time game: everyone acts at once, tick by tick."""
        return self.tick is not None

    @property
    def legal_ids(self) -> list:
        """The ids you may answer with, in menu order."""
        return [action["id"] for action in self.legal]


class GameOver:
    """The end: placements per seat (1 = first), winners, forfeited seats."""

    __slots__ = ("observation", "raw", "reason", "result")

    def __init__(self, raw: dict) -> None:
        self.raw = raw
        self.result: dict = raw["result"]
        self.reason: str = raw.get("reason", "")
        self.observation: dict = raw.get("observation", {})


def log(*parts: object) -> None:
    """Print to stderr, which the platform keeps (bounded) for the bot's owner."""
    print(*parts, file=sys.stderr, flush=True)


def _send(message: dict) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def run(choose, *, on_hello=None, on_game_over=None) -> None:
    """Play one match: answer hello, then one action id per request, until the end.

    ``choose(turn)`` must return one of ``turn.legal_ids`` before
    ``turn.deadline_ms``; anything else forfeits the match (see
    docs/protocol/bots.md). ``on_hello(hello)`` and ``on_game_over(game_over)``
    are optional callbacks.
    """
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "act":
            _send({"action": choose(Turn(message))})
        elif kind == "hello":
            if on_hello is not None:
                on_hello(Hello(message))
            _send({"ready": True})
        elif kind == "game_over":
            if on_game_over is not None:
                on_game_over(GameOver(message))
            return
