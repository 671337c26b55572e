"""The match services: one writer, validation, the log, finishing and announcing."""

from __future__ import annotations

import hashlib

import pytest
from celery import current_app

from gameplay import services
from gameplay.errors import (
    BadRequest,
    Forbidden,
    IllegalMove,
    NotActive,
    NotYourTurn,
    StaleVersion,
)
from gameplay.models import MatchAction, MatchSnapshot, MatchStatus
from gameplay.rules import get_game
from gameplay.services import SeatSpec, finish
from gameplay.signals import match_finished
from tests.gameplay.conftest import first_legal, play_to_end, start_match

pytestmark = pytest.mark.django_db


def test_start_publishes_seed_hash_and_hides_seed(players) -> None:
    match = start_match(players[:2])
    assert match.status == MatchStatus.ACTIVE
    assert len(match.seed_hash) == 64
    assert (
        match.seed_hash
        == hashlib.sha256(f"{match.public_id}:{match.seed}".encode()).hexdigest()
    )
    assert MatchSnapshot.objects.filter(match=match, version=0).exists()


def test_full_game_logs_every_action_and_replays(players) -> None:
    match = start_match(players[:3])
    steps = play_to_end(match, players[:3])
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.version == steps == MatchAction.objects.filter(match=match).count()
    # (config, seed, actions) reproduces the final state exactly.
    engine = get_game("duelo")
    assert match.seed is not None
    state = engine.setup(match.config, match.seed)
    for action in match.actions.order_by("version"):
        state, _ = engine.apply(state, action.seat, action.action_id)
    assert state == match.state
    assert match.result is not None
    placements = [seat.placement for seat in match.seats.all()]
    assert None not in placements
    assert sorted(match.result["placements"]) == sorted(
        place for place in placements if place is not None
    )
    assert match.result["winners"]


@pytest.mark.parametrize(
    ("who", "action", "version", "error"),
    [
        ("other", None, None, NotYourTurn),
        ("actor", "card:99", None, IllegalMove),
        ("actor", "", None, BadRequest),
        ("actor", 12, None, BadRequest),
        ("actor", "x" * 200, None, BadRequest),
        ("actor", None, 7, StaleVersion),
        ("actor", None, "zero", BadRequest),
        ("stranger", None, None, Forbidden),
        ("anonymous", None, None, Forbidden),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(
    players, who, action, version, error
) -> None:
    match = start_match(players[:2])
    seat, legal = first_legal(match)
    user = {
        "actor": players[seat],
        "other": players[1 - seat],
        "stranger": players[5],
        "anonymous": None,
    }[who]
    before = (match.version, match.state)
    with pytest.raises(error):
        services.match_act(
            match_id=match.pk,
            user=user,
            action_id=legal if action is None else action,
            expected_version=version,
        )
    match.refresh_from_db()
    assert (match.version, match.state) == before
    assert not MatchAction.objects.filter(match=match).exists()


def test_forged_seat_is_refused(players) -> None:
    match = start_match(players[:2])
    seat, legal = first_legal(match)
    with pytest.raises(Forbidden):
        services.match_act(
            match_id=match.pk,
            user=players[1 - seat],
            action_id=legal,
            seat_number=seat,
        )


def test_finished_announcement_is_sent_once(
    players, django_capture_on_commit_callbacks
):
    received = []

    def receiver(sender, match_id, **kwargs):
        received.append(match_id)

    match_finished.connect(receiver)
    try:
        match = start_match(players[:2])
        with django_capture_on_commit_callbacks(execute=True):
            play_to_end(match, players[:2])
        assert received == [match.pk]
        assert services.match_announce_finished(match_id=match.pk) is False
        assert received == [match.pk]
    finally:
        match_finished.disconnect(receiver)


def test_finished_announcement_keeps_no_result() -> None:
    # Queued by the web process that took the last move: a task that keeps a
    # result has its sender subscribe to the result's channel (Redis backend).
    assert current_app.tasks["gameplay.announce_match_finished"].ignore_result


def test_resign_two_players_ends_match(players) -> None:
    match = start_match(players[:2])
    services.match_resign(match_id=match.pk, user=players[0])
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result is not None
    assert match.result["winners"] == [1]
    assert match.result["placements"] == [2, 1]
    with pytest.raises(NotActive):
        services.match_resign(match_id=match.pk, user=players[1])


def test_resign_at_three_players_lets_bot_play_on_and_counts_as_loss(players) -> None:
    match = start_match(players[:3])
    services.match_resign(match_id=match.pk, user=players[1])
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    seat = match.seats.get(number=1)
    assert seat.replaced_by_bot and seat.forfeited
    result = finish._final_result(match, {"placements": [2, 1, 3]})
    assert result["placements"][1] == 3
    assert result["placements"][0] == 1


def test_abort_rules(players) -> None:
    match = start_match(players[:2])
    with pytest.raises(Forbidden):
        services.match_abort(match_id=match.pk, user=players[5])
    services.match_abort(match_id=match.pk, user=players[0])
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    match = start_match(players[2:4])
    seat, legal = first_legal(match)
    services.match_act(match_id=match.pk, user=players[2 + seat], action_id=legal)
    with pytest.raises(Forbidden):
        services.match_abort(match_id=match.pk, user=players[2])


def test_bad_options_are_refused(players) -> None:
    with pytest.raises(BadRequest):
        services.match_create(
            game="duelo", seats=[SeatSpec(user=players[0])], config={}
        )
    with pytest.raises(BadRequest):
        services.match_create(
            game="chess", seats=[SeatSpec(user=p) for p in players[:2]]
        )
    with pytest.raises(BadRequest):
        services.match_create(
            game="duelo",
            seats=[SeatSpec(user=p) for p in players[:2]],
            config={"bogus": 1},
        )
    with pytest.raises(BadRequest):
        services.match_create(
            game="duelo",
            seats=[SeatSpec(user=p) for p in players[:2]],
            time_control={"per_move": -3},
        )
    with pytest.raises(BadRequest):
        services.match_create(
            game="duelo", seats=[SeatSpec(user=players[0]), SeatSpec(user=players[0])]
        )


def test_record_steps_plays_a_whole_bot_match_in_one_transaction(
    players, django_capture_on_commit_callbacks
) -> None:
    received = []

    def receiver(sender, match_id, **kwargs):
        received.append(match_id)

    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(agent="bot:1"), SeatSpec(agent="bot:2")],
        context="ladder:duelo",
    )
    match = services.match_start(match_id=match.pk)
    engine = get_game("duelo")
    state, steps = match.state, []
    while not engine.is_over(state):
        seat = engine.actors(state)[0]
        action = engine.legal_action_ids(state, seat)[-1]
        steps.append((seat, action))
        state, _ = engine.apply(state, seat, action)
    match_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            outcome = services.match_record_steps(
                match_id=match.pk, steps=steps, expected_version=0
            )
    finally:
        match_finished.disconnect(receiver)
    match.refresh_from_db()
    assert outcome.finished and match.status == MatchStatus.FINISHED
    assert match.state == state
    assert match.actions.count() == len(steps) == match.version
    assert received == [match.pk]


def test_record_steps_refuses_an_illegal_step_and_keeps_nothing(players) -> None:
    match = services.match_create(
        game="duelo", seats=[SeatSpec(agent="bot:1"), SeatSpec(agent="bot:2")]
    )
    match = services.match_start(match_id=match.pk)
    engine = get_game("duelo")
    seat = engine.actors(match.state)[0]
    good = engine.legal_action_ids(match.state, seat)[0]
    with pytest.raises(IllegalMove):
        services.match_record_steps(
            match_id=match.pk,
            steps=[(seat, good), (seat, "card:42")],
            expected_version=0,
        )
    match.refresh_from_db()
    assert match.version == 0 and not match.actions.exists()


def test_record_steps_with_forfeit_ends_two_player_match(players) -> None:
    match = services.match_create(
        game="duelo", seats=[SeatSpec(agent="bot:1"), SeatSpec(agent="bot:2")]
    )
    match = services.match_start(match_id=match.pk)
    seat = get_game("duelo").actors(match.state)[0]
    services.match_record_steps(
        match_id=match.pk, steps=[], expected_version=0, forfeit=(seat, "bot timeout")
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "bot timeout"
    assert match.result is not None
    assert match.result["winners"] == [1 - seat]


def test_spectators_see_the_game_held_back_by_the_delay(players) -> None:
    from gameplay import frames, selectors

    match = start_match(players[:2], spectator_delay=2)
    engine = get_game("duelo")
    states = [match.state]
    for _ in range(5):
        seat, action = first_legal(match)
        services.match_act(match_id=match.pk, user=players[seat], action_id=action)
        match.refresh_from_db()
        states.append(match.state)
    frame = frames.spectator_frame(match=match)
    assert frame["version"] == 3 and frame["delayed_by"] == 2
    assert frame["view"] == engine.observe(states[3], None)
    history = selectors.events_since(match=match, seat=None, after_version=0)
    assert [step["version"] for step in history] == [1, 2, 3]
    seat_frame = frames.seat_frame(match=match, seat=0)
    assert seat_frame["version"] == 5  # players are never delayed
