"""An uploaded bot in a match seat: its version, process, hello, log, forfeit.

One reading for every host of uploaded bots, so they agree on which version a
seat plays and when it must forfeit instead: the all-bot match runner
(:func:`bots.services.bot_match_play`), the decision-at-a-time host of
turn-based tables with people (:mod:`bots.live_turns`) and the match-long
host of real-time tables with people (:mod:`bots.realtime_tables`). The two
live hosts run a seat in several processes over a match (one a decision, or
a fresh one after a worker died), so they also share how a process's log is
added to the seat's and how a faulty seat forfeits.
"""

from __future__ import annotations

import contextlib
import logging

from django.db.models import F

from bots import conf
from bots.models import BotMatchLog, BotVersion
from bots.protocol.match import MatchPlayer, ProcessAgent
from bots.protocol.seat_log import REFUSED_KEPT, SeatLog
from bots.protocol.transport import storable_text
from bots.storage import bot_data_dir, version_dir
from gameplay.agents import uploaded_version_id
from gameplay.errors import NotActive
from gameplay.models import Match, Seat
from gameplay.rules import get_game
from gameplay.services import match_forfeit

logger = logging.getLogger(__name__)

#: Forfeit reasons of a seat whose bot cannot be run at all.
VERSION_MISSING = "bot version missing"
BOT_DISABLED = "bot disabled"
#: The tail of a seat's stderr its match log keeps, over all its processes.
STDERR_KEEP = 64 * 1024


def unplayable_reason(version: BotVersion | None) -> str:
    """Why ``version`` cannot play (the forfeit reason), or "" when it can."""
    if version is None or not version_dir(version).is_dir():
        return VERSION_MISSING
    if version.bot.disabled:
        return BOT_DISABLED
    return ""


def seat_version(seat: Seat) -> tuple[BotVersion | None, str]:
    """The uploaded bot version a seat plays, or None and the forfeit reason."""
    vid = uploaded_version_id(seat.agent)
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
        data_dir=bot_data_dir(version.bot_id),
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


def close_agent(agent: ProcessAgent) -> None:
    """Stop the process and its sandbox, keeping a fault's stderr tail (the
    close reads what is left of stderr). No database: may run in a thread."""
    fault_stderr = agent.log.stderr
    agent.close()
    agent.log.stderr = agent.log.stderr or fault_stderr


def add_to_match_log(
    *, match_id: int, seat: int, version: BotVersion, log: SeatLog
) -> None:
    """Add what one process of the seat did to its match log (the owner's view).

    Counts add up, the stderr tail grows to ``STDERR_KEEP``, refused intents
    to ``REFUSED_KEPT``, and a fault is the seat's. Every string a bot wrote
    is made storable first (no NUL, no lone surrogate).
    """
    row, _ = BotMatchLog.objects.get_or_create(
        match_id=match_id, seat=seat, defaults={"version": version}
    )
    BotMatchLog.objects.filter(pk=row.pk).update(
        decisions=F("decisions") + log.decisions,
        think_ms=F("think_ms") + log.think_ms,
        refused_count=F("refused_count") + log.refused_count,
    )
    fields = []
    if log.refused:
        kept = list(row.refused or [])
        room = REFUSED_KEPT - len(kept)
        if room > 0:
            row.refused = kept + [list(r) for r in log.refused[:room]]
            fields.append("refused")
    if log.fault:
        row.fault = log.fault
        row.fault_detail = storable_text(log.fault_detail)[:300]
        fields += ["fault", "fault_detail"]
    if log.stderr:
        row.stderr = (row.stderr + storable_text(log.stderr))[-STDERR_KEEP:]
        fields.append("stderr")
    if fields:
        row.save(update_fields=fields)


def forfeit_seat(*, match_id: int, seat: int, reason: str) -> None:
    """The uploaded bot in ``seat`` forfeits (nothing if the match is over)."""
    with contextlib.suppress(NotActive):
        match_forfeit(match_id=match_id, seat_number=seat, reason=reason)
    logger.info(
        "match %s: uploaded bot in seat %s forfeits (%s)", match_id, seat, reason
    )
