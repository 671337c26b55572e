"""Kung Fu (2019) in the tournament formats, with no game-specific code: real
matches of the dice game (draft, commits, dice), played to the end through the
services.

The game seats 2-5, so it takes both kinds of format: Swiss tables of 3-5
(``swiss_tables``, one match per table, placement points) and the two-player
formats (pairs at the game's two-player size, the dummy in every fight). Match
seeds are random, so games may end level: a level table shares its places, and
a drawn elimination game is replayed as a new match (``decide``)."""

from __future__ import annotations

import pytest

from gameplay.models import MatchStatus
from league.models import (
    Pairing,
    PairingStatus,
    RatingEvent,
    TournamentStatus,
)
from league.ratings.services import pool_global
from league.tournaments import selectors
from league.tournaments import services as ts
from tests.factories import UserFactory
from tests.league.conftest import decide, drive_tournament, play_out

pytestmark = pytest.mark.django_db
GAME = "kungfu2019"


def _started(fmt: str, entrants, capture, **extra):
    organiser = UserFactory(username="organiser")
    t = ts.tournament_create(
        by=organiser, name=f"{fmt} 2019 cup", game=GAME, format=fmt, **extra
    )
    for user in entrants:
        ts.tournament_enter(tournament=t, user=user)
    with capture(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    t.refresh_from_db()
    return t


def _play(pairing) -> None:
    """First legal moves to the end: the solver's ``auto`` in every fight."""
    match = pairing.match
    assert match.game == GAME
    assert match.config["players"] == match.seats.count()
    play_out(match)


#: Seven entrants (tables of 3 and 4: the split, two sizes in one round) in
#: the default suite; one table of 3 and one of 5 (the game's largest) repeat
#: its proof at other sizes, so they run with the slow set (CI's second pass).
@pytest.mark.parametrize(
    ("entrants", "sizes"),
    [
        pytest.param(3, [3], marks=pytest.mark.slow),
        pytest.param(5, [5], marks=pytest.mark.slow),
        (7, [3, 4]),
    ],
)
def test_swiss_tables_of_three_to_five_run_to_the_end(
    entrants, sizes, users, django_capture_on_commit_callbacks
) -> None:
    t = _started(
        "swiss_tables",
        users[:entrants],
        django_capture_on_commit_callbacks,
        swiss_rounds=2,
    )
    assert t.options["players"] == 3  # the table size is the match's, below
    first = list(t.pairings.filter(round__number=1).prefetch_related("seats"))
    assert sorted(p.seats.count() for p in first) == sizes
    for pairing in first:
        match = pairing.match
        assert match.status == MatchStatus.ACTIVE
        assert match.seats.count() == pairing.seats.count()
        assert match.state["n"] == pairing.seats.count()
    drive_tournament(t, django_capture_on_commit_callbacks, play=_play)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 2
    tables = Pairing.objects.filter(tournament=t).prefetch_related("seats")
    assert all(p.status == PairingStatus.DONE for p in tables)
    for pairing in tables:
        seats = list(pairing.seats.all())
        assert pairing.match is not None and pairing.match.result is not None
        assert pairing.match.status == MatchStatus.FINISHED
        # The places come from the match's HP standings (level seats share one).
        placements = pairing.match.result["placements"]
        assert {s.seat: s.placement for s in seats} == dict(enumerate(placements))
        # Placement points on the two-player scale: a table hands out size / 2.
        points = [s.points for s in seats]
        assert None not in points
        total = sum(p for p in points if p is not None)
        assert total == pytest.approx(len(seats) / 2)
    table = selectors.standings(tournament=t)
    assert len(table) == entrants
    assert sum(row.score for row in table) == pytest.approx(2 * entrants / 2)
    assert t.champion_id == table[0].entrant.pk
    # The tables fed the game's global ladder as multiplayer matches.
    events = RatingEvent.objects.filter(pool=pool_global(game=GAME))
    assert {e.players for e in events} == set(sizes)


#: The double elimination's bracket is the league's (tests/league/algorithms);
#: with this game it repeats the single one's proof, so it runs with the slow set.
@pytest.mark.parametrize(
    "fmt", ["single_elim", pytest.param("double_elim", marks=pytest.mark.slow)]
)
def test_a_two_player_elimination_runs_to_the_end(
    fmt, users, django_capture_on_commit_callbacks
) -> None:
    t = _started(fmt, users[:4], django_capture_on_commit_callbacks)
    assert t.options["players"] == 2

    def play(pairing) -> None:
        assert pairing.match.config["players"] == 2
        decide(pairing, django_capture_on_commit_callbacks)

    drive_tournament(t, django_capture_on_commit_callbacks, play=play)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.champion is not None
    pairings = Pairing.objects.filter(tournament=t).exclude(
        status=PairingStatus.CANCELLED
    )
    # Every bracket match was decided by a finished game of the dice game.
    assert pairings.exists()
    for pairing in pairings:
        assert pairing.status == PairingStatus.DONE
        assert pairing.match is not None
        assert pairing.match.game == GAME
        assert pairing.match.status == MatchStatus.FINISHED
    assert RatingEvent.objects.filter(pool=pool_global(game=GAME)).exists()


def test_a_two_player_round_robin_runs_to_the_end(
    users, django_capture_on_commit_callbacks
) -> None:
    t = _started("round_robin", users[:3], django_capture_on_commit_callbacks)
    drive_tournament(t, django_capture_on_commit_callbacks, play=_play)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    # Three entrants: three rounds, each with one game and one bye.
    assert t.rounds.count() == 3
    table = selectors.standings(tournament=t)
    assert len(table) == 3 and t.champion_id == table[0].entrant.pk
