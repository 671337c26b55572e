"""The database side of an all-bot match a bots worker plays.

:func:`bots.services.bot_match_play` plays a stored match between bots;
:class:`DatabaseHost` plugs the protocol's
:class:`~bots.protocol.match.MatchPlayer` into gameplay's match services. The
match is played at machine speed in this process and written with
``match_record_steps``, many moves per transaction (the same log, checks and
finish path as every other match). Built-in seats (and
seats a built-in bot took over after a forfeit) are played by gameplay's own
``match_play_builtin_bots``, so they behave exactly as in live play; several
built-in seats that must choose at once think in parallel, in a pool of worker
processes (:class:`~gameplay.bot_thinking.ParallelThinker`, for bots that think
long: ISMCTS). Their moves are then read back from the log and shown to the
uploaded bots.
"""

from __future__ import annotations

import time
from typing import Any

from gameplay.bot_thinking import ParallelThinker
from gameplay.errors import NotActive
from gameplay.models import Match, MatchAction, MatchStatus
from gameplay.services import (
    ActOutcome,
    match_play_builtin_bots,
    match_record_steps,
)

#: Write the buffered moves at least this often, so spectators and the
#: database see progress in a long match (a Duelo match fits in one write).
FLUSH_STEPS = 200
FLUSH_SECONDS = 2.0


class DatabaseHost:
    """A :class:`~bots.protocol.match.MatchHost` backed by one stored match."""

    def __init__(self, *, match_id: int, version: int) -> None:
        self.match_id = match_id
        self.version = version  # what the database holds
        self.buffer: list[tuple[int | None, str]] = []
        self.last_flush = time.monotonic()
        #: Thinks the built-in seats of a simultaneous choice in parallel;
        #: its processes start on the first batch that pays, end in close().
        self.thinker = ParallelThinker()

    def record(self, seat: int | None, action_id: str) -> None:
        self.buffer.append((seat, action_id))
        if (
            len(self.buffer) >= FLUSH_STEPS
            or time.monotonic() - self.last_flush > FLUSH_SECONDS
        ):
            self.flush()

    def flush(self, *, forfeit: tuple[int, str] | None = None) -> ActOutcome | None:
        """Write the buffered moves (and a forfeit) in one transaction."""
        if not self.buffer and forfeit is None:
            return None
        outcome = match_record_steps(
            match_id=self.match_id,
            steps=self.buffer,
            expected_version=self.version,
            forfeit=forfeit,
        )
        self.version = outcome.version
        self.buffer = []
        self.last_flush = time.monotonic()
        return outcome

    def _moves_since_flush(self) -> list[tuple[int | None, str]]:
        """Moves others (gameplay's built-in bot service) logged after ours."""
        moves = list(
            MatchAction.objects.filter(match_id=self.match_id, version__gt=self.version)
            .order_by("version")
            .values_list("seat", "action_id")
        )
        self.version += len(moves)
        return moves

    def play_builtin(self, *, seat: int, state: Any, version: int) -> list[Any]:
        self.flush()
        match_play_builtin_bots(match_id=self.match_id, think=self.thinker)
        return self._moves_since_flush()

    def forfeit(self, *, seat: int, reason: str) -> tuple[bool, list[Any]]:
        try:
            outcome = self.flush(forfeit=(seat, reason))
        except NotActive:
            return True, []
        assert outcome is not None
        if outcome.finished:
            return True, []
        return False, self._moves_since_flush()

    def close(self) -> None:
        """Stop the thinking processes (the player calls it, however it ends)."""
        self.thinker.close()

    def finish(self) -> dict[str, Any]:
        self.flush()
        match = Match.objects.get(pk=self.match_id)
        if match.status != MatchStatus.FINISHED:
            raise RuntimeError(
                f"match {self.match_id} is {match.status} after the runner finished"
            )
        return dict(match.result or {})
