"""The live match owner (``gameplay.live``): moves from the copy a web process
holds, one writer per version through the compare-and-set, nothing lost or
doubled when the copy is behind, and the log replaying to the live state."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from gameplay import broadcast, moverule, selectors, services
from gameplay.errors import Forbidden, NotActive, StaleVersion
from gameplay.live import copies, owner, store
from gameplay.models import Match, MatchAction, MatchStatus
from gameplay.rules import get_game
from league.models import RatingEvent
from tests.gameplay.conftest import first_legal, start_match
from tests.gameplay.test_live_consumer import connect, receive, wait_for_version

NO_LAYER = override_settings(CHANNEL_LAYERS={})


def legal_for(match: Match) -> tuple[int, str]:
    engine = get_game(match.game)
    seat = engine.actors(match.state)[0]
    return seat, engine.legal_action_ids(match.state, seat)[0]


def replayed(match: Match) -> dict:
    """The state rebuilt from the deal and the log alone."""
    engine = get_game(match.game)
    assert match.seed is not None
    state = engine.setup(match.config, match.seed)
    for action in match.actions.order_by("version"):
        state, _ = engine.apply(state, action.seat, action.action_id)
    return state


@pytest.mark.django_db(transaction=True)
def test_moves_are_applied_to_the_copy_and_logged_without_rereading(players):
    users = players[:2]
    with NO_LAYER:
        match = start_match(users)
        live = owner.LiveMatch(pk=match.pk)
        for _ in range(30):
            copy = live.match or Match.objects.get(pk=match.pk)
            if not get_game(copy.game).actors(copy.state):
                break  # a random deal can end the game within 30 moves
            seat, action = legal_for(copy)
            before = copy.version
            applied = owner.act_sync(live, users[seat], action, before)
            assert applied.version == before + 1
            if live.match is None:  # the full path ended the match
                break
        assert live.reads == 1  # one read at the start, none per move
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == live.match.version if live.match else True
        assert stored.state == replayed(stored)
        versions = list(stored.actions.values_list("version", flat=True))
        assert versions == list(range(1, stored.version + 1))
        # The snapshot every SNAPSHOT_EVERY versions is written by the fast path.
        if stored.version >= moverule.SNAPSHOT_EVERY:
            assert (
                selectors.state_at(match=stored, version=moverule.SNAPSHOT_EVERY)
                == stored.snapshots.get(version=moverule.SNAPSHOT_EVERY).state
            )


@pytest.mark.django_db(transaction=True)
def test_a_copy_behind_another_writer_rereads_and_never_forks_the_log(players):
    """Two processes hold the match; one moved (the other's copy is behind).
    The stale owner's move is refused by the compare-and-set, it re-reads and
    decides again on the fresh state: one writer per version."""
    users = players[:2]
    with NO_LAYER:
        match = start_match(users)
        a, b = owner.LiveMatch(pk=match.pk), owner.LiveMatch(pk=match.pk)
        copies.read(a)
        copies.read(b)
        seat, action = legal_for(a.match)
        owner.act_sync(a, users[seat], action, 0)  # process A writes version 1
        assert b.match.version == 0  # B has not heard of it (broadcast lost)
        # B's player (a second tab of the same seat, on B) sends the old choice
        # at version 0: the copy agrees, the compare-and-set does not; B reads,
        # and the fresh match refuses it. Nothing is written.
        with pytest.raises(StaleVersion):
            owner.act_sync(b, users[seat], action, 0)
        assert Match.objects.get(pk=match.pk).version == 1
        assert b.reads == 2 and b.match.version == 1
        # B's other player moves at version 1: B's copy is fresh again.
        seat2, action2 = legal_for(b.match)
        applied = owner.act_sync(b, users[seat2], action2, 1)
        assert applied.version == 2
        # Now A is behind: its player sends a version-2 move; the copy says 1,
        # a read confirms 2, and the move goes in.
        stored = Match.objects.get(pk=match.pk)
        seat3, action3 = legal_for(stored)
        applied = owner.act_sync(a, users[seat3], action3, 2)
        assert applied.version == 3
        stored = Match.objects.get(pk=match.pk)
        assert list(stored.actions.values_list("version", flat=True)) == [1, 2, 3]
        assert stored.state == replayed(stored)


@pytest.mark.django_db(transaction=True)
def test_the_compare_and_set_refuses_a_stale_version(players):
    users = players[:2]
    with NO_LAYER:
        match = start_match(users)
        seat, action = first_legal(match)
        state, events = get_game("duelo").apply(match.state, seat, action)
        kwargs = dict(
            match_id=match.pk,
            steps=[store.Logged(seat, action, "move", events)],
            state=state,
            now=match.started_at,
            snapshots={},
        )
        mover = store.Mover(seat=seat, user_id=users[seat].pk)
        assert store.append(from_version=0, mover=mover, **kwargs) is True
        # The same move again from version 0 (a second writer): refused.
        assert store.append(from_version=0, mover=mover, **kwargs) is False
        # A seat that is not the user's: refused.
        other = store.Mover(seat=seat, user_id=users[1 - seat].pk)
        assert store.append(from_version=1, mover=other, **kwargs) is False
        assert MatchAction.objects.filter(match=match).count() == 1
        assert Match.objects.get(pk=match.pk).version == 1


@pytest.mark.django_db(transaction=True)
def test_a_seat_taken_over_behind_the_copys_back_cannot_move(players):
    """Three players: seat 0 resigns elsewhere (a bot plays on) while this
    process's copy still shows it playing; its move is refused, not logged."""
    users = players[:3]
    with NO_LAYER:
        match = start_match(users)
        live = owner.LiveMatch(pk=match.pk)
        copies.read(live)
        seat, action = legal_for(live.match)
        services.match_resign(match_id=match.pk, user=users[seat])
        copied = next(s for s in live.match.seats.all() if s.number == seat)
        assert not copied.forfeited  # the stale copy
        after = Match.objects.get(pk=match.pk)  # the bot may have moved on
        with pytest.raises(Forbidden):
            owner.act_sync(live, users[seat], action, 0)
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == after.version
        assert stored.status == MatchStatus.ACTIVE
        assert MatchAction.objects.filter(match=match).count() == after.version
        assert not MatchAction.objects.filter(match=match, kind="move").exists()


def _play_out(match: Match, users, live: owner.LiveMatch | None = None) -> None:
    """Play the match to its end, first legal moves: through ``live`` (the
    owner) or, without it, the locked service."""
    for _ in range(500):
        stored = Match.objects.get(pk=match.pk)
        if stored.status != MatchStatus.ACTIVE:
            return
        seat, action = legal_for(stored)
        if live is None:
            services.match_act(
                match_id=match.pk,
                user=users[seat],
                action_id=action,
                expected_version=stored.version,
            )
        else:
            owner.act_sync(live, users[seat], action, stored.version)


def _seeded(users, seed: int, **kwargs) -> Match:
    match = services.match_create(
        game="duelo", seats=[services.SeatSpec(user=u) for u in users], **kwargs
    )
    return services.match_start(match_id=match.pk, seed=seed)


@pytest.mark.django_db(transaction=True)
def test_the_move_that_ends_the_match_is_made_from_the_copy(players, monkeypatch):
    """The last move never reaches the locked service: the owner writes the
    finish from its copy, as the service would have (same result, placements,
    reason), and announces it through the outbox (rated, eager tasks)."""
    users = players[:2]
    with NO_LAYER:
        locked = _seeded(users, 7, rated=True)
        _play_out(locked, users)  # the locked service's finish, for reference
        match = _seeded(users, 7, rated=True)
        live = owner.LiveMatch(pk=match.pk)

        def refuse(**kwargs):
            raise AssertionError("the owner's last move reached match_act")

        monkeypatch.setattr(services, "match_act", refuse)
        _play_out(match, users, live)
        stored = Match.objects.get(pk=match.pk)
        reference = Match.objects.get(pk=locked.pk)
        assert stored.status == MatchStatus.FINISHED
        assert stored.version == reference.version
        assert stored.result == reference.result and stored.result is not None
        assert stored.end_reason == reference.end_reason == "completed"
        assert stored.finished_at is not None and stored.timers == {}
        placements = list(stored.seats.order_by("number").values_list("placement"))
        assert placements == list(
            reference.seats.order_by("number").values_list("placement")
        )
        assert stored.finish_announced_at is not None  # announced (eager tasks)
        assert RatingEvent.objects.filter(match=stored).count() == 2  # rated once
        assert live.reads == 1 and live.finishes == 1  # no read, not even at the end
        assert live.match.status == MatchStatus.FINISHED  # the copy as committed
        assert stored.state == replayed(stored)
        with pytest.raises(NotActive):
            owner.act_sync(live, users[0], "card:1", stored.version)
        # A refusal from the copy is confirmed by a read, which says the same.
        assert live.reads == 2


@pytest.mark.django_db(transaction=True)
def test_a_process_dying_after_the_finish_commits_is_rated_once_by_beat(
    players, monkeypatch
):
    """The finish committed, then the process died before its announcement
    (here: the announcement never runs). The finished row is the outbox
    entry: beat's sweep announces it, the match is rated exactly once."""
    users = players[:2]
    with NO_LAYER:
        match = _seeded(users, 11, rated=True)
        live = owner.LiveMatch(pk=match.pk)
        with monkeypatch.context() as patched:
            patched.setattr(services, "match_announce_finished", lambda **kw: False)
            _play_out(match, users, live)
        stored = Match.objects.get(pk=match.pk)
        assert stored.status == MatchStatus.FINISHED and live.finishes == 1
        assert stored.finish_announced_at is None  # still owed
        assert not RatingEvent.objects.filter(match=stored).exists()
        assert services.announce_finished_matches(older_than=0) == 1
        assert RatingEvent.objects.filter(match=stored).count() == 2
        assert services.announce_finished_matches(older_than=0) == 0
        assert services.match_announce_finished(match_id=match.pk) is False
        assert RatingEvent.objects.filter(match=stored).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_finishing_frames_read_nothing_that_cannot_exist_yet(players, monkeypatch):
    """The last move's frames are built from the copy: no rematch can be open
    and no rating written before the finish is announced, so neither is read
    (both writers broadcast the match again, afresh, when they commit)."""
    users = players[:2]
    with NO_LAYER:
        match = _seeded(users, 5, rated=True)
        live = owner.LiveMatch(pk=match.pk)
        engine = get_game("duelo")
        monkeypatch.setattr(services, "match_announce_finished", lambda **kw: False)
        while True:
            copy = live.match or Match.objects.get(pk=match.pk)
            if not get_game(copy.game).actors(copy.state):
                break  # a random deal can end the game within 30 moves
            seat, action = legal_for(copy)
            if engine.is_over(engine.apply(copy.state, seat, action)[0]):
                break
            owner.act_sync(live, users[seat], action, copy.version)
        with CaptureQueriesContext(connection) as queries:
            applied = owner.act_sync(live, users[seat], action, copy.version)
        sql = " ".join(q["sql"] for q in queries.captured_queries).lower()
        assert "rematch_of_id" not in sql and "ratingevent" not in sql
        assert live.finishes == 1 and live.match.just_finished is False
        ((_group, message), *_rest) = applied.messages
        frame = json.loads(broadcast.frame_for(message, seat))
        assert frame["status"] == "finished" and frame["rematch"] is None
        assert frame["rating_changes"] == []
        assert frame["result"] == Match.objects.get(pk=match.pk).result


@pytest.mark.django_db(transaction=True)
def test_a_finish_from_a_copy_with_stale_forfeits_is_refused(players):
    """Three players; seat 2 resigned behind the copy's back (a bot plays it):
    a finish whose result does not place it last is not written."""
    users = players[:3]
    with NO_LAYER:
        match = start_match(users)
        services.match_resign(match_id=match.pk, user=users[2])
        stored = Match.objects.get(pk=match.pk)
        engine = get_game("duelo")
        seat = next(s for s in engine.actors(stored.state) if s != 2)
        action = engine.legal_action_ids(stored.state, seat)[0]
        state, events = engine.apply(stored.state, seat, action)
        kwargs = dict(
            match_id=match.pk,
            from_version=stored.version,
            steps=[store.Logged(seat, action, "move", events)],
            state=state,
            now=stored.started_at,
            snapshots={},
            mover=store.Mover(seat=seat, user_id=users[seat].pk),
        )

        def finish(forfeited: list[int]) -> store.Finish:
            result = {"placements": [1, 2, 3], "forfeited": forfeited}
            return store.Finish(
                result=result,
                placements=[1, 2, 3],
                forfeited=forfeited,
                reason="completed",
                finished_at=stored.started_at,
            )

        assert store.append(finish=finish([]), **kwargs) is False
        assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE
        assert store.append(finish=finish([2]), **kwargs) is True
        done = Match.objects.get(pk=match.pk)
        assert done.status == MatchStatus.FINISHED
        assert done.version == stored.version + 1
        assert done.result["forfeited"] == [2]
        assert list(
            done.seats.order_by("number").values_list("placement", flat=True)
        ) == [1, 2, 3]
        assert done.actions.filter(version=done.version, seat=seat).exists()


def test_a_broadcast_of_a_newer_version_drops_the_copy_and_seats_are_taken_over():
    live = owner.attach(-1)
    try:

        class Seats(list):
            def all(self):
                return self

        seat = type("S", (), {"pk": 5, "connected": 0})()
        for name in ("seen_at", "disconnected_at", "forfeit_reason", "clock_ms"):
            setattr(seat, name, None)
        seat.forfeited = seat.replaced_by_bot = False
        seat.placement = None
        fake = type("M", (), {})()
        fake.version, fake.status, fake.seats = 3, "active", Seats([seat])
        live.match = fake
        row = [5, 2, "2026-12-01T10:00:00+00:00", None, False, False, "", None, None]
        owner.saw(-1, {"version": 3, "status": "active", "seats": [row]})
        assert live.match is fake and seat.connected == 2
        assert seat.seen_at.isoformat() == "2026-12-01T10:00:00+00:00"
        owner.saw(-1, {"version": 3})  # its own move's frame: kept
        assert live.match is fake
        owner.saw(-1, {"version": 4})  # someone else wrote version 4
        assert live.match is None
        live.match = fake
        owner.saw(-1, {"version": 3, "status": "finished", "seats": [row]})
        assert live.match is None
    finally:
        owner.detach(-1)
    assert owner.held(-1) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_game_reads_the_match_only_on_connect(players):
    """Over real sockets: both seats play 12 moves; the owner read the match
    at the connects only, and each seat's frames are its own view."""
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    socks = [await connect(match, users[0]), await connect(match, users[1])]
    frames = [await receive(s) for s in socks]
    live = owner.held(match.pk)
    assert live is not None and live.sockets == 2
    reads = live.reads
    version = 0
    engine = get_game("duelo")
    for _ in range(12):
        current = [await wait_for_version(s, version, []) for s in socks]
        if current[0]["status"] != MatchStatus.ACTIVE:
            break
        actor = current[0]["actors"][0]
        await socks[actor].send_json_to(
            {
                "type": "act",
                "action": current[actor]["legal"][0]["id"],
                "version": version,
            }
        )
        version += 1
    current = [await wait_for_version(s, version, []) for s in socks]
    stored = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    for number, frame in enumerate(current):
        assert frame["version"] == stored.version
        assert frame["view"] == engine.observe(stored.state, number)
    assert live.reads == reads  # no read per move
    assert live.fast_moves == version
    for sock in socks:
        await sock.disconnect()
    await asyncio.sleep(0)
    assert owner.held(match.pk) is None  # the last socket let it go
    del frames
