"""A live socket's open and close (``gameplay.live.sockets``): the seat counted
in or out and the match read after it in one round trip on PostgreSQL
(``reader.read_match_after``), the frames' shared part built once per open,
and no database hop after a close beyond the count-out's own."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from gameplay import frames, selectors, services
from gameplay.live import reader, sockets
from gameplay.models import Match, MatchStatus, Seat
from gameplay.services import connections
from tests.gameplay.conftest import start_match
from tests.gameplay.live import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)

POSTGRESQL = pytest.mark.skipif(
    "connection.vendor != 'postgresql'", reason="one round trip: PostgreSQL's"
)


def _seat_of(match: Match, user) -> Seat:
    return Seat.objects.get(match=match, user=user)


def _finished(players) -> Match:
    match = start_match(players[:2])
    for user in players[:2]:
        services.seat_connected(match_id=match.pk, user=user, announce=False)
    services.match_resign(match_id=match.pk, user=players[0])
    return Match.objects.get(pk=match.pk)


def test_the_count_in_and_the_read_by_public_id(players):
    match = start_match(players[:2])
    statement = connections.seat_connected_statement(
        user=players[1],
        now=timezone.now(),
        match=(reader.match_id_sql(), [reader.public_id_param(str(match.public_id))]),
    )
    with CaptureQueriesContext(connection) as queries:
        counted, got, also = reader.read_match_after(
            statement, public_id=str(match.public_id)
        )
    assert counted == 1 and also is None
    assert got is not None and got.pk == match.pk
    # The read sees the count made before it.
    seat = selectors.seats_of(got)[1]
    assert seat.user == players[1] and seat.connected == 1
    assert _seat_of(match, players[1]).connected == 1
    assert len(queries) == (1 if connection.vendor == "postgresql" else 3)
    # Without a statement: the read alone; an unknown public id: no match.
    assert reader.read_match_after(None, public_id=str(match.public_id))[0] == 0
    assert reader.read_match_after(None, public_id=str(uuid.uuid4())) == (0, None, None)


def test_a_user_without_a_seat_counts_nothing(players):
    match = start_match(players[:2])
    statement = connections.seat_connected_statement(
        user=players[5],
        now=timezone.now(),
        match=(reader.match_id_sql(), [reader.public_id_param(str(match.public_id))]),
    )
    counted, got, _also = reader.read_match_after(
        statement, public_id=str(match.public_id)
    )
    assert counted == 0 and got is not None
    assert not Seat.objects.filter(match=match, connected__gt=0).exists()


def test_the_count_out_after_the_end_changes_only_a_finished_match(players):
    match = _finished(players)
    before = _seat_of(match, players[1])
    assert before.connected == 1
    statement = connections.counted_out_after_the_end_statement(
        match_id=match.pk, user=players[1], now=timezone.now()
    )
    counted, got, rematch = reader.read_match_after(
        statement, match_id=match.pk, also=selectors.open_rematch_statement(match.pk)
    )
    assert counted == 1 and got is not None and rematch == []
    assert selectors.seats_of(got)[1].connected == 0
    assert selectors.seats_of(got)[1].disconnected_at is not None

    active = start_match(players[2:4])
    services.seat_connected(match_id=active.pk, user=players[2], announce=False)
    statement = connections.counted_out_after_the_end_statement(
        match_id=active.pk, user=players[2], now=timezone.now()
    )
    counted, got, _also = reader.read_match_after(statement, match_id=active.pk)
    assert counted == 0 and got is not None
    assert _seat_of(active, players[2]).connected == 1  # nothing written


def test_a_count_out_unvouched_turns_absent_at_the_last_vouching(players):
    """The one-statement count-out keeps the locked path's rule: a seat
    nobody vouched for within the TTL is absent since it was last seen."""
    match = _finished(players)
    seen = timezone.now() - timedelta(hours=2)
    Seat.objects.filter(match=match, user=players[1]).update(connected=2, seen_at=seen)
    assert sockets._close_sync(match.pk, players[1]) != []
    seat = _seat_of(match, players[1])
    assert seat.connected == 0 and seat.disconnected_at == seen


@POSTGRESQL
def test_a_finished_match_closes_in_one_round_trip(players):
    """The count-out, the read and the rematch's question in one message
    (they were four: the count-out, the match, its seats, the rematch)."""
    match = _finished(players)
    with CaptureQueriesContext(connection) as queries:
        messages = sockets._close_sync(match.pk, players[1])
    assert len(queries) == 1
    assert messages and messages[0][1]["status"] == MatchStatus.FINISHED
    assert _seat_of(match, players[1]).connected == 0


def test_a_close_tells_of_an_open_rematch_as_the_frames_did(players, client):
    match = _finished(players)
    quiet = sockets._close_sync(match.pk, players[1])
    assert '"rematch":null' in quiet[0][1]["public"]
    client.force_login(players[0])
    client.post(reverse("gameplay:rematch", args=[match.public_id]))
    rematch = Match.objects.get(rematch_of=match)
    told = sockets._close_sync(match.pk, players[0])
    assert str(rematch.public_id) in told[0][1]["public"]
    assert '"rematch":null' not in told[0][1]["public"]


def test_a_match_in_play_closes_under_the_seat_lock(players):
    match = start_match(players[:2])
    for user in players[:2]:
        services.seat_connected(match_id=match.pk, user=user, announce=False)
    messages = sockets._close_sync(match.pk, players[0])
    seat = _seat_of(match, players[0])
    assert seat.connected == 0 and seat.disconnected_at is not None
    rows = {row[0]: row for row in messages[0][1]["seats"]}
    assert rows[seat.pk][1] == 0  # the broadcast shows the seat gone
    # No seat, nothing to tell; nobody signed in, likewise.
    assert sockets._close_sync(match.pk, players[5]) == []
    assert sockets._close_sync(match.pk, None) == []


def test_an_open_counts_the_seat_and_builds_the_shared_part_once(players, monkeypatch):
    match = start_match(players[:2])
    built = []
    real = frames.frame_base

    def counting(**kwargs):
        built.append(kwargs["match"].pk)
        return real(**kwargs)

    monkeypatch.setattr(frames, "frame_base", counting)
    with CaptureQueriesContext(connection) as queries:
        opened = sockets._open_sync(str(match.public_id), players[1])
    assert opened is not None and opened.seat_number == 1
    assert built == [match.pk]
    assert _seat_of(match, players[1]).connected == 1
    frame = opened.frames[0]
    assert frame["seat"] == 1
    assert [s["connected"] for s in frame["seats"]] == [False, True]
    # The seat's frame in the table's broadcast and the socket's own agree.
    assert opened.messages[0][1]["frames"]["1"]
    if connection.vendor == "postgresql":
        counted = [q["sql"] for q in queries if q["sql"].startswith("UPDATE")]
        assert "SELECT" in counted[0]  # the count and the read: one message
    # A spectator counts nothing; an unknown match is None.
    watching = sockets._open_sync(str(match.public_id), players[5])
    assert watching is not None and watching.seat_number is None
    assert watching.messages == []
    assert sockets._open_sync(str(uuid.uuid4()), players[1]) is None


@pytest.mark.asyncio
async def test_a_closed_socket_makes_no_hop_after_its_close(players, monkeypatch):
    """Channels' consumer hops to the database thread once more after
    ``disconnect`` (``aclose_old_connections``); this one does not."""
    import channels.generic.websocket as generic

    hops: list[str] = []

    async def counted() -> None:
        hops.append("close_old_connections")

    monkeypatch.setattr(generic, "aclose_old_connections", counted)
    match = await database_sync_to_async(start_match)(players[:2])
    sock = await connect(match, players[0])
    await receive(sock)
    await sock.disconnect()
    assert hops == []
    seat = await database_sync_to_async(_seat_of)(match, players[0])
    assert seat.connected == 0 and seat.disconnected_at is not None
