"""Arena tournaments through the services, with simulated time: people and
built-in bots join, play real games, pause, leave and come back, and the
arena ends at its set time with the games still in play counted."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import cast
from unittest import mock

import pytest
from django.utils import timezone

from gameplay import services as gameplay_services
from gameplay.models import Match, MatchStatus, Seat
from gameplay.rules import get_game
from league.errors import Conflict, Invalid, PermissionDenied
from league.tournaments.arena import services as arena
from league.tournaments.arena.models import (
    ArenaGame,
    ArenaGameStatus,
    ArenaPlayer,
    ArenaSeat,
    ArenaStatus,
)
from league.tournaments.arena.pairing import Outcome, game_points
from league.tournaments.arena.selectors import standings
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
GAME = "kungfu2013"  # two players, the quickest full games


class Clock:
    """Simulated time: ``django.utils.timezone.now`` answers ``self.now``."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock() -> Iterator[Clock]:
    c = Clock(timezone.now().replace(microsecond=0))
    with mock.patch("django.utils.timezone.now", side_effect=lambda: c.now):
        yield c


def _finish(match, rnd: random.Random) -> None:
    """Play a match to its end with random legal moves (people through
    ``match_act``, bot seats through ``match_system_act``)."""
    engine = get_game(match.game)
    for _ in range(3000):
        match.refresh_from_db()
        if match.is_over:
            return
        number = engine.actors(match.state)[0]
        seat = match.seats.get(number=number)
        ids = engine.legal_action_ids(match.state, number)
        action = ids[rnd.randrange(len(ids))]
        if seat.user_id:
            gameplay_services.match_act(
                match_id=match.pk,
                user=seat.user,
                action_id=action,
                expected_version=match.version,
            )
        else:
            gameplay_services.match_system_act(
                match_id=match.pk,
                seat_number=number,
                action_id=action,
                expected_version=match.version,
            )
    raise AssertionError("match did not end")


def _resign(match) -> None:
    """End a two-player match at once: the first seat's person resigns."""
    seat = match.seats.filter(user__isnull=False).order_by("number").first()
    gameplay_services.match_resign(match_id=match.pk, user=seat.user)


def _match(game: ArenaGame) -> Match:
    assert game.match is not None, "an arena game in play has its match"
    return game.match


def _playing(a) -> list[ArenaGame]:
    return list(
        ArenaGame.objects.filter(arena=a, status=ArenaGameStatus.PLAYING)
        .select_related("match")
        .order_by("pk")
    )


@pytest.mark.slow
def test_an_arena_with_people_and_bots_runs_to_its_end(
    clock, django_capture_on_commit_callbacks
) -> None:
    rnd = random.Random(31)
    creator = UserFactory()
    people = [UserFactory() for _ in range(4)]
    start = clock.now
    a = arena.arena_create(
        by=creator,
        name="Friday arena",
        game=GAME,
        minutes=6,
        time_control={"total": 600},
        now=start,
    )
    with django_capture_on_commit_callbacks(execute=True):
        arena.arena_join(arena=a, user=people[0])
        arena.arena_set_berserk(arena=a, user=people[0], berserk=True)
        for user in people[1:]:
            arena.arena_join(arena=a, user=user)
        arena.arena_add_builtin(arena=a, by=creator, name="random")
        arena.arena_add_builtin(arena=a, by=creator, name="heuristic")
    a.refresh_from_db()
    assert a.status == ArenaStatus.RUNNING
    # Six free players: three games at once (the bots' own is over already).
    assert ArenaGame.objects.filter(arena=a).count() == 3
    counted_after_end: set[int] = set()
    paused_once = resumed = False
    for _ in range(200):
        games = _playing(a)
        if not games:
            break
        clock.advance(minutes=2)
        if clock.now >= a.ends_at:
            # Time is up: beat's tick pairs nobody, the games in play go on.
            with django_capture_on_commit_callbacks(execute=True):
                arena.arenas_tick()
            a.refresh_from_db()
            if _playing(a):
                assert a.status == ArenaStatus.RUNNING
                counted_after_end.update(g.pk for g in _playing(a))
        if not paused_once and clock.now - start >= timedelta(minutes=2):
            with django_capture_on_commit_callbacks(execute=True):
                arena.arena_pause(arena=a, user=people[3], paused=True)
            paused_once = True
            paused_at = clock.now
        if (
            paused_once
            and not resumed
            and clock.now - paused_at >= timedelta(minutes=2)
        ):
            # Nobody paired people[3] while paused.
            assert not ArenaSeat.objects.filter(
                player__participant__user=people[3],
                game__started_at__gte=paused_at,
            ).exists()
            with django_capture_on_commit_callbacks(execute=True):
                arena.arena_pause(arena=a, user=people[3], paused=False)
            resumed = True
        for game in _playing(a):
            if _match(game).status == MatchStatus.ACTIVE:
                with django_capture_on_commit_callbacks(execute=True):
                    _finish(_match(game), rnd)
    a.refresh_from_db()
    assert resumed and counted_after_end
    assert a.status == ArenaStatus.FINISHED
    assert a.finished_at is not None and a.finished_at >= a.ends_at
    # No game started at or after the end; those in play at the end counted.
    assert not ArenaGame.objects.filter(arena=a, started_at__gte=a.ends_at).exists()
    for game in ArenaGame.objects.filter(pk__in=counted_after_end):
        assert game.status == ArenaGameStatus.DONE
        assert all(s.points is not None for s in game.seats.all())
    # Every score is the sum of its games, recomputed from the rules.
    players = list(ArenaPlayer.objects.filter(arena=a).select_related("participant"))
    bots_vs_people = bots_vs_bots = 0
    for player in players:
        seats = list(
            ArenaSeat.objects.filter(player=player, game__status=ArenaGameStatus.DONE)
            .select_related("game")
            .order_by("game__finished_at", "game_id")
        )
        streak, total = 0, 0
        previous_opponent = None
        for seat in seats:
            outcome = cast(Outcome, seat.outcome)
            scored = game_points(outcome=outcome, streak=streak, berserk=seat.berserk)
            assert seat.points == scored.points and seat.doubled == scored.doubled
            streak, total = scored.streak, total + scored.points
            opponent = seat.game.seats.exclude(pk=seat.pk).get().player
            assert opponent.pk != previous_opponent, "same opponent twice in a row"
            previous_opponent = opponent.pk
            if player.participant.is_bot:
                if opponent.participant.is_bot:
                    bots_vs_bots += 1
                else:
                    bots_vs_people += 1
        assert player.score == total and player.streak == streak
        assert player.games == len(seats)
    assert bots_vs_people and bots_vs_bots
    # Berserk: people[0]'s seats are berserk and started with half the clock.
    berserk_seats = ArenaSeat.objects.filter(player__participant__user=people[0])
    assert berserk_seats.exists() and all(s.berserk for s in berserk_seats)
    rows = standings(a)
    assert [r.player.score for r in rows] == sorted(
        (r.player.score for r in rows), reverse=True
    )


def _arena(clock, creator, **kwargs):
    return arena.arena_create(
        by=creator,
        name="Quick arena",
        game=GAME,
        minutes=kwargs.pop("minutes", 20),
        time_control=kwargs.pop("time_control", {"total": 300}),
        now=clock.now,
        **kwargs,
    )


def test_berserk_halves_the_players_own_clock_at_the_start(clock) -> None:
    creator, alice, bob = UserFactory(), UserFactory(), UserFactory()
    a = _arena(clock, creator)
    arena.arena_join(arena=a, user=alice)
    arena.arena_set_berserk(arena=a, user=alice, berserk=True)
    arena.arena_join(arena=a, user=bob)
    (game,) = _playing(a)
    clocks = {s.user_id: s.clock_ms for s in Seat.objects.filter(match=_match(game))}
    assert clocks == {alice.pk: 150_000, bob.pk: 300_000}
    assert ArenaSeat.objects.get(game=game, player__participant__user=alice).berserk


def test_berserk_needs_a_clock_and_the_arenas_permission(clock) -> None:
    creator, alice = UserFactory(), UserFactory()
    no_clock = _arena(clock, creator, time_control={})
    arena.arena_join(arena=no_clock, user=alice)
    with pytest.raises(Conflict, match="berserk"):
        arena.arena_set_berserk(arena=no_clock, user=alice, berserk=True)
    off = _arena(clock, creator, berserk=False)
    arena.arena_join(arena=off, user=alice)
    with pytest.raises(Conflict, match="berserk"):
        arena.arena_set_berserk(arena=off, user=alice, berserk=True)
    assert not ArenaPlayer.objects.filter(berserk=True).exists()


def test_a_finished_game_pairs_its_players_with_others_not_each_other(
    clock, django_capture_on_commit_callbacks
) -> None:
    creator = UserFactory()
    alice, bob, carol, dave = (UserFactory() for _ in range(4))
    a = _arena(clock, creator)
    for user in (alice, bob):
        arena.arena_join(arena=a, user=user)
    (first,) = _playing(a)
    for user in (carol, dave):
        arena.arena_join(arena=a, user=user)
    (first, second) = _playing(a)
    clock.advance(minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        _resign(_match(first))
    # alice and bob are free, but just met: they wait.
    assert len(_playing(a)) == 1
    clock.advance(minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        _resign(_match(second))
    # Now four are free: alice and bob each meet carol or dave.
    games = _playing(a)
    assert len(games) == 2
    for game in games:
        users = {s.player.participant.user_id for s in game.seats.all()}
        assert users not in ({alice.pk, bob.pk}, {carol.pk, dave.pk})
    # Running the pairing again changes nothing (idempotent).
    assert arena.arena_pair(arena_id=a.pk) == 0
    assert len(_playing(a)) == 2


def test_upcoming_arena_pairs_at_its_start_and_leaving_before_removes(clock) -> None:
    creator, alice, bob, carol = (UserFactory() for _ in range(4))
    a = _arena(clock, creator)
    a.starts_at = clock.now + timedelta(minutes=10)
    a.ends_at = a.starts_at + timedelta(minutes=20)
    a.status = ArenaStatus.UPCOMING
    a.save()
    for user in (alice, bob, carol):
        arena.arena_join(arena=a, user=user)
    arena.arena_leave(arena=a, user=carol)
    assert not ArenaPlayer.objects.filter(arena=a, participant__user=carol).exists()
    assert arena.arenas_tick()["games"] == 0 and not _playing(a)
    clock.advance(minutes=10)
    assert arena.arenas_tick() == {"arenas": 1, "games": 1}
    a.refresh_from_db()
    assert a.status == ArenaStatus.RUNNING


def test_leaving_keeps_the_score_and_joining_again_resumes(
    clock, django_capture_on_commit_callbacks
) -> None:
    creator, alice, bob, carol = (UserFactory() for _ in range(4))
    a = _arena(clock, creator)
    arena.arena_join(arena=a, user=alice)
    arena.arena_join(arena=a, user=bob)
    (game,) = _playing(a)
    arena.arena_leave(arena=a, user=alice)  # the game in play goes on
    with django_capture_on_commit_callbacks(execute=True):
        _resign(_match(game))
    arena.arena_join(arena=a, user=carol)
    # alice left: bob waits for someone else than alice, carol is there.
    (game,) = _playing(a)
    users = {s.player.participant.user_id for s in game.seats.all()}
    assert users == {bob.pk, carol.pk}
    left = ArenaPlayer.objects.get(arena=a, participant__user=alice)
    assert left.withdrawn and left.games == 1
    assert [r.state for r in standings(a) if r.player.pk == left.pk] == ["left"]
    arena.arena_join(arena=a, user=alice)
    left.refresh_from_db()
    assert not left.withdrawn and left.games == 1


def test_bad_requests_change_nothing(clock) -> None:
    creator, alice, mallory = UserFactory(), UserFactory(), UserFactory()
    with pytest.raises(Invalid):
        _arena(clock, creator, minutes=1)
    with pytest.raises(Invalid):
        arena.arena_create(by=creator, name="", game=GAME, minutes=30)
    with pytest.raises(Invalid):
        arena.arena_create(by=creator, name="x", game="chess", minutes=30)
    a = _arena(clock, creator, participants="humans")
    with pytest.raises(Invalid):
        arena.arena_add_builtin(arena=a, by=creator, name="random")
    with pytest.raises(PermissionDenied):
        arena.arena_add_builtin(arena=a, by=mallory, name="random")
    with pytest.raises(Conflict):
        arena.arena_pause(arena=a, user=alice, paused=True)
    arena.arena_join(arena=a, user=alice)
    with pytest.raises(Conflict):
        arena.arena_join(arena=a, user=alice)
    bots_only = _arena(clock, creator, participants="bots")
    with pytest.raises(Invalid):
        arena.arena_join(arena=bots_only, user=alice)
    clock.advance(minutes=25)
    arena.arenas_tick()
    with pytest.raises(Conflict, match="over"):
        arena.arena_join(arena=a, user=mallory)
    assert ArenaPlayer.objects.filter(arena=a).count() == 1


def test_multiplayer_tables_of_the_games_preferred_size(clock) -> None:
    creator = UserFactory()
    a = arena.arena_create(
        by=creator, name="Duelo arena", game="duelo", minutes=30, now=clock.now
    )
    users = [UserFactory() for _ in range(8)]
    for user in users:
        arena.arena_join(arena=a, user=user)
    # Joining one by one: a table as soon as three (the smallest) are free.
    assert [_match(g).seats.count() for g in _playing(a)] == [3, 3]
    # Six free at once sit at two tables of three (four is preferred, but
    # everyone is seated); two were waiting, so eight means 4 + 4.
    b = arena.arena_create(
        by=creator, name="Duelo arena", game="duelo", minutes=30, now=clock.now
    )
    b.starts_at = clock.now + timedelta(minutes=1)
    b.save()
    for user in users:
        arena.arena_join(arena=b, user=user)
    clock.advance(minutes=1)
    arena.arenas_tick()
    assert sorted(_match(g).seats.count() for g in _playing(b)) == [4, 4]


def test_a_person_who_lost_for_being_away_is_paused(
    clock, django_capture_on_commit_callbacks
) -> None:
    creator, alice, bob = UserFactory(), UserFactory(), UserFactory()
    a = _arena(clock, creator)
    arena.arena_join(arena=a, user=alice)
    arena.arena_join(arena=a, user=bob)
    (game,) = _playing(a)
    loser = _match(game).seats.get(number=0)
    assert loser.user is not None
    with django_capture_on_commit_callbacks(execute=True):
        gameplay_services.match_forfeit(
            match_id=_match(game).pk, seat_number=0, reason="left"
        )
    away = ArenaPlayer.objects.get(arena=a, participant__user=loser.user)
    present = ArenaPlayer.objects.get(
        arena=a, participant__user__isnull=False, paused=False
    )
    assert away.paused and away.games == 1 and away.score == 0
    assert present.score == 2 and present.streak == 1
    # Paused already: they come back with "Come back" (resume).
    with pytest.raises(Conflict):
        arena.arena_pause(arena=a, user=loser.user, paused=True)
