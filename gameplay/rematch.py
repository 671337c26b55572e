"""Rematches: the same table again, one click from a finished match's results.

A rematch keeps the game, the options, the rating choice, the time control and
the spectator delay, and seats the same bots. Against bots only it starts at
once; with other people it is a table hosted by the player who asked, with
their seats kept open for them: their results panels offer "Join the rematch"
(the old match's frames link to it) and the table starts when they have all
joined. A second request for the same match joins the rematch already open.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_noop as N_

from accounts.models import User
from gameplay import agents, broadcast, lobby, services
from gameplay.catalog import table_options
from gameplay.errors import BadRequest, Forbidden, NotActive
from gameplay.models import Match, MatchStatus, Seat
from gameplay.options import OptionError, clean_table_options
from gameplay.services import SeatSpec


def _kept_options(match: Match) -> dict[str, object]:
    """The match's options that a public table may set, each with a value it
    may have: a server-made match's fixed first seat or stacked deck does not
    carry over into a rematch."""
    kept: dict[str, object] = {}
    public = {option.key for option in table_options(match.game)}
    for key, value in (match.config or {}).items():
        if key not in public:
            continue
        try:
            kept.update(clean_table_options(match.game, {key: value}))
        except OptionError:
            continue
    return kept


def _bot_label(seat: Seat) -> str:
    """An uploaded bot keeps its name; built-in bots are numbered afresh."""
    return "" if agents.is_builtin(seat.agent) else seat.label


@transaction.atomic
def rematch_request(*, match_id: int, user: User) -> Match:
    """The rematch of ``match_id`` for ``user``: created, joined or already theirs."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None or not match.is_over:
        raise NotActive(N_("a rematch can be asked for only when the match is over"))
    seats = list(match.seats.select_related("user").order_by("number"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise Forbidden(N_("only the players of this match can ask for a rematch"))
    existing = (
        match.rematches.filter(status__in=[MatchStatus.WAITING, MatchStatus.ACTIVE])
        .order_by("created_at")
        .first()
    )
    if existing is not None:
        return _join(existing, user)
    # Everyone in the same seat as before; the other people's seats stay open.
    specs = [
        SeatSpec(user=user)
        if seat.user_id == user.pk
        else SeatSpec()
        if seat.user_id is not None
        else SeatSpec(agent=seat.agent, label=_bot_label(seat))
        for seat in seats
    ]
    config = _kept_options(match)
    rematch = services.match_create(
        game=match.game,
        seats=specs,
        config=config,
        rated=match.rated,
        time_control=match.time_control,
        host=user,
        spectator_delay=match.spectator_delay,
    )
    rematch.rematch_of = match
    rematch.save(update_fields=["rematch_of"])
    old_pk = match.pk
    # The other players' results panels learn of it with the old match's frame.
    transaction.on_commit(lambda: broadcast.match_changed(match_id=old_pk))
    if all(spec.user is not None or spec.agent for spec in specs):
        return services.match_start(match_id=rematch.pk)
    return rematch


def _join(rematch: Match, user: User) -> Match:
    """Take the seat kept for ``user`` at an open rematch (no-op if seated)."""
    seats = list(rematch.seats.select_for_update().order_by("number"))
    if any(seat.user_id == user.pk for seat in seats):
        return rematch
    if rematch.status != MatchStatus.WAITING:
        raise NotActive(N_("the rematch has already started"))
    try:
        lobby.table_join(match_id=rematch.pk, user=user)
    except BadRequest as exc:
        raise BadRequest(
            N_("cannot join the rematch: %(why)s"), params={"why": exc.message}
        ) from exc
    rematch.refresh_from_db()
    return rematch
