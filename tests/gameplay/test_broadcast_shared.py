"""A broadcast carries the seats' public part once (``broadcast.match_messages``).

Every frame of a step (eight seats' and the spectators') holds the same
``seats`` list, about half of a Kung Fu (2009) seat frame's bytes. The
message now carries it once (``shared``) and each frame's text marks its
place; ``broadcast.frame_for`` puts it back for the socket. What a socket
sends must stay byte for byte the frame a fresh build gives, and the shared
part must be the public one every seat and spectator already received.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from gameplay import broadcast, clocks, frames, selectors, services
from gameplay.models import Match
from gameplay.rules import get_game, view_events
from tests.gameplay.conftest import (
    first_legal,
    held,
    start_match,
    step_in_memory,
)

GAME = "kungfu2009"
ENGINE = get_game(GAME)
NOW = datetime(2026, 12, 5, 7, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch, no_live_memory):
    """One instant for every build, so frames compare byte for byte."""
    monkeypatch.setattr(frames.timezone, "now", lambda: NOW)


def message_of(match: Match, **kwargs) -> dict:
    (_, message), *_ = broadcast.match_messages(match=match, **kwargs)
    return message


@pytest.mark.django_db
def test_the_seats_part_travels_once_and_each_socket_sends_the_whole_frame(
    players,
):
    match = held(start_match(players, game=GAME).pk)
    message = message_of(match)
    shared = message["shared"]
    assert json.loads(shared) == frames.seats_public(match=match)
    for seat in range(8):
        text = message["frames"][str(seat)]
        assert text.count(broadcast.SHARED_MARK) == 1 and shared not in text
        # What the socket sends: a fresh build of the seat's frame, exactly.
        fresh = broadcast.encode(frames.seat_frame(match=match, seat=seat))
        assert broadcast.frame_for(message, seat) == fresh
    assert broadcast.frame_for(message, None) == broadcast.encode(
        frames.spectator_frame(match=match)
    )
    # A seat number the message does not know gets the public frame.
    assert broadcast.frame_for(message, 99) == broadcast.frame_for(message, None)


@pytest.mark.django_db
def test_a_step_message_carries_one_copy_and_its_frames_are_whole(players):
    match = held(start_match(players, game=GAME).pk)
    message_of(match)  # the connect's frames: every menu sent
    rnd = random.Random(3)
    for _ in range(10):
        events, step = step_in_memory(match, rnd)
        message = message_of(match, events=events, step=step)
        whole = [broadcast.frame_for(message, s) for s in range(8)]
        carried = sum(map(len, message["frames"].values())) + len(message["shared"])
        # Eight copies of the seats became one.
        assert carried == sum(map(len, whole)) - 7 * len(message["shared"]) + 8
        for s, text in enumerate(whole):
            frame = json.loads(text)
            assert frame["seats"] == frames.seats_public(match=match)
            assert frame["version"] == match.version and frame["seat"] == s
            assert frame["events"] == json.loads(
                broadcast.encode_json(view_events(events, s))
            )


@pytest.mark.django_db
def test_nothing_a_player_is_named_can_stand_for_the_mark(players):
    match = held(start_match(players, game=GAME).pk)
    seat = selectors.seats_of(match)[2]
    # A NUL in a name is escaped in the JSON text, never the raw mark.
    seat.user.username = "a\x00b"
    seat.user.first_name = "x\x00y"
    message = message_of(match)
    for s in [*range(8), None]:
        text = broadcast.frame_for(message, s)
        assert broadcast.SHARED_MARK not in text
        assert json.loads(text)["seats"] == frames.seats_public(match=match)
    names = [s["username"] for s in json.loads(message["shared"])]
    assert "a\x00b" in names


@pytest.mark.django_db
def test_a_delayed_spectators_frame_keeps_its_own_seats(players):
    # The spectators' frame held back by the delay has no clocks in its
    # seats (a copy): it is sent whole, not given the live table's part.
    match = start_match(players[:2], spectator_delay=2)
    for _ in range(4):
        seat, action = first_legal(match)
        services.match_act(match_id=match.pk, user=players[seat], action_id=action)
    message = message_of(held(match.pk))
    assert broadcast.SHARED_MARK not in message["public"]
    public = json.loads(broadcast.frame_for(message, None))
    assert public["delayed_by"] == 2
    assert all(s["clock_ms"] is None and s["deadline"] is None for s in public["seats"])
    assert broadcast.SHARED_MARK in message["frames"]["0"]  # players are not delayed


@pytest.mark.django_db
def test_the_claim_rules_are_asked_only_of_seats_not_present(players, monkeypatch):
    # ``seats_public`` runs for every step of a live table: a person present
    # now cannot be claimed against, so the claim rules are not asked.
    match = held(start_match(players, game=GAME).pk)
    seats = selectors.seats_of(match)
    for seat in seats:
        seat.connected, seat.seen_at = 1, NOW
    asked: list[int] = []
    real = frames.absent_until_claimable

    def counted(*, match, seat):
        asked.append(seat.number)
        return real(match=match, seat=seat)

    monkeypatch.setattr(frames, "absent_until_claimable", counted)
    assert all(s["claimable_at"] is None for s in frames.seats_public(match=match))
    assert asked == []
    seats[3].connected, seats[3].disconnected_at = 0, NOW
    shown = frames.seats_public(match=match)
    assert asked == [3]
    assert shown[3]["connected"] is False
    assert shown[3]["claimable_at"] == real(match=match, seat=seats[3]).isoformat()


@pytest.mark.django_db
def test_the_seats_part_is_kept_only_while_it_is_what_a_fresh_build_gives(
    players, monkeypatch
):
    """``broadcast.seats_part`` keeps a table's seats' part between steps
    while every seat is a person present now; each change of what the part
    shows, and presence running out with the time, gives a fresh build."""
    match = held(start_match(players, game=GAME).pk)
    seats = selectors.seats_of(match)
    for seat in seats:
        seat.connected, seat.seen_at = 1, NOW
    built: list[int] = []
    real = frames.seats_public

    def counted(*, match):
        built.append(match.pk)
        return real(match=match)

    monkeypatch.setattr(frames, "seats_public", counted)

    def shown() -> list:
        part, text = broadcast.seats_part(match)
        assert json.loads(text) == part == real(match=match)
        return part

    first = shown()
    rnd = random.Random(5)
    for _ in range(5):
        events, step = step_in_memory(match, rnd)
        message = message_of(match, events=events, step=step)
        assert json.loads(message["shared"]) == real(match=match)
    assert shown() is first and len(built) == 1  # kept through the steps
    seats[2].forfeited = True
    assert shown()[2]["forfeited"] is True and len(built) == 2
    seats[5].label = "Guest"
    assert shown()[5]["name"] == "Guest" and len(built) == 3
    seats[1].disconnected_at = NOW
    kept = shown()
    assert kept[1]["disconnected_at"] == NOW.isoformat() and len(built) == 4
    # Seat 4 not vouched for within the presence window: shown away, and a
    # part that shows someone away is not kept.
    later = NOW + clocks.presence_ttl() + timedelta(seconds=1)
    monkeypatch.setattr(frames.timezone, "now", lambda: later)
    for seat in seats:
        if seat.number != 4:
            seat.seen_at = later
    assert shown()[4]["connected"] is False
    assert shown()[4]["connected"] is False and len(built) == 6
    seats[4].seen_at = later  # vouched for again: the part kept is what shows
    assert shown() is kept and len(built) == 6
    # A bot at the table: its claim countdown reads the match, never kept.
    seats[6].replaced_by_bot = True
    shown()
    shown()
    assert len(built) == 8
