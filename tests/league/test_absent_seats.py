"""Absent players in tournament and season games keep the competition's deadline.

The grace period that hands an absent seat to a bot after a minute is for
casual tables; a Swiss table of three or more whose entrants were told "24 h"
must not forfeit them before anyone moved (issue 26, 1.1).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import clocks, services
from gameplay.clocks import NEVER_CONNECTED
from gameplay.errors import Forbidden
from gameplay.models import MatchStatus
from gameplay.services import SeatSpec, connections
from league import services as league_services
from league.models import Pairing
from league.tournaments import services as ts
from tests.factories import LeagueFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db
GAME = "kungfu2019"


def _table(users, capture):
    organiser = UserFactory(username="organiser")
    t = ts.tournament_create(
        by=organiser,
        name="tables",
        game=GAME,
        format="swiss_tables",
        swiss_rounds=2,
        round_hours=24,
    )
    for user in users:
        ts.tournament_enter(tournament=t, user=user)
    with capture(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    pairing = Pairing.objects.get(tournament=t, round__number=1)
    assert pairing.match.seats.count() == 3
    return t, pairing


def test_a_swiss_table_never_joined_keeps_its_seats_past_the_grace(
    users, django_capture_on_commit_callbacks
) -> None:
    _, pairing = _table(users[:3], django_capture_on_commit_callbacks)
    match = pairing.match
    assert match.started_at is not None
    later = match.started_at + timedelta(seconds=clocks.GRACE_SECONDS + 5)
    for number in range(3):
        outcome = services.seat_grace_expired(
            match_id=match.pk,
            seat_number=number,
            disconnected_at=NEVER_CONNECTED,
            now=later,
        )
        assert outcome == "competition keeps the seat"
    # Beat's sweep of overdue grace periods leaves them too.
    connections.seats_sweep_absent(now=later + timedelta(minutes=5))
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert not match.seats.filter(forfeited=True).exists()
    assert not match.seats.filter(replaced_by_bot=True).exists()


def test_a_player_who_left_a_swiss_table_forfeits_at_the_deadline_not_before(
    users, django_capture_on_commit_callbacks
) -> None:
    t, pairing = _table(users[:3], django_capture_on_commit_callbacks)
    match = pairing.match
    seated = {s.number: s.user for s in match.seats.all()}
    for user in seated.values():
        services.seat_connected(match_id=match.pk, user=user)
    services.seat_disconnected(match_id=match.pk, user=seated[2])
    seat = match.seats.get(number=2)
    stamp = seat.disconnected_at.isoformat()
    later = seat.disconnected_at + timedelta(seconds=clocks.GRACE_SECONDS + 1)
    outcome = services.seat_grace_expired(
        match_id=match.pk, seat_number=2, disconnected_at=stamp, now=later
    )
    assert outcome == "competition keeps the seat"
    seat.refresh_from_db()
    assert not seat.forfeited and not seat.replaced_by_bot
    # Before the deadline the tick decides nothing.
    with django_capture_on_commit_callbacks(execute=True):
        assert ts.tournament_check_deadlines(tournament_id=t.pk, now=later) == 0
    # Past the deadline the one who left forfeits; the two present play on.
    deadline = pairing.round.deadline + timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert ts.tournament_check_deadlines(tournament_id=t.pk, now=deadline) == 1
    seat.refresh_from_db()
    assert seat.forfeited and seat.forfeit_reason == "left"
    assert match.seats.filter(forfeited=True).count() == 1


def test_a_casual_table_still_hands_an_absent_seat_to_a_bot(users) -> None:
    match = services.match_create(
        game=GAME, seats=[SeatSpec(user=u) for u in users[:3]]
    )
    services.match_start(match_id=match.pk)
    match.refresh_from_db()
    assert match.started_at is not None
    later = match.started_at + timedelta(seconds=clocks.GRACE_SECONDS + 5)
    outcome = services.seat_grace_expired(
        match_id=match.pk, seat_number=0, disconnected_at=NEVER_CONNECTED, now=later
    )
    assert outcome == "bot took over"


def test_a_season_table_keeps_its_absent_seat(users) -> None:
    season = SeasonFactory(status="running", league=LeagueFactory(game=GAME))
    registrations = [
        league_services.season_register(season=season, user=u) for u in users[:3]
    ]
    match = league_services.league_match_create(
        season=season,
        by=None,
        participant_ids=[r.participant_id for r in registrations],
        rated=True,
    )
    assert match.seats.count() == 3
    assert match.started_at is not None
    later = match.started_at + timedelta(seconds=clocks.GRACE_SECONDS + 5)
    outcome = services.seat_grace_expired(
        match_id=match.pk, seat_number=1, disconnected_at=NEVER_CONNECTED, now=later
    )
    assert outcome == "competition keeps the seat"


def _duel(users, capture):
    organiser = UserFactory(username="organiser")
    t = ts.tournament_create(
        by=organiser,
        name="Spring Open",
        game=GAME,
        format="swiss",
        swiss_rounds=2,
        round_hours=24,
    )
    for user in users:
        ts.tournament_enter(tournament=t, user=user)
    with capture(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    pairing = Pairing.objects.filter(
        tournament=t, round__number=1, match__isnull=False
    ).first()
    assert pairing is not None and pairing.match.seats.count() == 2
    return pairing


def test_a_two_player_tournament_game_is_claimable_only_from_the_deadline(
    users, django_capture_on_commit_callbacks
) -> None:
    """Issue 26 §1.1 at two seats: the present player may not claim the win
    after the minute's grace; the absent one keeps the round's deadline."""
    pairing = _duel(users[:4], django_capture_on_commit_callbacks)
    match = pairing.match
    seated = {s.number: s.user for s in match.seats.all()}
    for user in seated.values():
        services.seat_connected(match_id=match.pk, user=user)
    services.seat_disconnected(match_id=match.pk, user=seated[1])
    seat = match.seats.get(number=1)
    seat.disconnected_at = timezone.now() - timedelta(seconds=clocks.GRACE_SECONDS + 60)
    seat.save(update_fields=["disconnected_at"])
    deadline = pairing.round.deadline
    # The table's countdown runs to the deadline, not to the grace's end.
    assert clocks.absent_until_claimable(match=match, seat=seat) == deadline
    with pytest.raises(Forbidden, match="keeps the seat until the deadline"):
        services.match_claim(match_id=match.pk, user=seated[0], claim="win")
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    # From the deadline on the claim is open.
    pairing.round.deadline = timezone.now() - timedelta(seconds=1)
    pairing.round.save(update_fields=["deadline"])
    services.match_claim(match_id=match.pk, user=seated[0], claim="win")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result["winners"] == [0]


def test_a_casual_two_player_game_is_claimable_after_the_grace(users) -> None:
    match = services.match_create(
        game=GAME, seats=[SeatSpec(user=u) for u in users[:2]]
    )
    services.match_start(match_id=match.pk)
    for user in users[:2]:
        services.seat_connected(match_id=match.pk, user=user)
    services.seat_disconnected(match_id=match.pk, user=users[1])
    seat = match.seats.get(number=1)
    seat.disconnected_at = timezone.now() - timedelta(seconds=clocks.GRACE_SECONDS + 1)
    seat.save(update_fields=["disconnected_at"])
    services.match_claim(match_id=match.pk, user=users[0], claim="win")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
