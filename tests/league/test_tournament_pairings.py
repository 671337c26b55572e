"""Pairing rules through the tournament services, with real matches.

A forfeit recorded by the deadline sweep reaches the pairing history: in a
Swiss as a forfeit (TRF ``+``/``-``: no meeting, no bye later for the winner;
the rule itself is tested on the hand-built TRF fixtures), at tables as a
forfeited seat.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import services as gameplay_services
from league.models import PairingOutcome, PairingStatus
from league.tournaments import selectors
from league.tournaments import services as ts
from tests.factories import UserFactory
from tests.league.conftest import play_out

pytestmark = pytest.mark.django_db


def _make(users, fmt, **kwargs):
    organiser = UserFactory(username="pairings-organiser")
    t = ts.tournament_create(
        by=organiser, name=f"{fmt} pairings", game="duelo", format=fmt, **kwargs
    )
    for user in users:
        ts.tournament_enter(tournament=t, user=user)
    return t, organiser


def test_swiss_forfeit_reaches_the_next_round_pairing(
    users, django_capture_on_commit_callbacks
):
    t, organiser = _make(users[:5], "swiss", swiss_rounds=3, round_hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    first = list(t.pairings.filter(round__number=1).select_related("match"))
    bye = next(p for p in first if p.second_id is None)
    played, forfeited = [p for p in first if p.second_id is not None]
    with django_capture_on_commit_callbacks(execute=True):
        play_out(played.match)
    # Only the first seat of the other game turns up.
    present = forfeited.match.seats.get(number=0)
    gameplay_services.seat_connected(match_id=forfeited.match_id, user=present.user)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournaments_tick(now=timezone.now() + timedelta(hours=2))
    forfeited.refresh_from_db()
    assert forfeited.status == PairingStatus.DONE
    assert forfeited.outcome == PairingOutcome.FORFEIT
    assert (forfeited.first_points, forfeited.second_points) == (1.0, 0.0)
    history = selectors.swiss_history(t)
    assert any(g.forfeit for g in history)
    second = list(t.pairings.filter(round__number=2))
    assert len(second) == 3
    [bye2] = [p.first_id for p in second if p.second_id is None]
    # Neither the round-1 bye nor the forfeit winner may take the bye.
    assert bye2 not in {bye.first_id, forfeited.first_id}
    # The two who did not play each other may meet now; nobody meets twice.
    met = {
        frozenset((p.first_id, p.second_id))
        for p in t.pairings.filter(second__isnull=False, outcome="played")
    }
    for p in second:
        if p.second_id is not None:
            assert frozenset((p.first_id, p.second_id)) not in met


def test_table_no_show_is_recorded_as_forfeited_seat(
    users, django_capture_on_commit_callbacks
):
    t, organiser = _make(users[:3], "swiss_tables", swiss_rounds=2, round_hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    pairing = t.pairings.get()
    match = pairing.match
    for seat in list(match.seats.all())[:2]:
        gameplay_services.seat_connected(match_id=match.pk, user=seat.user)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournaments_tick(now=timezone.now() + timedelta(hours=2))
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match)
    [result] = selectors.table_results(t)
    absent = pairing.seats.get(seat=2).entrant_id
    assert result.forfeited == {absent}
    present = set(result.seats) - {absent}
    from league.tournaments.formats.swiss_multiplayer import _records

    records = _records([result])
    assert all(records[p].had_bye for p in present)  # scored by forfeit
    assert records[absent].floats[1] == "down" and not records[absent].had_bye
    # Round 2 was paired from that history (three players: one table).
    t.refresh_from_db()
    assert t.rounds.count() == 2
