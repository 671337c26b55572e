"""Tournaments end to end: real gameplay matches, finished through the services,
drive every format to its end; deadlines, forfeits, voids and permissions."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import services as gameplay_services
from gameplay.models import MatchStatus
from league.errors import Conflict, Invalid, PermissionDenied
from league.models import (
    Entrant,
    MatchVoid,
    PairingOutcome,
    PairingStatus,
    RatingEvent,
    TournamentStatus,
)
from league.participants import participant_for_builtin, participant_for_user
from league.ratings.services import pool_global
from league.tournaments import selectors
from league.tournaments import services as ts
from league.tournaments.formats import elimination
from tests.factories import UserFactory, finished_match
from tests.league.conftest import decide, drive_tournament, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(db):
    return UserFactory(username="organiser")


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """Play every open tournament match to its end, as the players would."""

    def drive(tournament, max_loops: int = 200) -> None:
        drive_tournament(
            tournament, django_capture_on_commit_callbacks, max_loops=max_loops
        )

    return drive


def _make(organiser, players, fmt: str, **kwargs):
    tournament = ts.tournament_create(
        by=organiser, name=f"{fmt} cup", game="duelo", format=fmt, **kwargs
    )
    for user in players:
        ts.tournament_enter(tournament=tournament, user=user)
    return tournament


def _start(tournament, organiser, capture):
    with capture(execute=True):
        return ts.tournament_start(tournament=tournament, by=organiser)


def _met(tournament) -> Counter:
    return Counter(
        frozenset((p.first_id, p.second_id))
        for p in tournament.pairings.filter(second__isnull=False).exclude(
            status=PairingStatus.CANCELLED
        )
    )


def test_round_robin_completes_with_everyone_meeting_once(
    users, organiser, run, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:4], "round_robin")
    _start(t, organiser, django_capture_on_commit_callbacks)
    run(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert t.rounds.count() == 3
    ids = list(t.entrants.values_list("pk", flat=True))
    assert _met(t) == Counter(frozenset(p) for p in itertools.combinations(ids, 2))
    table = selectors.standings(tournament=t)
    assert sum(row.score for row in table) == 6
    assert t.champion.pk == table[0].entrant.pk
    assert "direct_encounter" in table[0].tiebreaks
    grid = selectors.cross_table(tournament=t)
    assert [row.entrant for row in grid] == [row.entrant for row in table]
    assert [row.score for row in grid] == [row.score for row in table]
    for i, row in enumerate(grid):
        assert row.cells[i] is None
        for j, cell in enumerate(row.cells):
            if i != j:
                mirror = grid[j].cells[i]
                assert cell is not None and mirror is not None
                assert len(cell) == 1 and cell[0] + mirror[0] == 1
    # Rated tournament games fed the global ladder.
    assert RatingEvent.objects.filter(pool=pool_global(game="duelo")).count() == 12


@pytest.mark.slow  # a whole tournament of full games
def test_double_round_robin_with_odd_field_gives_byes_and_swaps_seats(
    users, organiser, run, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:3], "double_round_robin", rated=False)
    _start(t, organiser, django_capture_on_commit_callbacks)
    run(t)
    t.refresh_from_db()
    assert t.rounds.count() == 6
    assert set(_met(t).values()) == {2}
    seats = Counter(
        (p.first_id, p.second_id) for p in t.pairings.filter(second__isnull=False)
    )
    assert set(seats.values()) == {1}  # each ordered pair once: seats swapped
    byes = Counter(p.first_id for p in t.pairings.filter(status=PairingStatus.BYE))
    assert set(byes.values()) == {2}
    assert not RatingEvent.objects.exists()


@pytest.mark.slow  # a whole tournament of full games
def test_swiss_rounds_pair_without_rematches(
    users, organiser, run, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:5], "swiss", swiss_rounds=3)
    _start(t, organiser, django_capture_on_commit_callbacks)
    run(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 3
    assert set(_met(t).values()) == {1}
    byes = Counter(p.first_id for p in t.pairings.filter(status=PairingStatus.BYE))
    assert len(byes) == 3 and set(byes.values()) == {1}  # one a round, max 1 each
    table = selectors.standings(tournament=t)
    assert [row.rank for row in table] == list(range(1, 6))
    assert list(table[0].tiebreaks) == [
        "buchholz_cut1",
        "buchholz",
        "sonneborn_berger",
        "direct_encounter",
    ]
    scores = [row.score for row in table]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.slow  # a whole tournament of full games
def test_single_elimination_with_byes_advances_through_matches(
    users, organiser, run, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:5], "single_elim", third_place=True)
    _start(t, organiser, django_capture_on_commit_callbacks)
    # 5 entrants in a bracket of 8: seeds 1-3 get byes, so 4 v 5 plays in
    # round 1 and 2 v 3 (their round-2 match) is ready at once.
    seeds = {e.pk: e.seed for e in t.entrants.all()}
    first_wave = {
        p.bracket_match: sorted((seeds[p.first_id], seeds[p.second_id]))
        for p in t.pairings.filter(round__number=1)
    }
    assert first_wave == {"W1-2": [4, 5], "W2-2": [2, 3]}
    run(t)
    t.refresh_from_db()
    bracket = elimination.Bracket.from_dict(t.bracket)
    assert bracket.complete and t.champion_id == bracket.champion
    final = bracket.matches["W3-1"]
    assert final.winner == t.champion_id
    assert t.pairings.get(bracket_match="W3-1").winner_id == t.champion_id
    assert t.pairings.filter(bracket_match="P3").exists()
    view = selectors.bracket_view(tournament=t)
    assert view is not None
    assert [col.title for col in view.sections[0].rounds] == [
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]


@pytest.mark.slow  # a whole tournament of full games
def test_double_elimination_reaches_grand_final(
    users, organiser, run, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:4], "double_elim")
    _start(t, organiser, django_capture_on_commit_callbacks)
    run(t)
    t.refresh_from_db()
    bracket = elimination.Bracket.from_dict(t.bracket)
    assert bracket.complete and t.champion_id == bracket.champion
    gf = bracket.matches["GF1"]
    reset = bracket.matches["GF2"]
    assert gf.state == "done"
    assert reset.state == (
        "done" if gf.winner == gf.slots[1].participant else "skipped"
    )
    view = selectors.bracket_view(tournament=t)
    assert view is not None
    sections = [s.title for s in view.sections]
    assert sections == ["Winners bracket", "Losers bracket", "Finals"]
    # Nobody but the champion and the runner-up lost fewer than twice.
    losses = Counter(
        p.first_id if p.winner_id == p.second_id else p.second_id
        for p in t.pairings.filter(status=PairingStatus.DONE)
    )
    assert sum(1 for n in losses.values() if n >= 2) >= 2


@pytest.mark.slow  # a whole tournament of full games
def test_builtin_bots_play_a_whole_bracket_by_themselves(
    organiser, django_capture_on_commit_callbacks
) -> None:
    t = ts.tournament_create(
        by=organiser, name="Bot cup", game="duelo", format="single_elim", rated=False
    )
    for name in ("random", "heuristic", "ismcts", "random"):
        participant = participant_for_builtin(name)
        if not t.entrants.filter(participant=participant).exists():
            ts.tournament_add_entrant(
                tournament=t, by=organiser, participant_id=participant.pk
            )
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert t.champion is not None


def test_no_show_forfeits_after_the_deadline(
    users, organiser, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:2], "round_robin", round_hours=1)
    _start(t, organiser, django_capture_on_commit_callbacks)
    pairing = t.pairings.get()
    match = pairing.match
    present = users.index(pairing.first.participant.user)
    gameplay_services.seat_connected(match_id=match.pk, user=users[present])
    early = timezone.now() + timedelta(minutes=30)
    assert ts.tournaments_tick(now=early)["forfeits"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        done = ts.tournaments_tick(now=timezone.now() + timedelta(hours=2))
    assert done["forfeits"] == 1
    pairing.refresh_from_db()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.end_reason == "no-show"
    assert pairing.outcome == PairingOutcome.FORFEIT
    assert pairing.winner_id == pairing.first_id
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_double_no_show_scores_nothing(
    users, organiser, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:2], "round_robin", round_hours=1)
    _start(t, organiser, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournaments_tick(now=timezone.now() + timedelta(hours=2))
    pairing = t.pairings.get()
    assert pairing.outcome == PairingOutcome.DOUBLE_FORFEIT
    assert (pairing.first_points, pairing.second_points) == (0.0, 0.0)
    assert pairing.match.status == MatchStatus.ABORTED
    assert not RatingEvent.objects.exists()


@pytest.mark.slow  # a whole tournament of full games
def test_void_in_a_bracket_reopens_the_pairing_and_undoes_what_followed(
    users, organiser, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:4], "single_elim")
    _start(t, organiser, django_capture_on_commit_callbacks)
    semis = list(t.pairings.filter(round__number=1))
    for p in semis:
        decide(p, django_capture_on_commit_callbacks)
    final = t.pairings.get(bracket_match="W2-1")
    assert final.status == PairingStatus.PLAYING
    semi = semis[0]
    semi.refresh_from_db()
    old_match = semi.match
    assert RatingEvent.objects.filter(match=old_match).exists()
    with pytest.raises(PermissionDenied):
        ts.pairing_void(pairing_id=semi.pk, by=users[0])
    with django_capture_on_commit_callbacks(execute=True):
        ts.pairing_void(pairing_id=semi.pk, by=organiser, reason="wrong result")
    semi.refresh_from_db()
    final.refresh_from_db()
    assert semi.status == PairingStatus.PLAYING and semi.match_id != old_match.pk
    assert final.status == PairingStatus.CANCELLED
    assert final.match.status == MatchStatus.ABORTED
    assert MatchVoid.objects.filter(match=old_match).exists()
    assert not RatingEvent.objects.filter(match=old_match).exists()
    bracket = elimination.Bracket.from_dict(t.__class__.objects.get(pk=t.pk).bracket)
    assert bracket.matches[semi.bracket_match].state == "ready"
    assert bracket.matches["W2-1"].state == "pending"
    decide(semi, django_capture_on_commit_callbacks)
    new_final = t.pairings.exclude(status=PairingStatus.CANCELLED).get(
        bracket_match="W2-1"
    )
    decide(new_final, django_capture_on_commit_callbacks)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


@pytest.mark.slow  # a whole tournament of full games
def test_void_in_swiss_only_for_the_latest_round(
    users, organiser, run, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:4], "swiss", swiss_rounds=2)
    _start(t, organiser, django_capture_on_commit_callbacks)
    for p in t.pairings.filter(round__number=1):
        with django_capture_on_commit_callbacks(execute=True):
            play_out(p.match)
    early = t.pairings.filter(round__number=1).first()
    with pytest.raises(Conflict, match="later Swiss rounds"):
        ts.pairing_void(pairing_id=early.pk, by=organiser)
    run(t)
    last = t.pairings.filter(round__number=2).first()
    with django_capture_on_commit_callbacks(execute=True):
        ts.pairing_void(pairing_id=last.pk, by=organiser)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.champion is None
    run(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_seeding_by_rating_and_by_hand(users, organiser) -> None:
    t = _make(organiser, users[:3], "single_elim")
    # users[2] beats everyone on the global ladder, users[1] is unrated.
    from league.ratings.services import rating_apply_match

    for loser in (users[0], users[5]):
        rating_apply_match(match_id=finished_match([users[2], loser], [1, 2]).pk)
    rating_apply_match(match_id=finished_match([users[6], users[0]], [2, 1]).pk)
    order = ts.tournament_seed(tournament=t, by=organiser, method="rating")
    assert [e.participant.user for e in order] == [users[2], users[0], users[1]]
    entrants = {e.participant.user_id: e.pk for e in t.entrants.all()}
    manual = [entrants[users[1].pk], entrants[users[0].pk], entrants[users[2].pk]]
    ts.tournament_seed(tournament=t, by=organiser, method="manual", order=manual)
    assert [
        e.pk for e in Entrant.objects.filter(tournament=t).order_by("seed")
    ] == manual
    with pytest.raises(Invalid):
        ts.tournament_seed(
            tournament=t, by=organiser, method="manual", order=manual[:2]
        )
    with pytest.raises(PermissionDenied):
        ts.tournament_seed(tournament=t, by=users[0], method="rating")


def test_entry_rules_and_organiser_permissions(users, organiser) -> None:
    t = _make(organiser, users[:2], "round_robin")
    with pytest.raises(Conflict, match="already entered"):
        ts.tournament_enter(tournament=t, user=users[0])
    with pytest.raises(PermissionDenied):
        ts.tournament_start(tournament=t, by=users[0])
    ts.tournament_withdraw(tournament=t, user=users[1])
    with pytest.raises(Conflict, match="at least two"):
        ts.tournament_start(tournament=t, by=organiser)
    ts.tournament_enter(tournament=t, user=users[1])
    ts.tournament_start(tournament=t, by=organiser)
    with pytest.raises(Conflict, match="closed"):
        ts.tournament_enter(tournament=t, user=users[2])
    with pytest.raises(Conflict):
        ts.tournament_start(tournament=t, by=organiser)
    with pytest.raises(Invalid, match="Swiss"):
        ts.tournament_create(
            by=organiser, name="x", game="duelo", format="swiss", swiss_rounds=25
        )
    with pytest.raises(Invalid, match="game"):
        ts.tournament_create(by=organiser, name="x", game="chess", format="single_elim")


def test_league_tournament_needs_organiser_and_season_registration(users) -> None:
    from league import services as league_services
    from tests.factories import SeasonFactory

    season = SeasonFactory()
    league = season.league
    league.organisers.add(users[9])
    with pytest.raises(PermissionDenied):
        ts.tournament_create(
            by=users[0], name="x", game="duelo", format="round_robin", season=season
        )
    with pytest.raises(Invalid, match="runs duelo"):
        ts.tournament_create(
            by=users[9],
            name="x",
            game="kungfu2013",
            format="round_robin",
            league=league,
        )
    t = ts.tournament_create(
        by=users[9],
        name="Season cup",
        game="duelo",
        format="round_robin",
        season=season,
    )
    with pytest.raises(Conflict, match="register for the season"):
        ts.tournament_enter(tournament=t, user=users[0])
    league_services.season_register(season=season, user=users[0])
    assert ts.tournament_enter(tournament=t, user=users[0]).participant == (
        participant_for_user(users[0])
    )


def test_advance_forfeits_no_shows_now(
    users, organiser, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:4], "swiss", swiss_rounds=2)
    _start(t, organiser, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_advance(tournament=t, by=organiser)
    t.refresh_from_db()
    assert t.rounds.count() == 2  # round 1 closed by double forfeits, round 2 paired
    assert set(
        t.pairings.filter(round__number=1).values_list("outcome", flat=True)
    ) == {PairingOutcome.DOUBLE_FORFEIT}
    with pytest.raises(PermissionDenied):
        ts.tournament_advance(tournament=t, by=users[0])


@pytest.mark.slow  # a whole tournament of full games
def test_multiplayer_swiss_tables_play_through(
    users, organiser, run, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:7], "swiss_tables", swiss_rounds=2)
    _start(t, organiser, django_capture_on_commit_callbacks)
    first = list(t.pairings.filter(round__number=1).prefetch_related("seats"))
    assert sorted(p.seats.count() for p in first) == [3, 4]  # 7 players: 4 + 3
    assert all(p.match.seats.count() == p.seats.count() for p in first)
    run(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 2
    table = selectors.standings(tournament=t)
    assert len(table) == 7
    # Every table hands out size/2 placement points: 2 + 1.5 per round.
    assert sum(row.score for row in table) == pytest.approx(2 * 3.5)
    assert set(table[0].tiebreaks) == {"wins", "opponent_score"}
    assert t.champion_id == table[0].entrant.pk
    # The tables fed the global ladder as multiplayer matches.
    assert RatingEvent.objects.filter(players=4).count() == 8


def test_multiplayer_table_no_show_forfeits_and_game_goes_on(
    users, organiser, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:3], "swiss_tables", swiss_rounds=1, round_hours=1)
    _start(t, organiser, django_capture_on_commit_callbacks)
    pairing = t.pairings.get()
    match = pairing.match
    present = [s for s in match.seats.all()][:2]
    for seat in present:
        gameplay_services.seat_connected(match_id=match.pk, user=seat.user)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournaments_tick(now=timezone.now() + timedelta(hours=2))
    match.refresh_from_db()
    absent = match.seats.get(number=2)
    assert absent.forfeited and absent.replaced_by_bot
    assert match.status == MatchStatus.ACTIVE  # two people still play
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match)
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.DONE
    assert pairing.outcome == PairingOutcome.FORFEIT
    last = pairing.seats.get(seat=2)
    assert last.placement == 3 and last.points == 0.0


@pytest.mark.slow  # a whole tournament of full games
def test_void_in_an_earlier_round_robin_round_replays_and_finishes_again(
    users, organiser, run, django_capture_on_commit_callbacks
) -> None:
    t = _make(organiser, users[:3], "round_robin", rated=False)
    _start(t, organiser, django_capture_on_commit_callbacks)
    run(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 3
    early = t.pairings.filter(round__number=1, second__isnull=False).get()
    with django_capture_on_commit_callbacks(execute=True):
        ts.pairing_void(pairing_id=early.pk, by=organiser)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.champion is None
    run(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 3
    assert t.pairings.get(pk=early.pk).status == PairingStatus.DONE
