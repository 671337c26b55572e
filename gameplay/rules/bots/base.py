"""What a built-in bot is given, and the small protocol every bot implements.

A bot must be exactly as blind as a human in the same seat, so it never receives the
real game state. The host (live play, bot ladder, simulator) builds a
:class:`DecisionContext` from the real state with :func:`decision_context`; the
context carries the seat's observation, its legal menu, and a sampler of full states
that are consistent with that observation (determinizations). Search bots plan on
those samples instead of on the truth.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gameplay.rules.base import Game, State

MASK63 = (1 << 63) - 1


@dataclass(frozen=True)
class DecisionContext:
    """Everything a bot may use to choose one action.

    ``sample_state(k)`` returns a full state that ``seat`` cannot tell apart from
    the real one; different ``k`` give different samples and equal ``k`` equal
    ones. ``seed`` makes the choice reproducible: a bot draws all its randomness
    from it, never from the global ``random`` module or the clock.
    """

    game: Game
    seat: int
    observation: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    sample_state: Callable[[int], State] = field(repr=False)
    seed: int

    @property
    def legal_ids(self) -> list[str]:
        """The legal action ids in menu order (the first is the timeout default)."""
        return [a["id"] for a in self.legal_actions]


def decision_context(game: Game, state: State, seat: int, seed: int) -> DecisionContext:
    """Build the context for ``seat``'s decision from the real ``state``.

    Only the host calls this. The sampler closes over the real state because the
    engine's ``determinize`` needs it, but the engine keeps fixed only what the
    seat's observation shows and re-deals every hidden card from ``rng_seed``, so
    two states with the same observation yield the same samples.
    """
    if type(seed) is not int:
        raise ValueError(f"seed must be an integer, got {seed!r}")
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(
            f"seat {seat} has no decision to make now (actors: {game.actors(state)})"
        )
    observation = game.observe(state, seat)

    def sample_state(rng_seed: int) -> State:
        return game.determinize(state, seat, rng_seed)

    return DecisionContext(
        game=game,
        seat=seat,
        observation=observation,
        legal_actions=legal,
        sample_state=sample_state,
        seed=seed,
    )


class Bot(Protocol):
    """A built-in bot: a name, and a deterministic choice given the context."""

    name: str

    def choose(self, ctx: DecisionContext) -> str: ...


def make_rng(seed: int) -> random.Random:
    """A private generator for one decision, seeded only by ``seed``.

    ``random.Random`` seeded with an integer gives the same sequence on every
    platform, and being a private instance it never touches the global generator
    that other code (or other bots in the same process) might use.
    """
    return random.Random(seed & MASK63)


def check_options(
    bot: str, options: dict[str, Any], allowed: dict[str, tuple[type, ...]]
) -> None:
    """Reject unknown options and wrong types with a message naming what is allowed."""
    unknown = sorted(k for k in options if k not in allowed)
    if unknown:
        names = ", ".join(sorted(allowed)) or "none"
        raise ValueError(
            f"unknown option(s) for bot {bot!r}: {', '.join(unknown)}; allowed: {names}"
        )
    for k, v in options.items():
        types = allowed[k]
        if type(v) is bool and bool not in types:
            raise ValueError(f"bot {bot!r} option {k} must be a number, got {v!r}")
        if not isinstance(v, types):
            want = " or ".join(t.__name__ for t in types)
            raise ValueError(f"bot {bot!r} option {k} must be {want}, got {v!r}")
