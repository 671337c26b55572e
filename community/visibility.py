"""Who may read which chat line: one rule for the live socket and the history.

Fair play in a hidden-information game: while a rated match is in play, the
players' chat is not shown to spectators (they see the table delayed, and
chat must not undo the delay) and the spectators' chat is not shown to the
players (nobody may whisper hints). Once the match is over, both are open to
all. A private message between two seats is only ever shown to those two.
"""

from __future__ import annotations

from community.models import Channel


def may_read(
    *,
    channel: str,
    seat: int | None,
    to_seat: int | None,
    viewer_seat: int | None,
    rated: bool,
    over: bool,
    system: bool = False,
) -> bool:
    """``viewer_seat``: the seat whose view the reader has (None: spectator).
    System lines (the start, the end) say nothing secret: everyone reads them."""
    if system and channel != Channel.PRIVATE:
        return True
    if channel == Channel.PRIVATE:
        return viewer_seat is not None and viewer_seat in (seat, to_seat)
    in_rated_play = rated and not over
    if channel == Channel.TABLE:
        return viewer_seat is not None or not in_rated_play
    if channel == Channel.SPECTATORS:
        return viewer_seat is None or not in_rated_play
    return False


def may_write(*, channel: str, viewer_seat: int | None, private_allowed: bool) -> bool:
    """Seated players write to the players' chat (and, where the game allows,
    privately to another seat); everyone else to the spectators' chat."""
    if channel == Channel.TABLE:
        return viewer_seat is not None
    if channel == Channel.PRIVATE:
        return viewer_seat is not None and private_allowed
    if channel == Channel.SPECTATORS:
        return viewer_seat is None
    return False
