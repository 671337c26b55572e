"""The contract every game engine implements, plus helpers shared by all of them.

An engine is a stateless object: every method takes a plain JSON-able ``state``
dict and returns new data, so the same engine instance serves live matches, bot
matches, replays and simulations concurrently. See ``docs/engine.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from gameplay.rules.errors import GameError, IllegalAction, InvalidConfig, param_value

State = dict[str, Any]
Event = dict[str, Any]
Action = dict[str, Any]


@runtime_checkable
class Game(Protocol):
    """What the platform may call on a game engine.

    ``legal_action_ids`` is the fast path for bots and simulations; it must return
    exactly the ids of ``legal_actions`` in the same order. Seat ``None`` is the
    table itself: a real-time game's table steps (``docs/engine.md``) are asked
    for and applied with it, and a turn-based game, which has none, answers it
    with an empty menu and ``IllegalAction``.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    rules_version: str

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]: ...

    def setup(self, config: dict[str, Any], seed: int) -> State: ...

    def actors(self, state: State) -> list[int]: ...

    def legal_actions(self, state: State, seat: int | None) -> list[Action]: ...

    def legal_action_ids(self, state: State, seat: int | None) -> list[str]: ...

    def apply(
        self, state: State, seat: int | None, action_id: str
    ) -> tuple[State, list[Event]]: ...

    def observe(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def result(self, state: State) -> dict[str, Any] | None: ...

    def is_over(self, state: State) -> bool: ...

    def timeout_action(self, state: State, seat: int) -> str: ...

    def clone(self, state: State) -> State: ...

    def determinize(self, state: State, seat: int, rng_seed: int) -> State: ...


@runtime_checkable
class TimedGame(Game, Protocol):
    """An engine with server-side timers, an optional part of the contract
    (``docs/engine.md``): the platform asks ``timers`` only of engines that have
    it, and applies each timer's action when it is due."""

    def timers(self, state: State) -> list[dict[str, Any]]: ...


# Every engine's final phase: ``is_over`` reads it.
OVER = "over"


class EngineBase:
    """The parts of the contract that every engine implements word for word.

    Each game's engine class derives from this and adds its own rules; what is
    here depends only on conventions all four keep: the state carries its
    ``rules_version``, the final phase is ``OVER``, ``state["result"]`` holds
    winners, placements, scores (lists or numbers) and a reason, and every menu
    is ordered so that its first entry is the documented timeout default (each
    class docstring says what that default is in its game).
    """

    id: str
    rules_version: str
    # Each game's own: its config check and its menus (the ``Game`` contract).
    validate_config: Callable[[dict[str, Any]], dict[str, Any]]
    legal_action_ids: Callable[[State, int | None], list[str]]

    def _check(self, state: Any) -> None:
        """GameError for anything but a state of this game and rules version."""
        if not isinstance(state, dict) or state.get("rules_version") != (
            self.rules_version
        ):
            found = state.get("rules_version") if isinstance(state, dict) else None
            raise GameError(
                f"not a {self.id} state of rules version {self.rules_version} "
                f"(got {found!r})"
            )

    def _setup_config(self, config: dict[str, Any], seed: Any) -> dict[str, Any]:
        """``setup``'s checks: the normalized config, and an integer seed."""
        cfg = self.validate_config(config)
        if type(seed) is not int:
            raise InvalidConfig(
                "seed_not_integer",
                f"seed must be an integer, got {seed!r}",
                value=param_value(seed),
            )
        return cfg

    def result(self, state: State) -> dict[str, Any] | None:
        """A copy of the final result (None while the game goes on)."""
        r = state["result"]
        if r is None:
            return None
        return {
            "winners": list(r["winners"]),
            "placements": list(r["placements"]),
            "scores": {
                k: (list(v) if isinstance(v, list) else v)
                for k, v in r["scores"].items()
            },
            "reason": r["reason"],
        }

    def is_over(self, state: State) -> bool:
        phase: str = state["phase"]
        return phase == OVER

    def timeout_action(self, state: State, seat: int) -> str:
        """The documented default when ``seat``'s clock runs out: the menu's
        first entry (the class docstring of each game says what it is)."""
        ids = self.legal_action_ids(state, seat)
        if not ids:
            raise IllegalAction(
                "no_decision", f"seat {seat} has no decision to make now"
            )
        return ids[0]


def event(
    type_: str,
    public: dict[str, Any] | None = None,
    private: dict[str, dict[str, Any]] | None = None,
) -> Event:
    """Build an event in the one shape every game uses.

    ``private`` is keyed by the seat number as a string so a JSON round trip gives
    back an identical dict.
    """
    return {"type": type_, "public": public or {}, "private": private or {}}


def view_events(events: list[Event], seat: int | None) -> list[Event]:
    """What ``seat`` may see of ``events``: the public part plus its own private part.

    Spectators (``seat`` None) get ``private`` as an empty dict. The result is built
    from the two allowed parts only, never by deleting other seats' secrets from a
    copy, so a new private field can never leak by accident.
    """
    key = None if seat is None else str(seat)
    out = []
    for ev in events:
        own = ev["private"].get(key) if key is not None else None
        out.append({"type": ev["type"], "public": ev["public"], "private": own or {}})
    return out
