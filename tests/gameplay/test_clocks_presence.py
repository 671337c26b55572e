"""Server-side clocks, grace periods and claims."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import clocks, services
from gameplay.errors import Forbidden
from gameplay.models import ActionKind, MatchStatus
from gameplay.rules import get_game
from gameplay.services import connections
from tests.gameplay.conftest import first_legal, start_match

pytestmark = pytest.mark.django_db


def test_per_move_expiry_plays_the_documented_default_and_logs_it(players) -> None:
    match = start_match(players[:2], time_control={"per_move": 30})
    seat, _ = first_legal(match)
    expected = get_game("duelo").timeout_action(match.state, seat)
    assert services.match_expire_clocks(match_id=match.pk) == []  # not yet
    assert match.turn_started_at is not None
    later = match.turn_started_at + timedelta(seconds=31)
    done = services.match_expire_clocks(match_id=match.pk, now=later)
    assert done == [f"seat {seat}: timeout, played {expected}"]
    action = match.actions.get()
    assert (action.seat, action.action_id, action.kind) == (
        seat,
        expected,
        ActionKind.TIMEOUT,
    )


def test_total_clock_exhausted_forfeits(players) -> None:
    match = start_match(players[:2], time_control={"total": 60})
    seat, _ = first_legal(match)
    assert match.turn_started_at is not None
    later = match.turn_started_at + timedelta(seconds=61)
    done = services.match_expire_clocks(match_id=match.pk, now=later)
    assert done == [f"seat {seat}: time forfeit"]
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "time forfeit"
    assert match.result is not None
    assert match.result["winners"] == [1 - seat]


def test_total_clock_is_charged_to_the_mover(players) -> None:
    match = start_match(players[:2], time_control={"total": 600})
    match.turn_started_at = timezone.now() - timedelta(seconds=10)
    match.save()
    seat, action = first_legal(match)
    services.match_act(match_id=match.pk, user=players[seat], action_id=action)
    clock = match.seats.get(number=seat).clock_ms
    assert clock is not None and 589_000 <= clock <= 590_500
    assert match.seats.get(number=1 - seat).clock_ms == 600_000


def test_claim_win_only_after_grace(players) -> None:
    match = start_match(players[:2])
    services.seat_connected(match_id=match.pk, user=players[0])
    services.seat_connected(match_id=match.pk, user=players[1])
    services.seat_disconnected(match_id=match.pk, user=players[1])
    with pytest.raises(Forbidden):
        services.match_claim(match_id=match.pk, user=players[0], claim="win")
    seat = match.seats.get(number=1)
    seat.disconnected_at = timezone.now() - timedelta(seconds=clocks.GRACE_SECONDS + 1)
    seat.save()
    services.match_claim(match_id=match.pk, user=players[0], claim="win")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result is not None
    assert match.result["winners"] == [0]
    assert match.end_reason == "abandoned"


def test_grace_expiry_at_three_players_hands_seat_to_bot(players) -> None:
    match = start_match(players[:3])
    for user in players[:3]:
        services.seat_connected(match_id=match.pk, user=user)
    services.seat_disconnected(match_id=match.pk, user=players[2])
    seat = match.seats.get(number=2)
    assert seat.disconnected_at is not None
    stamp = seat.disconnected_at.isoformat()
    soon = seat.disconnected_at + timedelta(seconds=5)
    assert (
        services.seat_grace_expired(
            match_id=match.pk, seat_number=2, disconnected_at=stamp, now=soon
        )
        == "player is back"
    )
    later = seat.disconnected_at + timedelta(seconds=clocks.GRACE_SECONDS + 1)
    outcome = services.seat_grace_expired(
        match_id=match.pk, seat_number=2, disconnected_at=stamp, now=later
    )
    assert outcome == "bot took over"
    seat.refresh_from_db()
    assert seat.replaced_by_bot and seat.forfeited


def test_reconnect_within_grace_keeps_the_seat(players) -> None:
    match = start_match(players[:3])
    services.seat_connected(match_id=match.pk, user=players[2])
    services.seat_disconnected(match_id=match.pk, user=players[2])
    disconnected_at = match.seats.get(number=2).disconnected_at
    assert disconnected_at is not None
    stamp = disconnected_at.isoformat()
    services.seat_connected(match_id=match.pk, user=players[2])
    later = timezone.now() + timedelta(seconds=clocks.GRACE_SECONDS + 5)
    outcome = services.seat_grace_expired(
        match_id=match.pk, seat_number=2, disconnected_at=stamp, now=later
    )
    assert outcome == "player is back"
    assert not match.seats.get(number=2).replaced_by_bot


def _finish(match) -> None:
    match.status = MatchStatus.FINISHED
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "finished_at"])


def test_a_socket_closing_after_the_end_counts_out_without_a_grace_check(
    players, monkeypatch
) -> None:
    """After the end presence decides nothing: one UPDATE, no grace task (the
    task would only find the match over), and the table is still told."""
    from gameplay import broadcast

    match = start_match(players[:2])
    for _ in range(2):  # two tabs
        services.seat_connected(match_id=match.pk, user=players[1])
    services.seat_connected(match_id=match.pk, user=players[0])
    _finish(match)
    armed, told = [], []
    monkeypatch.setattr(connections, "_arm_grace", lambda **kw: armed.append(kw))
    monkeypatch.setattr(broadcast, "match_changed", lambda **kw: told.append(kw))

    assert services.seat_disconnected(match_id=match.pk, user=players[1])
    seat = match.seats.get(number=1)
    assert (seat.connected, seat.disconnected_at) == (1, None)  # one tab left
    assert services.seat_disconnected(match_id=match.pk, user=players[1])
    seat.refresh_from_db()
    assert seat.connected == 0
    assert seat.disconnected_at is not None
    assert timezone.now() - seat.disconnected_at < timedelta(seconds=5)
    assert services.seat_disconnected(match_id=match.pk, user=players[1])
    seat.refresh_from_db()
    assert seat.connected == 0  # never below zero
    assert armed == []
    assert told == [{"match_id": match.pk}] * 3
    assert match.seats.get(number=0).connected == 1  # the other seat untouched
    assert not services.seat_disconnected(match_id=match.pk, user=players[2])


def test_a_count_nobody_vouched_for_turns_absent_at_its_last_vouching(
    players,
) -> None:
    match = start_match(players[:2])
    services.seat_connected(match_id=match.pk, user=players[1])
    seen = timezone.now() - clocks.presence_ttl() - timedelta(seconds=30)
    match.seats.filter(number=1).update(connected=3, seen_at=seen)
    _finish(match)
    services.seat_disconnected(match_id=match.pk, user=players[1])
    seat = match.seats.get(number=1)
    assert (seat.connected, seat.disconnected_at) == (0, seen)


def test_a_socket_closing_in_play_still_arms_the_grace_check(
    players, monkeypatch
) -> None:
    match = start_match(players[:2])
    services.seat_connected(match_id=match.pk, user=players[1])
    armed = []
    monkeypatch.setattr(connections, "_arm_grace", lambda **kw: armed.append(kw))
    assert services.seat_disconnected(match_id=match.pk, user=players[1])
    assert [kw["seat"].number for kw in armed] == [1]
    assert match.seats.get(number=1).connected == 0


def test_the_presence_ttl_kept_follows_the_setting(settings) -> None:
    # ``clocks.presence_ttl`` keeps the value it read; a changed setting
    # (override_settings, the settings fixture) is read again.
    settings.PRESENCE_TTL = 30
    assert clocks.presence_ttl() == timedelta(seconds=30)
    settings.PRESENCE_TTL = 7
    assert clocks.presence_ttl() == timedelta(seconds=7)
    assert clocks.presence_ttl() is clocks.presence_ttl()
