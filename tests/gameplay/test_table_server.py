"""What the table needs from the server: claims on the server's clock, timeouts
and forfeits the live log can name, distinct seat names."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.urls import reverse, set_script_prefix
from django.utils import timezone

from gameplay import clocks, frames, services, turns
from gameplay.errors import Forbidden
from gameplay.models import MatchStatus
from tests.gameplay.conftest import first_legal, start_match

pytestmark = pytest.mark.django_db


def _claimable_at(match, number: int) -> datetime | None:
    match.refresh_from_db()
    frame = frames.seat_frame(match=match, seat=0)
    value = frame["seats"][number]["claimable_at"]
    return datetime.fromisoformat(value) if value else None


def test_an_opponent_who_never_connected_counts_from_the_start(players) -> None:
    match = start_match(players[:2])
    services.seat_connected(match_id=match.pk, user=players[0])
    # The frame tells the table when the claim becomes possible: grace after start.
    claimable = _claimable_at(match, 1)
    assert match.started_at is not None
    assert claimable == match.started_at + timedelta(seconds=clocks.GRACE_SECONDS)
    assert _claimable_at(match, 0) is None  # connected
    with pytest.raises(Forbidden):
        services.match_claim(match_id=match.pk, user=players[0], claim="win")
    match.started_at = timezone.now() - timedelta(seconds=clocks.GRACE_SECONDS + 1)
    match.save(update_fields=["started_at"])
    services.match_claim(match_id=match.pk, user=players[0], claim="win")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result is not None
    assert match.result["winners"] == [0]
    frame = frames.seat_frame(match=match, seat=0)
    assert frame["seats"][1]["forfeit_reason"] == "abandoned"


def test_claim_countdown_follows_the_servers_disconnect_time(players) -> None:
    match = start_match(players[:2])
    services.seat_connected(match_id=match.pk, user=players[0])
    services.seat_connected(match_id=match.pk, user=players[1])
    assert _claimable_at(match, 1) is None
    services.seat_disconnected(match_id=match.pk, user=players[1])
    seat = match.seats.get(number=1)
    assert seat.disconnected_at is not None
    assert _claimable_at(match, 1) == seat.disconnected_at + timedelta(
        seconds=clocks.GRACE_SECONDS
    )
    frame = frames.seat_frame(match=match, seat=0)
    assert frame["grace_seconds"] == clocks.GRACE_SECONDS
    assert datetime.fromisoformat(frame["server_time"]) <= timezone.now()


def test_bot_seats_are_never_claimable(players) -> None:
    from gameplay.services import SeatSpec

    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=players[0]), SeatSpec(agent="builtin:random")],
    )
    match = services.match_start(match_id=match.pk)
    assert _claimable_at(match, 1) is None


def test_timeout_frames_say_it_was_a_timeout(
    players, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    from gameplay import broadcast

    match = start_match(players[:2], time_control={"per_move": 30})
    seat, _ = first_legal(match)
    sent: list[dict] = []
    monkeypatch.setattr(broadcast, "match_changed", lambda **kw: sent.append(kw))
    assert match.turn_started_at is not None
    later = match.turn_started_at + timedelta(seconds=31)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_expire_clocks(match_id=match.pk, now=later)
    step_calls = [kw for kw in sent if kw.get("events") is not None]
    assert step_calls and step_calls[0]["step"] == {"kind": "timeout", "seat": seat}
    match.refresh_from_db()
    frame = frames.seat_frame(
        match=match, seat=0, events=step_calls[0]["events"], step=step_calls[0]["step"]
    )
    assert frame["step"] == {"kind": "timeout", "seat": seat}
    # Without events the frame is not a step's own, so it names no step.
    assert frames.seat_frame(match=match, seat=0)["step"] is None


def test_time_forfeit_is_named_on_the_seat(players) -> None:
    match = start_match(players[:3], time_control={"total": 60})
    seat, _ = first_legal(match)
    assert match.turn_started_at is not None
    later = match.turn_started_at + timedelta(seconds=61)
    services.match_expire_clocks(match_id=match.pk, now=later)
    match.refresh_from_db()
    frame = frames.spectator_frame(match=match)
    assert frame["seats"][seat]["forfeited"] is True
    assert frame["seats"][seat]["forfeit_reason"] == "time forfeit"


def test_a_player_who_never_connects_is_taken_over_at_three(players) -> None:
    match = start_match(players[:3])
    for user in players[:2]:
        services.seat_connected(match_id=match.pk, user=user)
    assert match.started_at is not None
    later = match.started_at + timedelta(seconds=clocks.GRACE_SECONDS + 1)
    early = match.started_at + timedelta(seconds=5)
    args = {"match_id": match.pk, "seat_number": 2}
    first = services.seat_grace_expired(
        **args, disconnected_at=clocks.NEVER_CONNECTED, now=early
    )
    assert first == "player is back"
    result = services.seat_grace_expired(
        **args, disconnected_at=clocks.NEVER_CONNECTED, now=later
    )
    assert result == "bot took over"
    seat = match.seats.get(number=2)
    assert seat.replaced_by_bot and seat.forfeit_reason == "left"
    # A connected player's check does nothing.
    assert (
        services.seat_grace_expired(
            match_id=match.pk,
            seat_number=0,
            disconnected_at=clocks.NEVER_CONNECTED,
            now=later,
        )
        == "player is back"
    )


def test_match_start_arms_the_no_show_checks(
    players, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    from gameplay import tasks
    from gameplay.services import SeatSpec, matches

    settings.CELERY_TASK_ALWAYS_EAGER = False
    armed = []
    monkeypatch.setattr(
        tasks.seat_grace_expired,
        "apply_async",
        lambda args, countdown=None: armed.append((args, countdown)),
    )
    monkeypatch.setattr(matches, "after_change", lambda match_id: None)

    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=players[0]), SeatSpec(agent="builtin:random")],
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.match_start(match_id=match.pk)
    assert armed == [((match.pk, 0, ""), clocks.GRACE_SECONDS + 1)]


def test_the_match_path_is_reversed_under_any_script_prefix(players) -> None:
    match = start_match(players[:2])
    try:
        for prefix in ("/", "/kfa/", "/"):
            set_script_prefix(prefix)
            expected = reverse("gameplay:match", args=[match.public_id])
            assert turns.match_url(match) == expected
            assert expected.startswith(prefix)
    finally:
        set_script_prefix("/")
