"""Kung Fu (2013) in every tournament format, with no game-specific code: real
matches of the second game, played to the end through the services."""

from __future__ import annotations

import random

import pytest

from gameplay import services as gameplay_services
from gameplay.models import MatchStatus
from gameplay.rules import get_game
from league.errors import Invalid
from league.models import RatingEvent, TournamentStatus
from league.ratings.services import pool_global
from league.tournaments import services as ts
from tests.factories import UserFactory
from tests.league.conftest import drive_tournament

# Whole tournaments of full games (random legal moves, the cheapest full game):
# the double round robin takes about 2 minutes on a loaded machine, so more than
# the suite's 300 s default per test.
pytestmark = [pytest.mark.django_db, pytest.mark.timeout(1200)]
GAME = "kungfu2013"


def play_out(match, seed: int) -> None:
    """Finish a match with seeded random legal moves (first-entry moves, the
    cautious timeout defaults, block everything and only end at the round
    limit)."""
    rnd = random.Random(seed)
    engine = get_game(match.game)
    for _ in range(3000):
        match.refresh_from_db()
        if match.is_over:
            return
        seat = engine.actors(match.state)[0]
        ids = engine.legal_action_ids(match.state, seat)
        gameplay_services.match_act(
            match_id=match.pk,
            user=match.seats.get(number=seat).user,
            action_id=ids[rnd.randrange(len(ids))],
            expected_version=match.version,
        )
    raise AssertionError("match did not end")


def _drive(tournament, capture) -> None:
    def play(pairing) -> None:
        assert pairing.match.game == GAME
        play_out(pairing.match, pairing.pk)

    drive_tournament(tournament, capture, play=play)


@pytest.mark.slow
@pytest.mark.parametrize(
    "fmt", ["round_robin", "double_round_robin", "swiss", "single_elim", "double_elim"]
)
def test_every_two_player_format_runs_to_the_end(
    fmt, users, django_capture_on_commit_callbacks
) -> None:
    organiser = UserFactory(username="organiser")
    t = ts.tournament_create(
        by=organiser,
        name=f"{fmt} 2013 cup",
        game=GAME,
        format=fmt,
        swiss_rounds=2 if fmt == "swiss" else None,
    )
    for user in users[:4]:
        ts.tournament_enter(tournament=t, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    _drive(t, django_capture_on_commit_callbacks)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.champion is not None
    if t.rated:
        assert RatingEvent.objects.filter(pool=pool_global(game=GAME)).exists()


def test_tables_of_three_to_five_are_refused_for_a_two_player_game(users) -> None:
    organiser = UserFactory(username="organiser")
    with pytest.raises(Invalid, match="2"):
        t = ts.tournament_create(
            by=organiser, name="tables", game=GAME, format="swiss_tables"
        )
        for user in users[:6]:
            ts.tournament_enter(tournament=t, user=user)
        ts.tournament_start(tournament=t, by=organiser)


def test_a_kungfu2013_league_season_queue_pairs_and_plays_the_game(
    django_capture_on_commit_callbacks,
) -> None:
    from league import services as league_services
    from tests.factories import LeagueFactory, SeasonFactory

    season = SeasonFactory(status="running", league=LeagueFactory(game=GAME))
    alice, bob = UserFactory(), UserFactory()
    for user in (alice, bob):
        league_services.season_register(season=season, user=user)
    assert league_services.season_queue_join(season=season, user=alice) is None
    match = league_services.season_queue_join(season=season, user=bob)
    assert match is not None and match.game == GAME
    assert match.context == f"league:{season.league_id}:season:{season.pk}"
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, 1)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
