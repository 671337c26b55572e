"""Exceptions shared by every game engine.

They live in their own module so that callers (services, bots, the simulator) can
catch one family of errors without importing a particular game.
"""

from __future__ import annotations


class GameError(Exception):
    """A caller misused an engine (unknown game, foreign state, bad request)."""


class InvalidConfig(GameError):
    """A configuration option is unknown, of the wrong type or out of range."""


class IllegalAction(GameError):
    """An action was refused: wrong seat, wrong phase, unknown or malformed id.

    The engine raises it before touching anything, so the caller's state object is
    exactly as it was and the move can simply be retried.
    """
