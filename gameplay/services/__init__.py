"""Match writes: create, start, act, finish, resign, abort, forfeit, clocks, bots.

One writer per match: every function that changes a match locks its row with
``select_for_update`` (``locking``), re-validates through the rules engine,
applies, bumps ``version`` and appends to the ordered log inside one
transaction. Broadcasting and the "match finished" announcement happen only
after the commit (``hooks``), so nobody is ever told about a move that was
rolled back.

This package's public API is re-exported here for the other apps, views,
consumers and tasks; the modules inside import each other directly:

- ``matches``: create, start, abort; seat specs and labels
- ``moves``: every step of play (people, bot seats, batches, server runs)
- ``finish``: result, forfeits, resignations, the finished-match outbox
- ``timeouts``: expired clocks and due table timers
- ``bot_turns``: built-in bots at live tables
- ``connections``: presence writes and the grace period
- ``claims``: claiming a win (or an abort) against absent opponents
- ``hooks``, ``locking``: after-commit work and the row lock
"""

from gameplay.services.bot_turns import (
    builtin_ask,
    match_play_builtin_bots,
    match_play_builtin_seat,
    match_realtime_bots_tick,
)
from gameplay.services.claims import match_claim
from gameplay.services.connections import (
    seat_connected,
    seat_disconnected,
    seat_grace_expired,
    seats_seen,
    seats_sweep_absent,
)
from gameplay.services.finish import (
    announce_finished_matches,
    final_result,
    match_announce_finished,
    match_forfeit,
    match_resign,
)
from gameplay.services.hooks import after_step
from gameplay.services.matches import (
    SeatSpec,
    bot_seat_label,
    distinct_seat_labels,
    match_abort,
    match_announce_started,
    match_create,
    match_start,
    repeated_bot_error,
    seed_commitment,
    set_uploaded_bot_identity,
    validate_agent,
    validate_time_control,
)
from gameplay.services.moves import (
    MAX_ACTION_ID_LENGTH,
    ActOutcome,
    RefusedIntent,
    SystemMove,
    check_act_input,
    match_act,
    match_record_steps,
    match_system_act,
    match_system_act_many,
    match_system_commit,
    match_system_intents,
    raise_if_called_off,
    simultaneous_version_ok,
    track_timers,
)
from gameplay.services.timeouts import match_apply_timers, match_expire_clocks
from gameplay.services.vacation import vacation_end, vacation_start

__all__ = [
    "MAX_ACTION_ID_LENGTH",
    "ActOutcome",
    "RefusedIntent",
    "SeatSpec",
    "SystemMove",
    "after_step",
    "announce_finished_matches",
    "bot_seat_label",
    "builtin_ask",
    "check_act_input",
    "distinct_seat_labels",
    "final_result",
    "match_abort",
    "match_act",
    "match_announce_finished",
    "match_announce_started",
    "match_apply_timers",
    "match_claim",
    "match_create",
    "match_expire_clocks",
    "match_forfeit",
    "match_play_builtin_bots",
    "match_play_builtin_seat",
    "match_realtime_bots_tick",
    "match_record_steps",
    "match_resign",
    "match_start",
    "match_system_act",
    "match_system_act_many",
    "match_system_commit",
    "match_system_intents",
    "raise_if_called_off",
    "repeated_bot_error",
    "seat_connected",
    "seat_disconnected",
    "seat_grace_expired",
    "seats_seen",
    "seats_sweep_absent",
    "seed_commitment",
    "set_uploaded_bot_identity",
    "simultaneous_version_ok",
    "track_timers",
    "vacation_end",
    "vacation_start",
    "validate_agent",
    "validate_time_control",
]
