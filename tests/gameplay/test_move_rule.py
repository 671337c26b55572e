"""One move rule (``gameplay.moverule``), two writers: the locked service
(``services.match_act``) and the live owner's copy (``owner.act_sync``, its
compare-and-set) answer the same request alike, in every registered game:
the same refusal (error class, code, message) or the same step (version,
state, log row, timers), whatever order the requests come in.

Two matches of each game are dealt from one seed; every request goes to the
service on one and to the owner on the other, and each answer and the two
matches afterwards are compared.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import override_settings

from gameplay import errors, moverule, services
from gameplay.errors import MatchError
from gameplay.live import owner
from gameplay.models import Match
from gameplay.rules import available_games, get_game
from gameplay.services import SeatSpec

NO_LAYER = override_settings(CHANNEL_LAYERS={})
SEED = 20261203
STEPS = 6


def _table(game: str, users: list) -> Match:
    engine = get_game(game)
    count = max(engine.min_players, min(3, engine.max_players))
    match = services.match_create(
        game=game, seats=[SeatSpec(user=user) for user in users[:count]]
    )
    return services.match_start(match_id=match.pk, seed=SEED)


def _by_service(match: Match, user: Any, action_id: str, version: Any) -> Any:
    try:
        outcome = services.match_act(
            match_id=match.pk,
            user=user,
            action_id=action_id,
            expected_version=version,
        )
    except MatchError as exc:
        return type(exc), exc.code, exc.message
    return outcome.version


def _by_owner(live: owner.LiveMatch, user: Any, action_id: str, version: Any) -> Any:
    try:
        applied = owner.act_sync(live, user, action_id, version)
    except MatchError as exc:
        return type(exc), exc.code, exc.message
    return applied.version


def _stored(match: Match) -> dict[str, Any]:
    """What a step leaves in the database (timers without their due times,
    which are the moment each writer wrote)."""
    match.refresh_from_db()
    return {
        "status": match.status,
        "version": match.version,
        "state": match.state,
        "timers": {k: (t["seat"], t["action"]) for k, t in match.timers.items()},
        "log": list(
            match.actions.order_by("version").values_list(
                "version", "seat", "action_id", "kind", "events"
            )
        ),
        "snapshots": list(
            match.snapshots.order_by("version").values_list("version", "state")
        ),
    }


class Pair:
    """The same table twice: requests to the service (``a``) and to the owner
    (``b``), answers compared."""

    def __init__(self, game: str, users: list) -> None:
        self.a, self.b = _table(game, users), _table(game, users)
        self.users = users
        self.live = owner.LiveMatch(pk=self.b.pk)
        self.engine = get_game(game)
        self.answers: list[Any] = []

    def ask(self, seat_of_user: int | None, action_id: str, version: Any) -> Any:
        user = AnonymousUser() if seat_of_user is None else self.users[seat_of_user]
        by_service = _by_service(self.a, user, action_id, version)
        by_owner = _by_owner(self.live, user, action_id, version)
        assert by_service == by_owner, (action_id, version)
        assert _stored(self.a) == _stored(self.b)
        self.answers.append(by_service)
        return by_service

    def current(self) -> Match:
        self.a.refresh_from_db()
        return self.a


def _moving(engine: Any, state: dict[str, Any], seat: int) -> str:
    """The seat's first legal action that changes the state (a real-time
    table's "pass" changes nothing), else its first."""
    legal = engine.legal_action_ids(state, seat)
    for action in legal:
        if engine.apply(state, seat, action)[0] is not state:
            return action
    return legal[0]


def _refused(answer: Any, code: str) -> bool:
    return isinstance(answer, tuple) and answer[1] == code


@pytest.mark.parametrize("game", available_games())
@pytest.mark.django_db(transaction=True)
def test_both_writers_give_the_same_answer(game, players):
    with NO_LAYER:
        pair = Pair(game, players)
        engine = pair.engine
        seats = len(pair.current().seats.all())
        outsider = seats  # a user with no seat at either table
        for _ in range(STEPS):
            match = pair.current()
            if match.status != "active":
                break
            version, state = match.version, match.state
            if not engine.actors(state):  # a pause until a server timer fires
                pair.ask(0, "pass", version)
                break
            actor = engine.actors(state)[0]
            action = _moving(engine, state, actor)
            idle = [s for s in range(seats) if s not in engine.actors(state)]
            # Refusals, none of which changes anything.
            answer = pair.ask(outsider, action, version)
            assert answer == (
                errors.Forbidden,
                "forbidden",
                "you have no seat at this match",
            )
            assert _refused(pair.ask(None, action, version), "forbidden")
            assert _refused(pair.ask(actor, action, version + 1), "stale_version")
            assert _refused(
                pair.ask(actor, "no-such-action", version), "illegal_action"
            )
            if idle and not moverule.is_realtime(engine):
                answer = pair.ask(idle[0], action, version)
                assert _refused(answer, "not_your_turn")
            if version > 0:  # an older version: refused or standing, alike
                pair.ask(actor, action, version - 1)
            # A legal move (unless the older version's stood and moved on).
            match = pair.current()
            if match.version == version:
                assert pair.ask(actor, action, version) == version + 1
            assert pair.live.fast_moves > 0  # the owner's own path, not the service's
        # A seat that was left, then a match no longer in play.
        match = pair.current()
        if match.status == "active":
            for table in (pair.a, pair.b):
                services.match_resign(match_id=table.pk, user=players[0])
            answer = pair.ask(0, "no-such-action", None)
            if seats > 2:  # a bot plays on; at two, the match ended
                assert answer == (
                    errors.Forbidden,
                    "forbidden",
                    "you left this match; a bot plays your seat",
                )
        for table in (pair.a, pair.b):
            if Match.objects.get(pk=table.pk).status == "active":
                services.match_abort(match_id=table.pk, user=None)
        for seat in range(seats):
            answer = pair.ask(seat, "anything", None)
            assert answer == (
                errors.NotActive,
                "not_active",
                "this match is not in play",
            )


def test_every_refusal_code_is_a_match_error_of_that_code():
    for code in moverule.CODES:
        error = errors.refused(moverule.Refusal(code, "why"))
        assert isinstance(error, MatchError)
        assert (error.code, error.message) == (code, "why")
    with pytest.raises(ValueError):
        errors.refused(moverule.Refusal("no_such_code", "why"))


class _Seat:
    def __init__(self, number: int, user_id: int | None, *, left: bool = False):
        self.number, self.user_id = number, user_id
        self.forfeited = left
        self.replaced_by_bot = False


def _decide(**overrides: Any) -> moverule.Step | moverule.Refusal:
    engine = get_game("duelo")
    state = engine.setup(engine.validate_config({"players": 2}), SEED)
    actor = engine.actors(state)[0]
    asked: list[tuple[int, int]] = []

    def stepped_since(seat: int, version: int) -> bool:
        asked.append((seat, version))
        return False

    args: dict[str, Any] = dict(
        engine=engine,
        active=True,
        version=0,
        state=state,
        seats=[_Seat(0, 10), _Seat(1, 11)],
        user_id=10 + actor,
        action_id=engine.legal_action_ids(state, actor)[0],
        expected_version=0,
        stepped_since=stepped_since,
    )
    args.update(overrides)
    decided = moverule.decide_move(**args)
    assert not asked  # the log is asked only about older versions
    return decided


def test_the_rule_decides_from_the_match_as_held():
    step = _decide()
    assert isinstance(step, moverule.Step)
    assert step.changed and step.version == 1 and not step.snapshot
    assert step.seat == 0 and step.actors_before == [0]
    assert _decide(seat_number=7) == moverule.Refusal(
        "forbidden", "that seat is not yours"
    )
    left = [_Seat(0, 10, left=True), _Seat(1, 11, left=True)]
    assert _decide(seats=left) == moverule.Refusal(
        "forbidden", "you left this match; a bot plays your seat"
    )
    assert _decide(user_id=None).code == "forbidden"
    assert _decide(active=False, user_id=99).code == "not_active"
    assert _decide(expected_version=3).message == "the match is at version 0, not 3"


def test_the_rule_imports_nothing_of_django():
    code = (
        "import sys, gameplay.moverule; "
        "sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
