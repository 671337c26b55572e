"""Writes of duplicate events: create, join, start, and each game's end.

A round: the field is split into tables of the event's size (a built-in bot
fills a seat the field leaves empty: a deal is only the same deal at the same
number of players), one secret seed per deal is drawn and its commitment
published, every table starts deal 1, and par (the event's built-in bot in
every seat) plays every deal at once. When a table's game ends its next deal
starts; when every table and par have played every deal, the round is over:
its seeds are revealed, its games unsealed, and the next round is seated by
the standings (or the event ends).

Every step is idempotent and runs under the round's row lock: the finish
announcement may come twice, and beat's sweep (``duplicate_rounds_sweep``)
replays it for games whose announcement was lost or that were called off.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from typing import cast

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.errors import MatchError, refusal_text
from gameplay.models import Match, MatchStatus
from gameplay.moverule import is_realtime
from gameplay.rules import GameError, available_games, game_meta, get_game
from gameplay.rules.bots import available_bots, bot_plays
from gameplay.services import SeatSpec
from league.duplicate import selectors
from league.duplicate.live import event_changed, live_version
from league.duplicate.models import (
    DuplicateEvent,
    DuplicateGame,
    DuplicatePlayer,
    DuplicateRound,
    EventStatus,
    RoundStatus,
)
from league.duplicate.scoring import seat_order
from league.errors import Conflict, Invalid, NotFound, PermissionDenied

MAX_ROUNDS = 10
MAX_DEALS = 8
# A table's game called off (aborted before the first move, or claimed off
# against absent players) is dealt again this many times in all; after that
# the deal is skipped at that table and gives its players no result.
MAX_ATTEMPTS = 3
DEFAULT_PER_MOVE = 60


def deal_commitment(*, slug: str, round_number: int, deal: int, seed: int) -> str:
    """The published hash of a deal's seed, checkable once the round is over."""
    text = f"{slug}:{round_number}:{deal}:{seed}"
    return hashlib.sha256(text.encode()).hexdigest()


def default_table_size(game: str) -> int:
    tables = game_meta(game).tables
    return tables[2] if tables is not None else 2


def duplicate_event_create(
    *,
    by: User,
    name: str,
    game: str,
    rounds: int = 1,
    deals: int | None = None,
    table_size: int | None = None,
    par_bot: str = "heuristic",
    per_move: int | None = DEFAULT_PER_MOVE,
) -> DuplicateEvent:
    """A duplicate event of ``game``, open for players; ``by`` organises it.

    Deals per round default to the table size, so each player holds every
    seat once a round.
    """
    if not by.is_authenticated:
        raise PermissionDenied(_("sign in to organise a duplicate event"))
    name = (name or "").strip()
    if not name:
        raise Invalid(_("a duplicate event needs a name"))
    if len(name) > 100:
        raise Invalid(_("a name has at most 100 characters"))
    if game not in available_games():
        raise Invalid(_("no playable game %(game)s") % {"game": repr(game)})
    try:
        engine = get_game(game)
    except GameError as exc:
        raise Invalid(refusal_text(exc)) from exc
    size = default_table_size(game) if table_size is None else table_size
    if not (isinstance(size, int) and engine.min_players <= size <= engine.max_players):
        raise Invalid(
            _("%(name)s seats %(min_players)s to %(max_players)s players at a table")
            % {
                "name": engine.name,
                "min_players": engine.min_players,
                "max_players": engine.max_players,
            }
        )
    deals = size if deals is None else deals
    if not (isinstance(deals, int) and 1 <= deals <= MAX_DEALS):
        raise Invalid(
            _("a round has 1 to %(max_deals)s deals") % {"max_deals": MAX_DEALS}
        )
    if not (isinstance(rounds, int) and 1 <= rounds <= MAX_ROUNDS):
        raise Invalid(
            _("an event has 1 to %(max_rounds)s rounds") % {"max_rounds": MAX_ROUNDS}
        )
    if par_bot not in available_bots() or not bot_plays(par_bot, engine):
        playable = [b for b in available_bots() if bot_plays(b, engine)]
        raise Invalid(
            _("par is played by a built-in bot of the game: %(bots)s")
            % {"bots": ", ".join(playable)}
        )
    if is_realtime(engine):
        per_move = None  # a real-time game has no turns to time
    elif per_move is not None and not (
        isinstance(per_move, int) and 10 <= per_move <= 600
    ):
        raise Invalid(_("a move's time is 10 to 600 seconds (or none)"))
    base = slugify(name)[:40] or "duplicate"
    slug, n = base, 1
    while DuplicateEvent.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return DuplicateEvent.objects.create(
        slug=slug,
        name=name,
        game=game,
        organiser=by,
        rounds=rounds,
        deals=deals,
        table_size=size,
        par_bot=par_bot,
        per_move=per_move,
    )


def _locked_event(event: DuplicateEvent) -> DuplicateEvent:
    locked = DuplicateEvent.objects.select_for_update().filter(pk=event.pk).first()
    if locked is None:
        raise NotFound(_("no such duplicate event"))
    return locked


@transaction.atomic
def duplicate_event_join(*, event: DuplicateEvent, user: User) -> DuplicatePlayer:
    if not user.is_authenticated:
        raise PermissionDenied(_("sign in to play"))
    event = _locked_event(event)
    if event.status != EventStatus.OPEN:
        raise Conflict(_("this event has started: it takes no more players"))
    if event.players.filter(user=user).exists():
        raise Conflict(_("you are already playing in this event"))
    try:
        with transaction.atomic():
            player = DuplicatePlayer.objects.create(event=event, user=user)
    except IntegrityError as exc:
        raise Conflict(_("you are already playing in this event")) from exc
    event_changed(event.pk)
    return player


@transaction.atomic
def duplicate_event_leave(*, event: DuplicateEvent, user: User) -> None:
    if not user.is_authenticated:
        raise PermissionDenied(_("sign in first"))
    event = _locked_event(event)
    if event.status != EventStatus.OPEN:
        raise Conflict(_("the event has started: players can no longer leave"))
    deleted, _kinds = event.players.filter(user=user).delete()
    if not deleted:
        raise Conflict(_("you are not playing in this event"))
    event_changed(event.pk)


@transaction.atomic
def duplicate_event_start(*, event: DuplicateEvent, by: User) -> DuplicateRound:
    """Close the field and start round 1 (the organiser only, two players at least)."""
    event = _locked_event(event)
    if not by.is_authenticated or by.pk != event.organiser_id:
        raise PermissionDenied(_("only the event's organiser may start it"))
    if event.status != EventStatus.OPEN:
        raise Conflict(_("this event has already started"))
    if event.players.count() < 2:
        raise Conflict(_("a duplicate event needs at least two players"))
    event.status = EventStatus.RUNNING
    event.save(update_fields=["status"])
    event_changed(event.pk)
    return _round_start(event, 1)


def seat_tables(players: list[int], *, size: int) -> list[list[int | None]]:
    """``players`` in standing order at tables of ``size``: as few tables as
    hold everyone, the empty seats (None: a built-in bot) spread one per
    table from the last table up, so the leaders' tables are full."""
    count = math.ceil(len(players) / size)
    empty = count * size - len(players)
    sizes = [size - (1 if index >= count - empty else 0) for index in range(count)]
    # More empty seats than tables only when size > players per table: rare
    # (a field smaller than a table); then the last tables take the rest.
    while sum(sizes) > len(players):
        for index in reversed(range(count)):
            if sum(sizes) > len(players) and sizes[index] > 1:
                sizes[index] -= 1
    tables: list[list[int | None]] = []
    start = 0
    for n in sizes:
        table: list[int | None] = list(players[start : start + n])
        table += [None] * (size - n)
        tables.append(table)
        start += n
    return tables


def _round_start(event: DuplicateEvent, number: int) -> DuplicateRound:
    """Seat the tables, commit the seeds, start deal 1 everywhere and par."""
    order: list[int]
    if number == 1:
        order = [p.user_id for p in event.players.all()]
    else:
        order = [
            cast(int, row.player) for row in selectors.event_standings(event=event)
        ]
    seeds = [secrets.randbits(62) for _deal in range(event.deals)]
    rnd = DuplicateRound.objects.create(
        event=event,
        number=number,
        seeds=[str(s) for s in seeds],
        commitments=[
            deal_commitment(slug=event.slug, round_number=number, deal=d, seed=s)
            for d, s in enumerate(seeds)
        ],
        tables=seat_tables(order, size=event.table_size),
    )
    event.current_round = number
    event.save(update_fields=["current_round"])
    for table in range(1, len(rnd.tables) + 1):
        _start_game(event, rnd, deal=0, table=table, attempt=1)
    for deal in range(event.deals):
        _start_game(event, rnd, deal=deal, table=0, attempt=1)
    return rnd


def _start_game(
    event: DuplicateEvent, rnd: DuplicateRound, *, deal: int, table: int, attempt: int
) -> DuplicateGame:
    bot = f"builtin:{event.par_bot}"
    if table == 0:
        seat_users: list[int | None] = [None] * event.table_size
    else:
        seat_users = seat_order(rnd.tables[table - 1], table=table, deal=deal)
    users = {u.pk: u for u in User.objects.filter(pk__in=[u for u in seat_users if u])}
    seats = [
        SeatSpec(user=users[uid]) if uid is not None else SeatSpec(agent=bot)
        for uid in seat_users
    ]
    engine = get_game(event.game)
    time_control = (
        {"per_move": event.per_move}
        if event.per_move and table != 0 and not is_realtime(engine)
        else None
    )
    try:
        match = gameplay_services.match_create(
            game=event.game,
            seats=seats,
            config={},
            rated=False,
            time_control=time_control,
            context=selectors.game_context(
                event_id=event.pk, round_number=rnd.number, deal=deal, table=table
            ),
        )
        gameplay_services.match_start(match_id=match.pk, seed=int(rnd.seeds[deal]))
    except MatchError as exc:  # a game the event's settings cannot seat
        raise Invalid(exc.worded()) from exc
    return DuplicateGame.objects.create(
        round=rnd,
        deal=deal,
        table=table,
        attempt=attempt,
        match=match,
        seat_users=seat_users,
    )


def _advance_table(
    event: DuplicateEvent, rnd: DuplicateRound, game: DuplicateGame
) -> None:
    """After ``game`` (the table's latest) ended: deal it again if it was
    called off, else start the table's next deal."""
    match = game.match
    if not match.is_over or rnd.closed_early:
        return
    if match.status == MatchStatus.ABORTED and game.attempt < MAX_ATTEMPTS:
        _start_game(
            event, rnd, deal=game.deal, table=game.table, attempt=game.attempt + 1
        )
        return
    if game.is_par or game.deal + 1 >= event.deals:
        return
    _start_game(event, rnd, deal=game.deal + 1, table=game.table, attempt=1)


def _latest_per_table(rnd: DuplicateRound) -> dict[int, DuplicateGame]:
    """Each table's latest game (par: its latest game per deal, keyed -1 - deal)."""
    latest: dict[int, DuplicateGame] = {}
    for game in rnd.games.select_related("match").order_by("deal", "attempt"):
        key = game.table if game.table else -1 - game.deal
        latest[key] = game
    return latest


def _round_complete(event: DuplicateEvent, rnd: DuplicateRound) -> bool:
    latest = _latest_per_table(rnd)
    if rnd.closed_early:
        return all(game.match.is_over for game in latest.values())
    for table in range(1, len(rnd.tables) + 1):
        game = latest.get(table)
        if game is None or not game.match.is_over:
            return False
        if game.match.status == MatchStatus.ABORTED and game.attempt < MAX_ATTEMPTS:
            return False
        if game.deal + 1 < event.deals:
            return False
    for deal in range(event.deals):
        par = latest.get(-1 - deal)
        if par is None or not par.match.is_over:
            return False
    return True


def _settle(event: DuplicateEvent, rnd: DuplicateRound) -> None:
    """Under the round's lock: move every table on and close the round when done."""
    if rnd.status == RoundStatus.FINISHED:
        return
    for game in _latest_per_table(rnd).values():
        _advance_table(event, rnd, game)
    if not _round_complete(event, rnd):
        return
    rnd.status = RoundStatus.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    if rnd.number < event.rounds:
        _round_start(event, rnd.number + 1)
    else:
        event.status = EventStatus.FINISHED
        event.finished_at = rnd.finished_at
        event.save(update_fields=["status", "finished_at"])


@transaction.atomic
def duplicate_game_finished(*, match_id: int) -> bool:
    """A game of a duplicate round ended: the table's next deal, and the
    round's end once every table and par are done. Idempotent; False when the
    match is no duplicate game or changed nothing to do."""
    match = Match.objects.filter(pk=match_id).only("context").first()
    if match is None:
        return False
    parsed = selectors.parse_context(match.context)
    if parsed is None:
        return False
    event_id, number, _seq, _rest = parsed
    event = DuplicateEvent.objects.select_for_update().filter(pk=event_id).first()
    if event is None or event.status != EventStatus.RUNNING:
        return False
    rnd = DuplicateRound.objects.filter(event=event, number=number).first()
    if rnd is None or rnd.status == RoundStatus.FINISHED:
        return False
    _settle(event, rnd)
    # A game ended: the page's progress (and maybe the round) moved on.
    event_changed(event.pk)
    return True


def duplicate_rounds_sweep() -> int:
    """Beat's net: settle every round in play (a lost announcement, a game
    called off, which announces nothing). Returns the rounds looked at."""
    count = 0
    for event_id in DuplicateEvent.objects.filter(
        status=EventStatus.RUNNING
    ).values_list("pk", flat=True):
        with transaction.atomic():
            event = (
                DuplicateEvent.objects.select_for_update().filter(pk=event_id).first()
            )
            if event is None or event.status != EventStatus.RUNNING:
                continue
            rnd = DuplicateRound.objects.filter(
                event=event, status=RoundStatus.PLAYING
            ).first()
            if rnd is not None:
                before = live_version(event)
                _settle(event, rnd)
                if live_version(event) != before:  # watchers refetch only then
                    event_changed(event.pk)
                count += 1
    return count


@transaction.atomic
def duplicate_round_close(*, event: DuplicateEvent, by: User) -> DuplicateRound:
    """End the round in play now (the organiser only): every game of it still
    waiting or in play, par's included, is called off, deals not yet dealt are
    skipped, and the round ends as if every table had finished. For a table
    whose players stay away: a round otherwise waits for its last game."""
    event = _locked_event(event)
    if not by.is_authenticated or by.pk != event.organiser_id:
        raise PermissionDenied(_("only the event's organiser may end a round"))
    if event.status != EventStatus.RUNNING:
        raise Conflict(_("no round of this event is in play"))
    rnd = DuplicateRound.objects.filter(event=event, status=RoundStatus.PLAYING).first()
    if rnd is None:
        raise Conflict(_("no round of this event is in play"))
    rnd.closed_early = True
    rnd.save(update_fields=["closed_early"])
    for game in _latest_per_table(rnd).values():
        if not game.match.is_over:
            gameplay_services.match_abort(
                match_id=game.match_id, user=None, reason="round ended by the organiser"
            )
            game.match.refresh_from_db()
    _settle(event, rnd)
    event_changed(event.pk)
    rnd.refresh_from_db()
    return rnd
