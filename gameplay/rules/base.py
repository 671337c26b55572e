"""The contract every game engine implements, plus helpers shared by all of them.

An engine is a stateless object: every method takes a plain JSON-able ``state``
dict and returns new data, so the same engine instance serves live matches, bot
matches, replays and simulations concurrently. See ``docs/engine.md``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

State = dict[str, Any]
Event = dict[str, Any]
Action = dict[str, Any]


@runtime_checkable
class Game(Protocol):
    """What the platform may call on a game engine.

    ``legal_action_ids`` is the fast path for bots and simulations; it must return
    exactly the ids of ``legal_actions`` in the same order.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    rules_version: str

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]: ...

    def setup(self, config: dict[str, Any], seed: int) -> State: ...

    def actors(self, state: State) -> list[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def legal_action_ids(self, state: State, seat: int) -> list[str]: ...

    def apply(
        self, state: State, seat: int, action_id: str
    ) -> tuple[State, list[Event]]: ...

    def observe(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def result(self, state: State) -> dict[str, Any] | None: ...

    def is_over(self, state: State) -> bool: ...

    def timeout_action(self, state: State, seat: int) -> str: ...

    def clone(self, state: State) -> State: ...

    def determinize(self, state: State, seat: int, rng_seed: int) -> State: ...


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
