"""Who plays a seat that no person holds: agent names, read and written here.

A seat's ``agent`` is empty (a person, or an open seat), ``builtin:<bot>``
(a built-in bot of ``gameplay.rules.bots``, which this app drives) or
``bot:<version id>`` (one version of an uploaded bot, which the bots app
drives in its sandbox). Every app spells, builds and reads those names
through this module, so a prefix is written once and a malformed name is
refused (``AgentNameError``) instead of being taken for something else. The
lobby's choice of an uploaded bot (``upload:<bot id>``: the bot, not a
version) and of a connected bot (``connected:<username>``: a bot account,
seated as its own user) are form values spelled here too. Pure: no Django.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

BUILTIN_PREFIX = "builtin:"
UPLOADED_PREFIX = "bot:"
UPLOAD_CHOICE_PREFIX = "upload:"
CONNECTED_CHOICE_PREFIX = "connected:"

# The built-in bot that plays on for a person who left a table of three or
# more (and for an uploaded bot that failed in a bots-only match).
TAKEOVER_BOT = "heuristic"

_BOT_NAME = re.compile(r"[a-z0-9_]+")


class AgentNameError(ValueError):
    """Not an agent name: an unknown prefix, an empty or odd bot name, or a
    version id that is not a plain number."""


class AgentKind(enum.StrEnum):
    BUILTIN = "builtin"
    UPLOADED = "uploaded"


def _version_id(text: str) -> int | None:
    """``text`` as a version or bot id: ASCII digits, no leading zero."""
    if text.isascii() and text.isdigit() and str(int(text)) == text:
        return int(text)
    return None


@dataclass(frozen=True)
class Agent:
    """A parsed agent name: a built-in bot by name, or an uploaded version."""

    kind: AgentKind
    bot: str = ""  # the built-in bot's name
    version_id: int = 0  # the uploaded bot version's id

    @classmethod
    def parse(cls, text: str) -> Agent:
        """The agent ``text`` names; ``AgentNameError`` if it names none."""
        if text.startswith(BUILTIN_PREFIX):
            name = text.removeprefix(BUILTIN_PREFIX)
            if not _BOT_NAME.fullmatch(name):
                raise AgentNameError(f"not a built-in bot's name: {text!r}")
            return cls(AgentKind.BUILTIN, bot=name)
        if text.startswith(UPLOADED_PREFIX):
            version_id = _version_id(text.removeprefix(UPLOADED_PREFIX))
            if version_id is None:
                raise AgentNameError(f"not a bot version's id: {text!r}")
            return cls(AgentKind.UPLOADED, version_id=version_id)
        raise AgentNameError(f"unknown seat agent {text!r}")

    @property
    def is_builtin(self) -> bool:
        return self.kind == AgentKind.BUILTIN

    @property
    def is_uploaded(self) -> bool:
        return self.kind == AgentKind.UPLOADED

    def __str__(self) -> str:
        if self.is_builtin:
            return builtin_agent(self.bot)
        return uploaded_agent(self.version_id)


def parse_agent(text: str) -> Agent | None:
    """The agent of a seat's ``agent`` field: None for a person or an open
    seat (empty), ``AgentNameError`` for anything that is not a name."""
    return Agent.parse(text) if text else None


def builtin_agent(name: str) -> str:
    """The agent name of built-in bot ``name`` (``builtin:<name>``)."""
    return f"{BUILTIN_PREFIX}{name}"


def uploaded_agent(version_id: int) -> str:
    """The agent name of uploaded bot version ``version_id`` (``bot:<id>``)."""
    return f"{UPLOADED_PREFIX}{version_id}"


def is_builtin(agent: str) -> bool:
    """Whether a stored agent name is a built-in bot's (names are checked when
    they are stored, so the prefix tells)."""
    return agent.startswith(BUILTIN_PREFIX)


def is_uploaded(agent: str) -> bool:
    """Whether a stored agent name is an uploaded bot version's."""
    return agent.startswith(UPLOADED_PREFIX)


def builtin_name(agent: str) -> str:
    """The bot's name in a built-in agent name (``AgentNameError`` otherwise)."""
    parsed = Agent.parse(agent)
    if not parsed.is_builtin:
        raise AgentNameError(f"not a built-in bot: {agent!r}")
    return parsed.bot


def uploaded_version_id(agent: str) -> int | None:
    """The version id in an uploaded bot's agent name; None for any other
    agent (a person, a built-in bot, a malformed name)."""
    if not is_uploaded(agent):
        return None
    return _version_id(agent.removeprefix(UPLOADED_PREFIX))


def upload_choice(bot_id: int) -> str:
    """The lobby's form value for seating uploaded bot ``bot_id``."""
    return f"{UPLOAD_CHOICE_PREFIX}{bot_id}"


def is_upload_choice(value: str) -> bool:
    return value.startswith(UPLOAD_CHOICE_PREFIX)


def upload_choice_bot_id(value: str) -> int | None:
    """The bot id in a lobby choice of an uploaded bot; None if it is none."""
    if not is_upload_choice(value):
        return None
    return _version_id(value.removeprefix(UPLOAD_CHOICE_PREFIX))


def connected_choice(username: str) -> str:
    """The lobby's form value for seating the connected bot ``username``."""
    return f"{CONNECTED_CHOICE_PREFIX}{username}"


def is_connected_choice(value: str) -> bool:
    return value.startswith(CONNECTED_CHOICE_PREFIX)


def connected_choice_username(value: str) -> str | None:
    """The bot account's username in a lobby choice of a connected bot; None
    if it is none (another value, or an empty name)."""
    if not is_connected_choice(value):
        return None
    return value.removeprefix(CONNECTED_CHOICE_PREFIX) or None


class SeatWithAgent(Protocol):
    """What the seat rules here read (``gameplay.models.Seat`` has it)."""

    agent: str
    replaced_by_bot: bool
    forfeited: bool


def plays_builtin(seat: SeatWithAgent) -> bool:
    """A built-in bot plays the seat: its own, or the takeover bot of a
    person who left."""
    return is_builtin(seat.agent) or seat.replaced_by_bot


def builtin_bot_of(seat: SeatWithAgent) -> str:
    """The name of the built-in bot that plays the seat (``plays_builtin``)."""
    return TAKEOVER_BOT if seat.replaced_by_bot else builtin_name(seat.agent)


def is_uploaded_bot(seat: SeatWithAgent) -> bool:
    """An uploaded bot still playing its own seat (not forfeited, not replaced).

    Unlike built-in bots these run elsewhere (a sandboxed worker) and can fail
    to move, so their seats are subject to clocks and claims like people's.
    """
    return is_uploaded(seat.agent) and not seat.replaced_by_bot and not seat.forfeited


def played_by_bots_runner(seats: Iterable[SeatWithAgent]) -> bool:
    """A match of bots only, one of them uploaded: the bots app's runner plays
    it whole, every seat included (real-time games on its virtual clock), so
    nothing here moves it: no built-in bot ticks, no server timers. The same
    rule as ``bots.services.bot_matches_waiting_for_a_runner``.
    """
    seats = list(seats)
    return all(seat.agent for seat in seats) and any(
        is_uploaded(seat.agent) for seat in seats
    )
