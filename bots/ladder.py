"""The bot ladder: rounds of rated all-bot matches, and a new version's debut.

Beat's ``bots.ladder_schedule`` makes one round per period and game (and the
period's games of the bot leagues with divisions); a newly
validated version gets its first games at once (``bots.debut_games``). Both
create and start the matches through gameplay's services and queue them for a
bots worker (:mod:`bots.enqueue`) after the commit; the built-in anchors
(``conf.ladder_anchors``) keep every pool's rating scale in place.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from bots import conf, enqueue
from bots.models import Bot, BotStatus, BotVersion, LadderRound
from bots.services import CONTEXT_PREFIX
from gameplay.agents import builtin_agent
from gameplay.models import Match
from gameplay.rules import get_game
from gameplay.services import SeatSpec, match_create, match_start

#: Who ladder_pairings seats: any key (the ladder's "bot:<id>"; ints in tests).
K = TypeVar("K", bound=Hashable)


def ladder_slot(*, when: datetime) -> int:
    """The beat period ``when`` falls in (whole periods since the epoch)."""
    return int(when.timestamp() // (conf.ladder_period_minutes() * 60))


def ladder_pairings(
    strengths: Mapping[K, float],
    *,
    rng: random.Random,
    jitter: float = 50.0,
    size: int = 2,
) -> list[tuple[K, ...]]:
    """Seat every bot at a table of ``size`` near-rated ones; each plays once
    at least.

    Strengths get a little random jitter so neighbours vary between rounds
    instead of the same bots meeting forever; then neighbours in the sorted
    order share tables, and the last ones left over meet their nearest
    neighbours (who thus play twice). ``size`` 2 gives pairs. Fewer bots than
    ``size`` make no table.
    """
    order = sorted(strengths, key=lambda b: strengths[b] + rng.gauss(0, jitter))
    if len(order) < size:
        return []
    full = len(order) // size * size
    tables = [tuple(order[i : i + size]) for i in range(0, full, size)]
    rest = order[full:]
    if rest:
        tables.append(tuple(rest + order[full - (size - len(rest)) : full][::-1]))
    return tables


def ladder_table_size(game: str) -> int:
    """Seats of a ladder match of ``game``: two, or the game's smallest table."""
    return max(2, get_game(game).min_players)


@dataclass(frozen=True)
class LadderEntrant:
    """Who can be paired on a ladder: an uploaded bot, a built-in anchor, or a
    connected bot (a bot account's ``user``, online now)."""

    key: str  # "bot:<bot id>", "builtin:<name>" or "account:<bot account id>"
    agent: str
    label: str
    user: User | None = None

    @property
    def is_anchor(self) -> bool:
        return self.key.startswith("builtin:")

    @property
    def seat(self) -> SeatSpec:
        if self.user is not None:
            return SeatSpec(user=self.user)
        return SeatSpec(agent=self.agent, label=self.label)


def connected_per_move() -> int:
    """The per-move clock (seconds) of a ladder match with a connected bot.

    Such a match is played live, move by move over the network: without a
    clock a bot that went away would hold its opponents for ever.
    """
    return int(getattr(settings, "BOT_API_LADDER_PER_MOVE", 30))


def ladder_entrants(*, game: str) -> list[LadderEntrant]:
    """The uploaded bots that play ``game`` now, the connected bots online
    now (``bots.connected``: an open event stream with a ``play`` token), then
    the built-in anchors.

    The anchors (``conf.ladder_anchors``) stand in every bot pool: the same
    programs for ever, with ratings league holds fixed, so a new bot is placed
    on the scale from its first games and the scale does not drift.
    """
    from gameplay.rules.bots import available_bots, bot_display_name, bot_plays

    bots = Bot.objects.filter(
        game=game, status=BotStatus.ACTIVE, disabled=False, active_version__isnull=False
    ).select_related("active_version")
    entrants = []
    for bot in bots.order_by("pk"):
        version = bot.active_version
        assert version is not None  # the filter: active_version__isnull=False
        entrants.append(
            LadderEntrant(
                key=f"bot:{bot.pk}",
                agent=version.agent,
                label=f"{bot.name} v{version.number}",
            )
        )
    from bots.connected import online_accounts

    entrants += [
        LadderEntrant(
            key=f"account:{account.pk}",
            agent="",
            label=account.user.username,
            user=account.user,
        )
        for account in online_accounts(game=game)
    ]
    entrants += [
        LadderEntrant(
            key=f"builtin:{name}",
            agent=builtin_agent(name),
            label=bot_display_name(name),
        )
        for name in conf.ladder_anchors()
        if name in available_bots() and bot_plays(name, get_game(game))
    ]
    return entrants


def _entrant_strengths(game: str, entrants: list[LadderEntrant]) -> dict[str, float]:
    """What pairing sorts by: an uploaded bot's current version's own rating
    once it has rated games (the ladder ranks current versions), else the
    bot's; anchors' fixed ratings; connected bots' account ratings."""
    from bots.models import VersionRating
    from bots.ratings import anchor_strength, pairing_strength, user_strength

    bots = Bot.objects.in_bulk(
        [int(e.key[4:]) for e in entrants if e.key.startswith("bot:")]
    )
    version_ratings = dict(
        VersionRating.objects.filter(
            version_id__in=[b.active_version_id for b in bots.values()], games__gt=0
        ).values_list("version_id", "rating")
    )
    strengths = {}
    for e in entrants:
        if e.is_anchor:
            strengths[e.key] = anchor_strength(game=game, name=e.key[8:])
        elif e.user is not None:
            strengths[e.key] = user_strength(user_id=e.user.pk, game=game)
        else:
            bot = bots[int(e.key[4:])]
            rating = version_ratings.get(bot.active_version_id or 0)
            strengths[e.key] = (
                rating if rating is not None else pairing_strength(bot=bot)
            )
    return strengths


def _start_ladder_games(
    *,
    game: str,
    pairs: list[tuple[LadderEntrant, ...]],
    context: str,
    duplicate: bool,
    flip: int = 0,
) -> list[int]:
    """Create and start the matches of ``pairs`` (tables of two or more
    entrants; with ``duplicate``, every rotation of the seats on one deal).

    Returns the matches a bots worker plays whole (all seats bots); a match
    with a connected bot is played live instead (its uploaded seats by
    ``bots.live_turns``, its built-in ones by gameplay), on a per-move clock.
    """
    match_ids: list[int] = []
    for index, table in enumerate(pairs):
        # Seats rotate between rounds, and duplicates play every rotation.
        size = len(table)
        shift = (flip + index) % size
        first = list(table[shift:] + table[:shift])
        orders = [first[k:] + first[:k] for k in range(size)] if duplicate else [first]
        seed = secrets.randbits(62) if duplicate else None
        live = any(e.user is not None for e in table)
        for rotation, order in enumerate(orders):
            match = match_create(
                game=game,
                seats=[e.seat for e in order],
                config={},
                rated=True,
                time_control={"per_move": connected_per_move()} if live else None,
                context=f"{context}:{index}:{rotation}",
            )
            match_start(match_id=match.pk, seed=seed)
            if not live:
                match_ids.append(match.pk)
    return match_ids


def ladder_round_schedule(
    *, game: str, when: datetime | None = None, duplicate: bool | None = None
) -> LadderRound | None:
    """Create this period's ladder round for ``game`` with its matches started.

    Idempotent per (game, period): a second call in the same period finds the
    round and returns None. Matches are enqueued on the bots queue after the
    commit. With ``duplicate``, each pairing plays one deal twice with the seats
    rotated (the same seed), which cancels most of the luck of the deal.
    Built-in anchors are paired like bots, but never with each other (that
    would teach nobody anything), and a round without uploaded bots is empty.
    """
    when = when or timezone.now()
    duplicate = conf.ladder_duplicate() if duplicate is None else duplicate
    slot = ladder_slot(when=when)
    with transaction.atomic():
        ladder_round, created = LadderRound.objects.get_or_create(
            game=game, slot=slot, defaults={"duplicate": duplicate}
        )
        if not created:
            return None
        entrants = ladder_entrants(game=game)
        if all(e.is_anchor for e in entrants):
            entrants = []
        by_key = {e.key: e for e in entrants}
        rng = random.Random(f"{game}:{slot}")
        pairs = [
            tuple(by_key[key] for key in table)
            for table in ladder_pairings(
                _entrant_strengths(game, entrants),
                rng=rng,
                size=ladder_table_size(game),
            )
            if not all(by_key[key].is_anchor for key in table)
        ]
        match_ids = _start_ladder_games(
            game=game,
            pairs=pairs,
            context=ladder_round.context,
            duplicate=duplicate,
            flip=slot,
        )
        # Every match of the round, the live ones with connected bots included.
        ladder_round.match_count = Match.objects.filter(
            context__startswith=f"{ladder_round.context}:"
        ).count()
        ladder_round.save(update_fields=["match_count"])
        transaction.on_commit(lambda: enqueue.play_matches(match_ids))
    return ladder_round


def bot_debut_schedule(*, version_id: int) -> list[int]:
    """A newly validated version's first ladder games: one against each anchor.

    Called when validation activates a version, so a new bot is on the ladder
    within minutes instead of waiting for the next round. Each game is played
    with every seat order on one deal (as duplicate ladder games are). In a
    game of three or more players it is one table, the anchors in the other
    seats. The
    context ``bots:debut:<version id>`` makes it idempotent: a second call
    finds the games and creates none.
    """
    version = BotVersion.objects.select_related("bot").filter(pk=version_id).first()
    if version is None or not version.bot.plays:
        return []
    if version.bot.active_version_id != version.pk:
        return []
    context = f"{CONTEXT_PREFIX}debut:{version.pk}"
    with transaction.atomic():
        # Lock the version: two activations racing create one set of games.
        BotVersion.objects.select_for_update().filter(pk=version.pk).first()
        if Match.objects.filter(context__startswith=f"{context}:").exists():
            return []
        me = LadderEntrant(
            key=f"bot:{version.bot_id}",
            agent=version.agent,
            label=f"{version.bot.name} v{version.number}",
        )
        anchors = [e for e in ladder_entrants(game=version.bot.game) if e.is_anchor]
        size = ladder_table_size(version.bot.game)
        tables: list[tuple[LadderEntrant, ...]]
        if size == 2:
            tables = [(me, anchor) for anchor in anchors]
        else:
            # A bigger table: one game with the anchors in the other seats.
            tables = [(me, *anchors[: size - 1])] if len(anchors) >= size - 1 else []
        match_ids = _start_ladder_games(
            game=version.bot.game,
            pairs=tables,
            context=context,
            duplicate=True,
        )
        transaction.on_commit(lambda: enqueue.play_matches(match_ids))
    return match_ids


def division_rounds_schedule(*, when: datetime | None = None) -> dict[int, int]:
    """This period's games of every running bots-only league with divisions.

    Bot leagues run on the ladder's schedule and rules: each period, every
    division's registered bots that can play are seated at tables of near
    ratings (:func:`ladder_pairings`, the season's ratings) within their own
    division, as season games (the season's pools rate them, the division
    table counts them). Idempotent per (season, period): ``DivisionRound``.
    Returns {season id: matches started} for the seasons paired now.
    """
    from league.divisions.services import season_divisions_build
    from league.errors import LeagueError
    from league.models import (
        DivisionMember,
        DivisionRound,
        ParticipantKind,
        ParticipantType,
        Rating,
        RegistrationStatus,
        Season,
        SeasonStatus,
    )
    from league.participants import seat_agent_for
    from league.services import league_match_create

    when = when or timezone.now()
    slot = ladder_slot(when=when)
    started: dict[int, int] = {}
    seasons = Season.objects.filter(
        status=SeasonStatus.RUNNING,
        league__participants=ParticipantKind.BOTS,
        league__division_size__isnull=False,
    ).select_related("league")
    for season in seasons:
        season_divisions_build(season=season)
        with transaction.atomic():
            division_round, created = DivisionRound.objects.get_or_create(
                season=season, slot=slot
            )
            if not created:
                continue
            members = list(
                DivisionMember.objects.filter(
                    season=season,
                    participant__registrations__season=season,
                    participant__registrations__status=RegistrationStatus.APPROVED,
                ).select_related("participant", "division")
            )
            ratings = dict(
                Rating.objects.filter(
                    pool__season=season,
                    participant_id__in=[m.participant_id for m in members],
                ).values_list("participant_id", "rating")
            )
            size = ladder_table_size(season.league.game)
            uploaded = {
                m.participant_id: m.participant.type == ParticipantType.BOT
                for m in members
            }
            match_ids: list[int] = []
            runner_ids: list[int] = []
            for level in sorted({m.division.level for m in members}):
                playable = {}
                for member in members:
                    if member.division.level != level:
                        continue
                    try:
                        seat_agent_for(member.participant)
                    except LeagueError:
                        continue  # no playable version now: sits this period out
                    playable[member.participant_id] = ratings.get(
                        member.participant_id, 1500.0
                    )
                rng = random.Random(f"division:{season.pk}:{slot}:{level}")
                for table in ladder_pairings(playable, rng=rng, size=size):
                    match = league_match_create(
                        season=season, by=None, participant_ids=list(table)
                    )
                    match_ids.append(match.pk)
                    if any(uploaded[pid] for pid in table):
                        runner_ids.append(match.pk)
            division_round.match_count = len(match_ids)
            division_round.save(update_fields=["match_count"])
            # Built-in seats are moved by gameplay; uploaded ones by a runner.
            transaction.on_commit(partial(enqueue.play_matches, runner_ids))
        started[season.pk] = len(match_ids)
    return started
