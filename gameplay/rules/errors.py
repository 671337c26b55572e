"""Exceptions shared by every game engine.

They live in their own module so that callers (services, bots, the simulator) can
catch one family of errors without importing a particular game.

A refused action carries a stable ``code`` and its ``params`` besides the
English ``message``: programs (bots, logs) read the message and the code, and the
site words the refusal in the reader's language from the code (docs/i18n.md).
Each code has one player-facing text, an English message with ``%(name)s``
placeholders filled from the params and marked ``N_`` for the catalogue:
:data:`COMMON_TEXTS` for codes every engine uses, a game package's
``ERROR_TEXTS`` for its own (``gameplay.rules.error_text`` finds either).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from gameplay.rules.meta import N_

# A refusal's params are JSON scalars (they travel in error frames and bodies).
Param = str | int | bool | None

# Params that name a seat by its number: the site words them as the seat's
# player's name (the engines know seats by number only).
SEAT_PARAMS = frozenset({"player"})


class GameError(Exception):
    """A caller misused an engine (unknown game, foreign state, bad request).

    ``code`` and ``params`` name what went wrong for the errors that can reach
    a person (a bad table option, an unknown game); None for a program's
    mistake that only a log reads.
    """

    code: str | None = None
    params: Mapping[str, Param] = MappingProxyType({})


class CodedError(GameError):
    """A refusal a person can meet: a stable ``code`` whose text the site
    words in the reader's language, the English ``message`` (``str(exc)``)
    for programs and logs, and the ``params`` the code's text names."""

    code: str
    params: dict[str, Param]

    def __init__(self, code: str, message: str, **params: Param) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


class InvalidConfig(CodedError):
    """A configuration option is unknown, of the wrong type or out of range.

    The same shape as :class:`IllegalAction`: ``code`` (one of
    :data:`CONFIG_TEXTS`), the English ``message`` (``str(exc)``, for programs
    and logs, naming every detail) and the ``params`` the code's text names.
    A table option can come from a person (a lobby form, the API), so the site
    words the code's text in the reader's language.
    """


class UnknownGame(GameError):
    """No game has this id (a URL, a form or an API call named one)."""

    def __init__(self, game: object, available: list[str]) -> None:
        super().__init__(
            f"unknown game {game!r}; available games: {', '.join(available)}"
        )
        self.code = "unknown_game"
        self.params = {"game": str(game), "available": ", ".join(available)}


class IllegalAction(CodedError):
    """An action was refused: wrong seat, wrong phase, unknown or malformed id.

    The engine raises it before touching anything, so the caller's state object is
    exactly as it was and the move can simply be retried. ``code`` names the
    reason (one of :data:`COMMON_TEXTS` or the game's ``ERROR_TEXTS``);
    ``message`` is the English detail for bots and logs; ``params`` fill the
    code's text.
    """


def param_value(value: object) -> Param:
    """A refused value as a param: itself when a JSON scalar, else its repr
    (a list sent where a number belongs)."""
    if value is None or isinstance(value, str | int | bool):
        return value
    return repr(value)


def config_object(config: object, allowed: tuple[str, ...]) -> dict[str, Any]:
    """``config`` as the table options' dict, refused with
    ``config_not_object`` unless a dict, or ``unknown_options`` when it names
    an option not in ``allowed``.

    Every engine's options check starts this way; the options that follow
    are each game's own."""
    if not isinstance(config, dict):
        raise InvalidConfig(
            "config_not_object", f"config must be a dict, not {type(config).__name__}"
        )
    unknown = sorted(str(k) for k in config if k not in allowed)
    if unknown:
        raise InvalidConfig(
            "unknown_options",
            f"unknown option(s) {', '.join(unknown)}; allowed: {', '.join(allowed)}",
            options=", ".join(unknown),
            allowed=", ".join(allowed),
        )
    return config


def int_option(
    config: Mapping[str, object],
    option: str,
    default: int,
    *,
    low: int,
    high: int,
    detail: str,
) -> int:
    """The whole-number table option ``option`` (``default`` when absent),
    refused with ``option_range`` unless an int from ``low`` to ``high``.

    Every engine checks its number options this way; ``detail`` is the English
    message's start (``"<what> must be from <low> to <high>"``), to which the
    refused value is added. A bool is not a number here (``type(...) is int``).
    """
    value = config.get(option, default)
    if type(value) is not int or not low <= value <= high:
        raise InvalidConfig(
            "option_range",
            f"{detail}, got {value!r}",
            option=option,
            min=low,
            max=high,
            value=param_value(value),
        )
    return value


def players_option(
    config: Mapping[str, object], default: int, *, low: int, high: int, detail: str
) -> int:
    """The table's ``players`` (``default`` when absent), refused with
    ``players_range`` unless an int from ``low`` to ``high``, or with
    ``players_exact`` when the game has one size (``low == high``).

    Every engine checks its player count this way; ``detail`` is the English
    message's start, to which the refused value is added. A bool is not a
    count here (``type(...) is int``).
    """
    players = config.get("players", default)
    if type(players) is int and low <= players <= high:
        return players
    if low == high:
        raise InvalidConfig(
            "players_exact",
            f"{detail}, got {players!r}",
            count=low,
            players=param_value(players),
        )
    raise InvalidConfig(
        "players_range",
        f"{detail}, got {players!r}",
        min=low,
        max=high,
        players=param_value(players),
    )


def bool_option(config: Mapping[str, object], option: str, default: bool) -> bool:
    """The yes-or-no table option ``option`` (``default`` when absent),
    refused with ``option_bool`` unless a bool (not 0 or 1)."""
    value = config.get(option, default)
    if type(value) is not bool:
        raise InvalidConfig(
            "option_bool",
            f"{option} must be true or false, got {value!r}",
            option=option,
            value=param_value(value),
        )
    return value


# Codes every engine may raise, with the text a player reads.
COMMON_TEXTS: dict[str, str] = {
    "malformed_action": N_("'%(action)s' is not a move of this game."),
    "game_over": N_("The game is over: no more moves are accepted."),
    "no_such_seat": N_("There is no such seat at this table."),
    "not_your_turn": N_("It is not your turn: %(player)s is to act."),
    "no_decision": N_("You have no decision to make now."),
    "not_legal": N_("That move (%(action)s) is not legal now."),
}


# Why a configuration (table options, a seed) was refused, with the text a
# person reads. The codes are shared by every engine: the options differ, the
# ways to get one wrong do not. ``option`` is the option's key as the API
# spells it.
CONFIG_TEXTS: dict[str, str] = {
    "unknown_game": N_("There is no game %(game)s. The games are: %(available)s."),
    "config_not_object": N_("The table options must be a JSON object."),
    "unknown_options": N_(
        "Unknown option(s): %(options)s. This game's options are: %(allowed)s."
    ),
    "players_range": N_(
        "This game is for %(min)s to %(max)s players, not %(players)s."
    ),
    "players_exact": N_("This game is for exactly %(count)s players, not %(players)s."),
    "option_bool": N_("The option %(option)s must be yes or no, not %(value)s."),
    "option_range": N_(
        "The option %(option)s must be a whole number from %(min)s to %(max)s, "
        "not %(value)s."
    ),
    "option_choice": N_(
        "The option %(option)s must be one of %(choices)s, not %(value)s."
    ),
    "bad_deck": N_("The stacked cards or dice (%(option)s) do not fit this game."),
    "seed_not_integer": N_("The seed must be a whole number, not %(value)s."),
}
