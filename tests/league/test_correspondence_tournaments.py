"""Seasons and tournaments on correspondence time controls (issue 30 §4).

Time is simulated: ``django.utils.timezone.now`` answers a test clock moved on
by the test (hours between moves, days to deadlines); nothing sleeps.
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from gameplay import contexts
from gameplay import services as gameplay_services
from gameplay.models import MatchStatus
from gameplay.rules import get_game
from league import services as league_services
from league.errors import Invalid
from league.models import PairingStatus, RoundStatus, Tournament, TournamentStatus
from league.tournaments import services as ts
from tests.factories import LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db

GAME = "kungfu2013"


class SimClock:
    def __init__(self) -> None:
        self.now = timezone.now().replace(month=5, day=4, hour=9)

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def sim():
    clock = SimClock()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: clock.now):
        yield clock


@pytest.fixture
def organiser(db):
    return UserFactory(username="organiser")


def _play_slowly(match, sim, *, hours: float = 0.1, capture) -> None:
    """Both players move, each after ``hours``: a correspondence game."""
    engine = get_game(match.game)
    for _ in range(3000):
        match.refresh_from_db()
        if match.is_over:
            return
        number = engine.actors(match.state)[0]
        seat = match.seats.get(number=number)
        sim.advance(hours=hours)
        with capture(execute=True):
            gameplay_services.match_act(
                match_id=match.pk,
                user=seat.user,
                action_id=engine.legal_action_ids(match.state, number)[0],
                expected_version=match.version,
            )
    raise AssertionError("match did not end")


def _tournament(organiser, players, **kwargs):
    tournament = ts.tournament_create(
        by=organiser, name="Slow cup", game=GAME, **kwargs
    )
    for user in players:
        ts.tournament_enter(tournament=tournament, user=user)
    return tournament


@pytest.mark.slow
def test_a_correspondence_swiss_is_played_to_the_end(
    organiser, sim, django_capture_on_commit_callbacks
):
    players = [UserFactory(username=f"c{i}") for i in range(4)]
    t = _tournament(
        organiser,
        players,
        format="swiss",
        swiss_rounds=2,
        options={"life": 5},  # shorter games (the lowest starting life)
        time_control={"days": 2},
        round_hours=14 * 24,
    )
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    for number in (1, 2):
        rnd = t.rounds.get(number=number)
        assert rnd.status == RoundStatus.RUNNING
        assert rnd.deadline == rnd.starts_at + timedelta(days=14)
        pairings = list(rnd.pairings.exclude(match=None))
        assert len(pairings) == 2
        for pairing in pairings:
            assert pairing.match.time_control == {"days": 2}
            _play_slowly(pairing.match, sim, capture=django_capture_on_commit_callbacks)
        finished_at = sim.now
        t.refresh_from_db()
        if number == 1:
            # Paired as soon as the round could be: the moment its last game
            # ended, days before round 1's deadline.
            nxt = t.rounds.get(number=2)
            assert nxt.starts_at == finished_at < rnd.deadline
            assert nxt.pairings.filter(status=PairingStatus.PLAYING).count() == 2
    assert t.status == TournamentStatus.FINISHED
    assert t.champion_id is not None


def test_a_no_show_is_forfeited_only_at_the_round_deadline(
    organiser, sim, django_capture_on_commit_callbacks
):
    present, absent = UserFactory(username="here"), UserFactory(username="away")
    t = _tournament(
        organiser,
        [present, absent],
        format="round_robin",
        time_control={"days": 1},
        round_hours=3 * 24,
    )
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    pairing = t.pairings.get()
    match = pairing.match
    engine = get_game(GAME)
    # The present player plays their turns; the absent one never comes.
    gameplay_services.seat_connected(match_id=match.pk, user=present)
    mine = match.seats.get(user=present).number
    for _ in range(50):
        match.refresh_from_db()
        if mine not in engine.actors(match.state):
            break
        sim.advance(hours=2)
        gameplay_services.match_act(
            match_id=match.pk,
            user=present,
            action_id=engine.legal_action_ids(match.state, mine)[0],
            expected_version=match.version,
        )
    # Past a day per move, before the deadline: no forfeit by clock or tick.
    sim.advance(days=2)
    assert gameplay_services.match_expire_clocks(match_id=match.pk) == []
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournaments_tick()
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    # At the round's deadline the no-show forfeits.
    sim.now = t.rounds.get().deadline + timedelta(minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournaments_tick()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.seats.get(user=absent).forfeit_reason == "no-show"
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.DONE
    assert pairing.winner.participant.user == present


def test_a_player_who_came_loses_on_time_even_in_a_tournament(
    organiser, sim, django_capture_on_commit_callbacks
):
    one, two = UserFactory(username="one"), UserFactory(username="two")
    t = _tournament(
        organiser,
        [one, two],
        format="round_robin",
        time_control={"days": 1},
        round_hours=5 * 24,
    )
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    match = t.pairings.get().match
    engine = get_game(GAME)
    # Both play a move each; then the one to move stops for good.
    for _ in range(2):
        match.refresh_from_db()
        number = engine.actors(match.state)[0]
        sim.advance(hours=3)
        gameplay_services.match_act(
            match_id=match.pk,
            user=match.seats.get(number=number).user,
            action_id=engine.legal_action_ids(match.state, number)[0],
            expected_version=match.version,
        )
    match.refresh_from_db()
    stuck = engine.actors(match.state)[0]
    sim.advance(days=1, seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert gameplay_services.match_expire_clocks(match_id=match.pk)
    match.refresh_from_db()
    assert match.end_reason == "time forfeit"
    assert match.seats.get(number=stuck).forfeited


def test_a_tournament_may_refuse_vacation(
    organiser, sim, django_capture_on_commit_callbacks
):
    one, two = UserFactory(username="v1"), UserFactory(username="v2")
    t = _tournament(
        organiser,
        [one, two],
        format="round_robin",
        time_control={"days": 1},
        round_hours=24,
        vacation_allowed=False,
    )
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    match = t.pairings.get().match
    engine = get_game(GAME)
    number = engine.actors(match.state)[0]
    seat = match.seats.get(number=number)
    gameplay_services.seat_connected(match_id=match.pk, user=seat.user)
    gameplay_services.vacation_start(user=seat.user, days=10)
    sim.advance(days=1, seconds=1)
    assert gameplay_services.match_expire_clocks(match_id=match.pk)
    match.refresh_from_db()
    assert match.end_reason == "time forfeit"
    assert not contexts.context_allows_vacation(match)
    # A tournament that allows vacation (the default) lets it pause clocks.
    other = _tournament(
        organiser,
        [one, two],
        format="round_robin",
        time_control={"days": 1},
        round_hours=24,
    )
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=other, by=organiser)
    assert contexts.context_allows_vacation(other.pairings.get().match)


def test_correspondence_settings_are_checked(organiser):
    with pytest.raises(Invalid, match="at least one move's 3 days"):
        ts.tournament_create(
            by=organiser,
            name="Too fast",
            game=GAME,
            format="swiss",
            time_control={"days": 3},
            round_hours=48,
        )
    with pytest.raises(Invalid, match="real-time"):
        ts.tournament_create(
            by=organiser,
            name="Live 2009",
            game="kungfu2009",
            format="swiss_tables",
            time_control={"days": 1},
        )
    with pytest.raises(Invalid, match="days per move only"):
        ts.tournament_create(
            by=organiser,
            name="Mixed",
            game=GAME,
            format="swiss",
            time_control={"days": 1, "per_move": 30},
        )


def test_a_correspondence_season(organiser, sim):
    league = LeagueFactory(game=GAME)
    league.organisers.add(organiser)
    now = sim.now
    season = league_services.season_create(
        league=league,
        by=organiser,
        registration_opens_at=now - timedelta(days=2),
        registration_closes_at=now + timedelta(days=1),
        starts_at=now - timedelta(days=1),
        ends_at=now + timedelta(days=60),
        time_control={"days": 5},
        vacation_allowed=False,
    )
    assert season.time_control == {"days": 5} and not season.vacation_allowed
    players = [UserFactory(username=f"s{i}") for i in range(2)]
    ids = []
    for user in players:
        registration = league_services.season_register(season=season, user=user)
        ids.append(registration.participant_id)
    match = league_services.league_match_create(
        season=season, by=organiser, participant_ids=ids
    )
    assert match.time_control == {"days": 5}
    with pytest.raises(Invalid, match="days per move"):
        league_services.season_create(
            league=league,
            by=organiser,
            registration_opens_at=now,
            registration_closes_at=now + timedelta(days=1),
            starts_at=now + timedelta(days=1),
            ends_at=now + timedelta(days=9),
            time_control={"days": 4},
        )


def test_pages_name_the_time_controls(organiser, client):
    league = LeagueFactory(game=GAME)
    league.organisers.add(organiser)
    client.force_login(organiser)
    now = timezone.now()
    fmt = "%Y-%m-%dT%H:%M"
    response = client.post(
        reverse("league:rollover", args=[league.slug]),
        {
            "registration_opens_at": now.strftime(fmt),
            "registration_closes_at": (now + timedelta(days=2)).strftime(fmt),
            "starts_at": (now + timedelta(days=1)).strftime(fmt),
            "ends_at": (now + timedelta(days=40)).strftime(fmt),
            "days": "7",
        },
    )
    assert response.status_code == 302
    season = league.seasons.get()
    assert season.time_control == {"days": 7}
    assert not season.vacation_allowed  # an unticked box
    page = client.get(reverse("league:detail", args=[league.slug])).content.decode()
    assert "7 days/move" in page
    season_page = client.get(response.url).content.decode()
    assert 'data-testid="season-time-control">7 days/move<' in season_page
    assert "vacation not allowed" in season_page
    created = client.post(
        reverse("league:tournaments"),
        {
            "name": "Postal cup",
            "game": GAME,
            "format": "swiss",
            "participants": "mixed",
            "seeding": "rating",
            "rated": "on",
            "days": "2",
            "round_days": "5",
            "vacation_allowed": "on",
        },
    )
    assert created.status_code == 302, created.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Postal cup")
    assert tournament.time_control == {"days": 2}
    assert tournament.round_hours == 120 and tournament.vacation_allowed
    detail = client.get(created.url).content.decode()
    assert 'data-testid="tournament-time-control">2 days/move<' in detail
    assert "rounds due within 5 days" in detail
    listing = client.get(reverse("league:tournaments")).content.decode()
    assert "2 days/move" in listing
