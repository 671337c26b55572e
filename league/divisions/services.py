"""Division writes: build a season's divisions, freeze a finished season's.

The rules (docs/leagues.md, "Divisions"):

* A finished season is *closed* once: each division's table is frozen (rank,
  and the move: the promotion zone goes up, the relegation zone down).
* The next season's divisions keep every returning member's level, one up
  for the promoted and one down for the relegated; levels left empty are
  closed up.
* Newcomers (approved registrants without a division) are placed by rating,
  strongest first, into the division with room whose members' mean rating is
  nearest theirs (the higher division on a tie); when no division has room a
  new one opens at the bottom. In a first season everyone is new, so the
  divisions are the rating order cut into tables of the set size.
* Newcomers are placed when the season starts (all at once, by rating);
  anyone approved later is placed at once by the same rule.
* A bottom division too small to seat a game of the league's game is merged
  into the one above when the divisions are first made.

Every function is idempotent: building twice places nobody twice, closing
twice changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay.rules import get_game
from league.divisions.selectors import (
    PROMOTION,
    RELEGATION,
    season_division_tables,
)
from league.errors import Invalid, PermissionDenied
from league.models import (
    Division,
    DivisionEntry,
    DivisionMember,
    DivisionMove,
    League,
    Participant,
    PoolScope,
    Rating,
    RatingPool,
    Registration,
    RegistrationStatus,
    Season,
    SeasonStatus,
)
from league.ratings.elo import elo_config_from
from league.selectors import is_organiser


def placement_ratings(
    *, league: League, participant_ids: list[int]
) -> dict[int, float]:
    """The rating each participant is placed by: the league's pool, else the
    game's global ladder, else the league's initial rating."""
    initial = elo_config_from(league.options.get("elo", {})).initial_rating
    found: dict[int, float] = {}
    for pool in (
        RatingPool.objects.filter(scope=PoolScope.LEAGUE, league=league).first(),
        RatingPool.objects.filter(scope=PoolScope.GLOBAL, game=league.game).first(),
    ):
        if pool is None:
            continue
        for pid, rating in Rating.objects.filter(
            pool=pool, participant_id__in=participant_ids
        ).values_list("participant_id", "rating"):
            found.setdefault(pid, rating)
    return {pid: found.get(pid, initial) for pid in participant_ids}


def season_divisions_close(*, season: Season) -> int:
    """Freeze a finished season's division tables; returns the members frozen
    now (0 when already closed, not finished, or without divisions)."""
    if not season.league.has_divisions:
        return 0
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        if season.status != SeasonStatus.FINISHED:
            return 0
        if not DivisionMember.objects.filter(
            season=season, final_rank__isnull=True
        ).exists():
            return 0
        changed = []
        by_participant = {
            m.participant_id: m for m in DivisionMember.objects.filter(season=season)
        }
        for table in season_division_tables(season=season, live=True):
            for row in table.rows:
                member = by_participant[row.participant.pk]
                member.final_rank = row.rank
                member.move = {
                    PROMOTION: DivisionMove.UP,
                    RELEGATION: DivisionMove.DOWN,
                }.get(row.zone, DivisionMove.STAY)
                changed.append(member)
        DivisionMember.objects.bulk_update(changed, ["final_rank", "move"])
    return len(changed)


def _previous_season(season: Season) -> Season | None:
    return (
        Season.objects.filter(
            league_id=season.league_id,
            number__lt=season.number,
            divisions__isnull=False,
        )
        .distinct()
        .order_by("-number")
        .first()
    )


def season_divisions_build(*, season: Season, place_newcomers: bool = True) -> int:
    """Make ``season``'s divisions if it has none, and place its newcomers.

    Returns how many participants were placed now. ``place_newcomers=False``
    (the rollover, before the season starts) makes the divisions of the
    returning members only. A finished season is never changed.
    """
    league = season.league
    if not league.has_divisions:
        return 0
    with transaction.atomic():
        # One builder at a time per season: the row lock serialises them.
        season = Season.objects.select_for_update().get(pk=season.pk)
        if season.status == SeasonStatus.FINISHED:
            return 0
        placed = 0
        levels = list(Division.objects.filter(season=season).order_by("level"))
        first_build = not levels
        if first_build:
            levels, placed = _returning_members(season)
        if place_newcomers:
            placed += _place_newcomers(season, levels)
        if first_build:
            _merge_small_bottom(season, levels)
    return placed


def _returning_members(season: Season) -> tuple[list[Division], int]:
    """Divisions of the approved registrants who held a place last season."""
    previous = _previous_season(season)
    if previous is None:
        return [], 0
    season_divisions_close(season=previous)
    approved = set(
        Registration.objects.filter(
            season=season, status=RegistrationStatus.APPROVED
        ).values_list("participant_id", flat=True)
    )
    targets: dict[int, tuple[int, str, int, int]] = {}
    for member in DivisionMember.objects.filter(
        season=previous, participant_id__in=approved
    ).select_related("division"):
        level = member.division.level
        if member.move == DivisionMove.UP:
            target, entry = max(1, level - 1), DivisionEntry.PROMOTED
        elif member.move == DivisionMove.DOWN:
            target, entry = level + 1, DivisionEntry.RELEGATED
        else:
            target, entry = level, DivisionEntry.STAYED
        targets[member.participant_id] = (target, entry, level, member.final_rank or 0)
    used = sorted({t[0] for t in targets.values()})
    renumber = {level: i for i, level in enumerate(used, start=1)}
    divisions = [
        Division.objects.create(season=season, level=i) for i in renumber.values()
    ]
    by_level = {d.level: d for d in divisions}
    DivisionMember.objects.bulk_create(
        DivisionMember(
            division=by_level[renumber[target]],
            season=season,
            participant_id=pid,
            entry=entry,
        )
        for pid, (target, entry, _, _) in sorted(
            targets.items(), key=lambda item: (item[1][2], item[1][3], item[0])
        )
    )
    return divisions, len(targets)


def _place_newcomers(season: Season, divisions: list[Division]) -> int:
    league = season.league
    size = league.division_size or 0
    placed_ids = set(
        DivisionMember.objects.filter(season=season).values_list(
            "participant_id", flat=True
        )
    )
    newcomers = [
        r.participant_id
        for r in Registration.objects.filter(
            season=season, status=RegistrationStatus.APPROVED
        ).order_by("created_at", "pk")
        if r.participant_id not in placed_ids
    ]
    if not newcomers:
        return 0
    members = list(DivisionMember.objects.filter(season=season))
    ratings = placement_ratings(
        league=league,
        participant_ids=newcomers + [m.participant_id for m in members],
    )
    # Per division: [division, members, sum of their ratings].
    state: list[list] = []
    for division in divisions:
        mine = [m.participant_id for m in members if m.division_id == division.pk]
        state.append([division, len(mine), sum(ratings[p] for p in mine)])
    # Strongest first; equal ratings in registration order (sorted is stable).
    for pid in sorted(newcomers, key=lambda p: -ratings[p]):
        rating = ratings[pid]
        room = [s for s in state if s[1] < size]
        if room:
            target = min(
                room,
                key=lambda s: (
                    abs(s[2] / s[1] - rating) if s[1] else 0.0,
                    s[0].level,
                ),
            )
        else:
            level = max((s[0].level for s in state), default=0) + 1
            division = Division.objects.create(season=season, level=level)
            divisions.append(division)
            target = [division, 0, 0.0]
            state.append(target)
        DivisionMember.objects.create(
            division=target[0], season=season, participant_id=pid
        )
        target[1] += 1
        target[2] += rating
    return len(newcomers)


def _merge_small_bottom(season: Season, divisions: list[Division]) -> None:
    """A bottom division that cannot seat a game joins the one above."""
    if len(divisions) < 2:
        return
    smallest_game = max(2, get_game(season.league.game).min_players)
    bottom = divisions[-1]
    if DivisionMember.objects.filter(division=bottom).count() >= smallest_game:
        return
    DivisionMember.objects.filter(division=bottom).update(division=divisions[-2])
    bottom.delete()
    divisions.pop()


def season_divisions_rollover(*, previous: list[Season], season: Season) -> int:
    """At a rollover: close the finished seasons, bring their division members
    into ``season`` (their registration carried over: a league with divisions
    keeps its players from season to season; one who stops playing
    withdraws), and make ``season``'s divisions of them. Returns how many
    registrations were carried over."""
    if not season.league.has_divisions:
        return 0
    for old in previous:
        season_divisions_close(season=old)
    last = _previous_season(season)
    if last is None:
        return 0
    carried = 0
    keep = Registration.objects.filter(
        season=last,
        status=RegistrationStatus.APPROVED,
        participant_id__in=DivisionMember.objects.filter(season=last).values(
            "participant_id"
        ),
    ).values_list("participant_id", flat=True)
    for participant_id in keep:
        _, created = Registration.objects.get_or_create(
            season=season,
            participant_id=participant_id,
            defaults={"status": RegistrationStatus.APPROVED},
        )
        carried += created
    season_divisions_build(season=season, place_newcomers=False)
    return carried


def divisions_sweep() -> dict[str, int]:
    """Beat: close finished seasons' divisions, place running seasons' players.

    Cheap when there is nothing to do (two queries over leagues with
    divisions); every step is idempotent.
    """
    done = {"closed": 0, "placed": 0}
    seasons = Season.objects.filter(league__division_size__isnull=False)
    for season in seasons.filter(
        status=SeasonStatus.FINISHED,
        pk__in=DivisionMember.objects.filter(final_rank__isnull=True).values(
            "season_id"
        ),
    ).select_related("league"):
        done["closed"] += bool(season_divisions_close(season=season))
    for season in seasons.filter(status=SeasonStatus.RUNNING).select_related("league"):
        done["placed"] += season_divisions_build(season=season)
    return done


def participant_division(
    *, season: Season, participant: Participant
) -> Division | None:
    member = (
        DivisionMember.objects.filter(season=season, participant=participant)
        .select_related("division")
        .first()
    )
    return member.division if member else None


#: The largest division: a table anyone can read on a phone.
MAX_DIVISION_SIZE = 64


def league_set_divisions(
    *,
    league: League,
    by: User,
    division_size: int | None,
    promotion_count: int,
    relegation_count: int,
) -> League:
    """An organiser sets (or, with ``division_size=None``, removes) divisions.

    Applies to divisions made from now on; existing ones are kept.
    """
    if not is_organiser(league=league, user=by):
        raise PermissionDenied(_("only this league's organisers may do that"))
    numbers = (division_size, promotion_count, relegation_count)
    if any(isinstance(n, bool) for n in numbers) or not all(
        n is None or isinstance(n, int) for n in numbers
    ):
        raise Invalid(_("division settings are whole numbers"))
    if division_size is not None and not 2 <= division_size <= MAX_DIVISION_SIZE:
        raise Invalid(
            _("a division holds 2 to %(max_division_size)s players")
            % {"max_division_size": MAX_DIVISION_SIZE}
        )
    limit = division_size if division_size is not None else MAX_DIVISION_SIZE
    for refusal, count in (
        (_("at most half a division (%(count)s) can be promoted"), promotion_count),
        (_("at most half a division (%(count)s) can be relegated"), relegation_count),
    ):
        if count is None or not 0 <= count <= limit // 2:
            raise Invalid(refusal % {"count": limit // 2})
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        league.division_size = division_size
        league.promotion_count = promotion_count
        league.relegation_count = relegation_count
        league.save(
            update_fields=["division_size", "promotion_count", "relegation_count"]
        )
    return league
