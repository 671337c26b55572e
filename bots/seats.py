"""An uploaded bot in a match seat: its version, its sandboxed process, its hello.

One reading for every host of uploaded bots, so they agree on which version a
seat plays and when it must forfeit instead: the all-bot match runner
(:func:`bots.services.bot_match_play`), the decision-at-a-time host of
turn-based tables with people (:mod:`bots.live_turns`) and the match-long
host of real-time tables with people (:mod:`bots.realtime_tables`).
"""

from __future__ import annotations

from bots import conf
from bots.models import BotVersion
from bots.protocol.match import MatchPlayer, ProcessAgent
from bots.storage import version_dir
from gameplay.models import Match, Seat
from gameplay.rules import get_game

#: Forfeit reasons of a seat whose bot cannot be run at all.
VERSION_MISSING = "bot version missing"
BOT_DISABLED = "bot disabled"


def agent_version_id(agent: str) -> int | None:
    """The version id of a ``bot:<version id>`` seat agent; None for any other."""
    if agent.startswith("bot:") and agent[4:].isdigit():
        return int(agent[4:])
    return None


def unplayable_reason(version: BotVersion | None) -> str:
    """Why ``version`` cannot play (the forfeit reason), or "" when it can."""
    if version is None or not version_dir(version).is_dir():
        return VERSION_MISSING
    if version.bot.disabled:
        return BOT_DISABLED
    return ""


def seat_version(seat: Seat) -> tuple[BotVersion | None, str]:
    """The uploaded bot version a seat plays, or None and the forfeit reason."""
    vid = agent_version_id(seat.agent)
    version = (
        BotVersion.objects.select_related("bot").filter(pk=vid).first()
        if vid is not None
        else None
    )
    reason = unplayable_reason(version)
    return (None, reason) if reason else (version, "")


def seat_agent(version: BotVersion, seat_number: int) -> ProcessAgent:
    """The sandboxed process agent of ``version`` in seat ``seat_number``, with
    the configured sandbox and time control (not started yet)."""
    return ProcessAgent(
        version_dir(version),
        seat=seat_number,
        label=version.agent,
        config=conf.sandbox_config(),
        time_control=conf.time_control(),
        allow_unsandboxed=conf.allow_unsandboxed(),
    )


def seat_hello(match: Match, seat_number: int, agent: ProcessAgent) -> dict:
    """The protocol's hello for the seat, as a bot match would send it."""
    return MatchPlayer(
        game=get_game(match.game),
        state=match.state,
        agents={seat_number: agent},
        host=None,  # type: ignore[arg-type]  # only hello() is used
        config=match.config,
    ).hello(seat_number)
