"""Arena writes: create, join, leave, pause, berserk; pair free players;
record finished games; end at the set time.

Every change to an arena's players or games first locks the arena row
(``_locked``), so a game ending while beat ticks, or two players joining at
once, are handled one after the other and nobody is paired twice.
``arena_pair`` is idempotent: it settles any game whose match has ended
(whether or not the ``match_finished`` task came), then pairs whoever is free;
the join/resume services, the finished-match task and beat's tick all call it.
Time is a parameter (``now``) everywhere, so tests simulate it.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from datetime import datetime, timedelta
from typing import Any, cast

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.errors import MatchError, refusal_text
from gameplay.models import Match, MatchStatus, Seat
from gameplay.options import OptionError, clean_table_options
from gameplay.rules import GameError, available_games, game_meta, get_game
from gameplay.rules.bots import available_bots
from gameplay.services import SeatSpec
from league.errors import Conflict, Invalid, NotFound, PermissionDenied
from league.models import Participant, ParticipantKind
from league.participants import can_manage, participant_for_builtin, seat_agent_for
from league.services import resolve_entrant
from league.tournaments.arena import pairing
from league.tournaments.arena.models import (
    Arena,
    ArenaGame,
    ArenaGameStatus,
    ArenaPlayer,
    ArenaSeat,
    ArenaStatus,
)
from league.tournaments.arena.selectors import ranked_players

logger = logging.getLogger(__name__)

MIN_MINUTES, MAX_MINUTES = 5, 24 * 60
MAX_PLAYERS = 500
#: Games still running this long after the end are left uncounted, so an
#: abandoned game without a clock cannot keep an arena open for ever.
OVERTIME = timedelta(hours=1)
#: Forfeits that mean the person was away (gameplay's ``forfeit_reason``).
AWAY_REASONS = ("left", "abandoned")


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _locked(arena_id: int) -> Arena:
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None:
        raise NotFound(_("no such arena"))
    return arena


def table_range(game: str) -> tuple[int, int, int]:
    """(smallest, largest, preferred) table of ``game``'s arenas: the game's
    multiplayer tables (``GameMeta.tables``), else two players."""
    sizes = game_meta(game).tables
    return sizes if sizes is not None else (2, 2, 2)


def berserk_possible(arena: Arena) -> bool:
    """Berserk halves a total clock: only where the arena allows it and its
    games have one."""
    return arena.berserk and bool(arena.time_control.get("total"))


def arena_create(
    *,
    by: User,
    name: str,
    game: str,
    minutes: int,
    starts_at: datetime | None = None,
    participants: str = ParticipantKind.MIXED,
    rated: bool = True,
    berserk: bool = True,
    options: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> Arena:
    """Create an arena lasting ``minutes`` from ``starts_at`` (default: now)."""
    now = _now(now)
    if not by.is_authenticated:
        raise PermissionDenied(_("sign in to create an arena"))
    name = (name or "").strip()[:100]
    if not name:
        raise Invalid(_("an arena needs a name"))
    if game not in available_games():
        raise Invalid(_("no playable game %(game)s") % {"game": repr(game)})
    if participants not in ParticipantKind.values:
        raise Invalid(
            _("unknown participant kind %(participants)s")
            % {"participants": repr(participants)}
        )
    if not isinstance(minutes, int) or not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise Invalid(
            _("an arena lasts between %(min_minutes)s and %(max_minutes)s minutes")
            % {"min_minutes": MIN_MINUTES, "max_minutes": MAX_MINUTES}
        )
    starts_at = starts_at or now
    if starts_at < now - timedelta(minutes=1):
        raise Invalid(_("an arena cannot start in the past"))
    if starts_at > now + timedelta(days=30):
        raise Invalid(_("an arena starts within 30 days"))
    smallest = table_range(game)[0]
    try:
        engine = get_game(game)
        public = clean_table_options(game, options, players=smallest)
        config = engine.validate_config({**public, "players": smallest})
        clean_tc = gameplay_services.validate_time_control(time_control)
    except (GameError, MatchError, OptionError) as exc:
        raise Invalid(refusal_text(exc)) from exc
    if clean_tc.get("days"):
        raise Invalid(_("an arena is played live: no correspondence days per move"))
    if clean_tc and getattr(engine, "realtime", False):
        raise Invalid(
            _("%(name)s is played in real time: its games have no clocks")
            % {"name": engine.name}
        )
    base = slugify(name)[:40] or "arena"
    slug, n = base, 1
    while Arena.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    config.pop("players", None)
    return Arena.objects.create(
        slug=slug,
        name=name,
        game=game,
        participants=participants,
        rated=rated,
        berserk=berserk,
        options=config,
        time_control=clean_tc,
        minutes=minutes,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes),
        status=ArenaStatus.UPCOMING,
        created_by=by,
    )


def _player(arena: Arena, user: User, bot_id: int | None) -> ArenaPlayer:
    """The user's own entry, or their bot's; refuses someone else's bot."""
    key = (
        Participant.bot_key(bot_id)
        if bot_id is not None
        else Participant.user_key(user.pk)
    )
    player = (
        ArenaPlayer.objects.filter(arena=arena, participant__key=key)
        .select_related("participant")
        .first()
    )
    if player is None:
        raise Conflict(_("not in this arena"))
    if not can_manage(user, player.participant):
        raise PermissionDenied(_("only the bot's owner may do that"))
    return player


def _enter(arena: Arena, participant: Participant, now: datetime) -> ArenaPlayer:
    if arena.status == ArenaStatus.FINISHED or now >= arena.ends_at:
        raise Conflict(_("this arena is over"))
    player = ArenaPlayer.objects.filter(arena=arena, participant=participant).first()
    if player is not None:
        if not player.withdrawn:
            raise Conflict(
                _("%(name)s is already in this arena") % {"name": participant.name}
            )
        player.withdrawn = False
        player.paused = False
        player.freed_at = now
        player.save(update_fields=["withdrawn", "paused", "freed_at"])
    else:
        if arena.players.count() >= MAX_PLAYERS:
            raise Conflict(_("this arena is full"))
        player = ArenaPlayer.objects.create(
            arena=arena, participant=participant, joined_at=now, freed_at=now
        )
    _pair_locked(arena, now)
    return player


def arena_join(
    *,
    arena: Arena,
    user: User,
    bot_id: int | None = None,
    now: datetime | None = None,
) -> ArenaPlayer:
    """Join (or rejoin) the user or their bot, before or during the arena; a
    running arena pairs them at once if someone is free."""
    now = _now(now)
    participant = resolve_entrant(
        user=user, game=arena.game, kind=arena.participants, bot_id=bot_id
    )
    with transaction.atomic():
        return _enter(_locked(arena.pk), participant, now)


def arena_add_builtin(
    *, arena: Arena, by: User, name: str, now: datetime | None = None
) -> ArenaPlayer:
    """The arena's creator brings in a built-in bot (an opponent people can
    always find), where the arena admits bots."""
    now = _now(now)
    if by.pk != arena.created_by_id and not by.is_staff:
        raise PermissionDenied(_("only the arena's creator may add built-in bots"))
    if name not in available_bots():
        raise Invalid(_("no built-in bot %(name)s") % {"name": repr(name)})
    participant = participant_for_builtin(name)
    if arena.participants == ParticipantKind.HUMANS:
        raise Invalid(_("bots cannot take part here (humans only)"))
    with transaction.atomic():
        return _enter(_locked(arena.pk), participant, now)


def arena_leave(
    *,
    arena: Arena,
    user: User,
    bot_id: int | None = None,
    now: datetime | None = None,
) -> None:
    """Leave: before the start the entry goes; afterwards no new games, the
    score stays on the standings, and a game in play is played out."""
    now = _now(now)
    with transaction.atomic():
        arena = _locked(arena.pk)
        player = _player(arena, user, bot_id)
        if arena.status == ArenaStatus.UPCOMING:
            player.delete()
            return
        if player.withdrawn:
            raise Conflict(_("already left"))
        player.withdrawn = True
        player.save(update_fields=["withdrawn"])


def arena_pause(
    *,
    arena: Arena,
    user: User,
    paused: bool,
    bot_id: int | None = None,
    now: datetime | None = None,
) -> ArenaPlayer:
    """Step out (no new games after the current one) or come back (paired at
    once if someone is free)."""
    now = _now(now)
    with transaction.atomic():
        arena = _locked(arena.pk)
        player = _player(arena, user, bot_id)
        if player.withdrawn:
            raise Conflict(_("you have left this arena: join it again"))
        if player.paused == paused:
            raise Conflict(
                _("you are already paused in this arena")
                if paused
                else _("you are not paused in this arena")
            )
        player.paused = paused
        fields = ["paused"]
        if not paused and not _busy_ids(arena) & {player.pk}:
            player.freed_at = now
            fields.append("freed_at")
        player.save(update_fields=fields)
        if not paused:
            _pair_locked(arena, now)
        return player


def arena_set_berserk(
    *, arena: Arena, user: User, berserk: bool, bot_id: int | None = None
) -> ArenaPlayer:
    """Berserk from the next game on: the player's own clock starts halved,
    and a win scores one more point."""
    with transaction.atomic():
        arena = _locked(arena.pk)
        if berserk and not berserk_possible(arena):
            raise Conflict(_("this arena has no berserk (it needs a total clock)"))
        player = _player(arena, user, bot_id)
        player.berserk = berserk
        player.save(update_fields=["berserk"])
        return player


# --- Pairing and results ---------------------------------------------------------


def _busy_ids(arena: Arena) -> set[int]:
    return set(
        ArenaSeat.objects.filter(
            game__arena=arena, game__status=ArenaGameStatus.PLAYING
        ).values_list("player_id", flat=True)
    )


def _last_tables(players: list[ArenaPlayer]) -> dict[int, frozenset[Hashable]]:
    """Per player, everyone at their latest game (themselves included)."""
    latest: dict[int, int] = {}
    for player_id, game_id in (
        ArenaSeat.objects.filter(player__in=players)
        .exclude(game__status=ArenaGameStatus.ABORTED)
        .order_by("player_id", "-game_id")
        .values_list("player_id", "game_id")
    ):
        latest.setdefault(player_id, game_id)
    at: dict[int, set[Hashable]] = {}
    for game_id, player_id in ArenaSeat.objects.filter(
        game_id__in=set(latest.values())
    ).values_list("game_id", "player_id"):
        at.setdefault(game_id, set()).add(player_id)
    return {p: frozenset(at[g]) for p, g in latest.items()}


def _settle(game: ArenaGame, now: datetime) -> None:
    """Score a game whose match has ended (or call it off if it never
    finished). People who lost for being away (they left, or the others
    claimed the game) are paused: pairing them again would only hand out
    free wins. Resigning or losing on time is playing: no pause."""
    match = game.match
    seats = list(game.seats.select_related("player__participant"))
    if match is None or match.status != MatchStatus.FINISHED:
        game.status = ArenaGameStatus.ABORTED
    else:
        result = match.result or {}
        placements = list(result.get("placements") or [1] * len(seats))
        away = set(
            match.seats.filter(forfeit_reason__in=AWAY_REASONS).values_list(
                "number", flat=True
            )
        )
        for seat in seats:
            outcome = pairing.outcome_for(placements, seat.seat)
            player = seat.player
            scored = pairing.game_points(
                outcome=outcome, streak=player.streak, berserk=seat.berserk
            )
            seat.outcome, seat.points, seat.doubled = (
                outcome,
                scored.points,
                scored.doubled,
            )
            player.score += scored.points
            player.streak = scored.streak
            player.games += 1
            player.wins += outcome == "win"
            player.draws += outcome == "draw"
            if seat.seat in away and not player.participant.is_bot:
                player.paused = True
        ArenaSeat.objects.bulk_update(seats, ["outcome", "points", "doubled"])
        game.status = ArenaGameStatus.DONE
    for seat in seats:
        seat.player.freed_at = now
        seat.player.save()
    game.finished_at = now
    game.save(update_fields=["status", "finished_at"])


def _settle_ended_games(arena: Arena, now: datetime) -> None:
    for game in arena.games.filter(status=ArenaGameStatus.PLAYING).select_related(
        "match"
    ):
        if game.match is None or game.match.status in (
            MatchStatus.FINISHED,
            MatchStatus.ABORTED,
        ):
            _settle(game, now)
        elif now >= arena.ends_at + OVERTIME:
            logger.info("arena %s: game %s left uncounted", arena.pk, game.pk)
            game.match = None  # kept as it is; only the arena stops waiting
            _settle(game, now)


def _seat_order(players: list[ArenaPlayer]) -> list[ArenaPlayer]:
    """Seat 0 (who usually moves first) to whoever has had it least here."""
    firsts = dict.fromkeys((p.pk for p in players), 0)
    for player_id in ArenaSeat.objects.filter(player__in=players, seat=0).values_list(
        "player_id", flat=True
    ):
        firsts[player_id] += 1
    return sorted(players, key=lambda p: (firsts[p.pk], -players.index(p)))


def _start_game(arena: Arena, players: list[ArenaPlayer], now: datetime) -> bool:
    """Create and start one game; False (nothing kept) if it cannot start."""
    seated = _seat_order(players)
    specs = []
    for player in seated:
        try:
            user, agent = seat_agent_for(player.participant)
        except (Invalid, NotFound) as exc:
            logger.warning("arena %s: %s cannot sit: %s", arena.pk, player, exc)
            player.paused = True  # a bot without a playable version
            player.save(update_fields=["paused"])
            return False
        specs.append(SeatSpec(user=user, agent=agent))
    try:
        with transaction.atomic():
            game = ArenaGame.objects.create(arena=arena, started_at=now)
            match = gameplay_services.match_create(
                game=arena.game,
                seats=specs,
                config=arena.options,
                rated=arena.rated,
                time_control=arena.time_control,
                host=arena.created_by,
                context=game.context,
            )
            match = gameplay_services.match_start(match_id=match.pk)
            berserk = [p.berserk and berserk_possible(arena) for p in seated]
            for number, on in enumerate(berserk):
                if on:
                    # Inside match_start's transaction: the clocks the table is
                    # sent and armed with after the commit are the halved ones.
                    half = arena.time_control["total"] * 1000 // 2
                    Seat.objects.filter(match=match, number=number).update(
                        clock_ms=half
                    )
            ArenaSeat.objects.bulk_create(
                ArenaSeat(game=game, player=p, seat=n, berserk=berserk[n])
                for n, p in enumerate(seated)
            )
            game.match = match
            game.save(update_fields=["match"])
    except MatchError as exc:
        logger.warning("arena %s: game of %s refused: %s", arena.pk, seated, exc)
        return False
    return True


def _pair_locked(arena: Arena, now: datetime) -> int:
    """Bring the arena up to ``now`` and pair its free players; returns how
    many games started. The arena row is locked by the caller."""
    if arena.status == ArenaStatus.FINISHED or now < arena.starts_at:
        return 0
    if arena.status == ArenaStatus.UPCOMING:
        arena.status = ArenaStatus.RUNNING
        arena.save(update_fields=["status"])
    _settle_ended_games(arena, now)
    if now >= arena.ends_at:
        if not arena.games.filter(status=ArenaGameStatus.PLAYING).exists():
            arena.status = ArenaStatus.FINISHED
            arena.finished_at = now
            arena.save(update_fields=["status", "finished_at"])
        return 0
    ranked = ranked_players(arena)
    busy = _busy_ids(arena)
    free = [p for p in ranked if not p.paused and not p.withdrawn and p.pk not in busy]
    if len(free) < 2:
        return 0
    rank = {p.pk: i + 1 for i, p in enumerate(ranked)}
    lasts = _last_tables(free)
    waiting = {
        p.pk: i for i, p in enumerate(sorted(free, key=lambda p: (p.freed_at, p.pk)))
    }
    candidates = [
        pairing.FreePlayer(
            id=p.pk,
            score=p.score,
            rank=rank[p.pk],
            last_table=lasts.get(p.pk),
            waiting=waiting[p.pk],
        )
        for p in free
    ]
    smallest, largest, preferred = table_range(arena.game)
    if preferred == 2:
        tables: list[list[Hashable]] = [
            list(t) for t in pairing.pair_players(candidates)
        ]
    else:
        tables = pairing.seat_tables(
            candidates, smallest=smallest, largest=largest, preferred=preferred
        )
    by_id = {p.pk: p for p in free}
    started = 0
    for table in tables:
        started += _start_game(arena, [by_id[cast(int, i)] for i in table], now)
    return started


def arena_pair(*, arena_id: int, now: datetime | None = None) -> int:
    """Idempotent: settle ended games, start/end the arena, pair the free."""
    with transaction.atomic():
        return _pair_locked(_locked(arena_id), _now(now))


def arena_record_match(*, match_id: int, now: datetime | None = None) -> bool:
    """A match of an arena finished: score it and pair its players again.

    Idempotent: a game already settled is left alone (False)."""
    match = Match.objects.filter(pk=match_id).only("context", "status").first()
    if match is None or match.status != MatchStatus.FINISHED:
        return False
    parts = (match.context or "").split(":")
    if len(parts) != 3 or parts[0] != "arena":
        return False
    if not (parts[1].isdigit() and parts[2].isdigit()):
        return False
    now = _now(now)
    with transaction.atomic():
        arena = _locked(int(parts[1]))
        game = (
            ArenaGame.objects.filter(pk=int(parts[2]), arena=arena, match_id=match_id)
            .select_related("match")
            .first()
        )
        if game is None or game.status != ArenaGameStatus.PLAYING:
            return False
        _settle(game, now)
        _pair_locked(arena, now)
    return True


def arenas_tick(*, now: datetime | None = None) -> dict[str, int]:
    """Beat: start arenas whose time has come, pair, end those that are over."""
    now = _now(now)
    done = {"arenas": 0, "games": 0}
    ids = Arena.objects.filter(
        status__in=[ArenaStatus.UPCOMING, ArenaStatus.RUNNING], starts_at__lte=now
    ).values_list("pk", flat=True)
    for arena_id in ids:
        try:
            done["games"] += arena_pair(arena_id=arena_id, now=now)
            done["arenas"] += 1
        except Exception:  # one broken arena must not stop the others
            logger.exception("arena %s tick failed", arena_id)
    return done
