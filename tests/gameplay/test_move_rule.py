"""One move rule (``gameplay.moverule``), two writers: the locked service
(``services.match_act``) and the live owner's copy (``owner.act_sync``, its
compare-and-set) answer the same request alike, in every registered game:
the same refusal (error class, code, message) or the same step (version,
state, log row, timers), whatever order the requests come in.

Two matches of each game are dealt from one seed; every request goes to the
service on one and to the owner on the other, and each answer and the two
matches afterwards are compared. The paths around them ask the rule too: a
socket naming a seat not its user's (the consumer), and a bots worker's batch
of steps (``services.match_record_steps``) with a step out of turn, are
refused with the rule's words.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.test import override_settings

from gameplay import errors, moverule, services
from gameplay.errors import MatchError
from gameplay.live import owner
from gameplay.models import Match
from gameplay.rules import available_games, get_game
from gameplay.services import SeatSpec
from tests.gameplay.live import connect, next_reply, receive

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


def _by_service(
    match: Match, user: Any, action_id: str, version: Any, seat: Any = None
) -> Any:
    try:
        outcome = services.match_act(
            match_id=match.pk,
            user=user,
            action_id=action_id,
            expected_version=version,
            seat_number=seat,
        )
    except MatchError as exc:
        return type(exc), exc.code, exc.message
    return outcome.version


def _by_owner(
    live: owner.LiveMatch, user: Any, action_id: str, version: Any, seat: Any = None
) -> Any:
    try:
        applied = owner.act_sync(live, user, action_id, version, seat_number=seat)
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

    def ask(
        self, seat_of_user: int | None, action_id: str, version: Any, seat: Any = None
    ) -> Any:
        """The answers of both writers (``seat``: the seat the request names)."""
        user = AnonymousUser() if seat_of_user is None else self.users[seat_of_user]
        by_service = _by_service(self.a, user, action_id, version, seat)
        by_owner = _by_owner(self.live, user, action_id, version, seat)
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


NOT_YOURS = (errors.Forbidden, "forbidden", "that seat is not yours")


@pytest.mark.parametrize("game", available_games())
@pytest.mark.django_db(transaction=True)
def test_a_seat_not_the_users_is_refused_alike_by_both_writers(game, players):
    with NO_LAYER:
        pair = Pair(game, players)
        seats = len(pair.current().seats.all())
        for version in (0, 5, None):
            for named in (1, seats, "0", -1):
                assert pair.ask(0, "anything", version, seat=named) == NOT_YOURS
        # The user's own seat named: the rule goes on to the engine's refusal.
        answer = pair.ask(0, "no-such-action", 0, seat=0)
        assert _refused(answer, "illegal_action") or _refused(answer, "not_your_turn")
        assert pair.current().version == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_naming_another_seat_gets_the_rules_refusal(players):
    """The consumer keeps no seat check of its own: the socket's ``seat`` goes
    to the move rule, whose refusal it sends as the service gives it."""
    users = players[:2]
    match = await database_sync_to_async(_table)("duelo", users)
    sock = await connect(match, users[0])
    try:
        first = await receive(sock)
        legal = first["legal"][0]["id"] if first["legal"] else "anything"
        expected = await database_sync_to_async(_by_service)(
            match, users[0], legal, 0, 1
        )
        assert expected == NOT_YOURS
        await sock.send_json_to(
            {"type": "act", "action": legal, "version": 0, "seat": 1}
        )
        reply = await next_reply(sock)
        assert (reply["type"], reply["code"], reply["message"]) == (
            "error",
            expected[1],
            expected[2],
        )
        # A spectator's socket naming a seat: the rule's "no seat" refusal.
        watcher = await connect(match, players[4])
        await receive(watcher)
        await watcher.send_json_to({"type": "act", "action": legal, "seat": 0})
        reply = await next_reply(watcher)
        assert (reply["code"], reply["message"]) == (
            "forbidden",
            "you have no seat at this match",
        )
        await watcher.disconnect()
        assert (
            await database_sync_to_async(Match.objects.get)(pk=match.pk)
        ).version == 0
    finally:
        await sock.disconnect()


def _to_idle_seat(engine: Any, state: dict[str, Any], seats: int):
    """Steps by the first actor from ``state`` until some seat is not to act:
    (the steps, the state they reach, that seat)."""
    played: list[tuple[int, str]] = []
    for _ in range(10):
        idle = [seat for seat in range(seats) if seat not in engine.actors(state)]
        if idle:
            return played, state, idle[0]
        actor = engine.actors(state)[0]
        action = _moving(engine, state, actor)
        played.append((actor, action))
        state = engine.apply(state, actor, action)[0]
    raise AssertionError("no seat ever waited")


TURN_BASED = [g for g in available_games() if not moverule.is_realtime(get_game(g))]


@pytest.mark.parametrize("game", TURN_BASED)
@pytest.mark.django_db
def test_a_bot_step_out_of_turn_is_refused_as_a_persons_move(game, players):
    """``match_record_steps`` (a bots worker's batch) asks the rule: the step
    out of turn is refused with the words a person's move gets from either
    writer, and the batch writes nothing."""
    engine = get_game(game)
    with NO_LAYER:
        pair = Pair(game, players)
        seats = len(pair.current().seats.all())
        played, state, idle = _to_idle_seat(engine, pair.current().state, seats)
        for version, (actor, action) in enumerate(played):
            assert pair.ask(actor, action, version) == version + 1
        out_of_turn = next(
            iter(engine.legal_action_ids(state, engine.actors(state)[0]))
        )
        person = pair.ask(idle, out_of_turn, len(played))
        assert person == (
            errors.NotYourTurn,
            "not_your_turn",
            "it is not your turn to act",
        )
        bots = services.match_create(
            game=game,
            seats=[SeatSpec(agent=f"bot:{n + 1}") for n in range(seats)],
        )
        bots = services.match_start(match_id=bots.pk, seed=SEED)
        with pytest.raises(MatchError) as refused:
            services.match_record_steps(
                match_id=bots.pk,
                steps=[*played, (idle, out_of_turn)],
                expected_version=0,
            )
        got = refused.value
        assert (type(got), got.code, got.message) == person
        bots.refresh_from_db()
        assert bots.version == 0 and not bots.actions.exists()
        # The same batch without the step out of turn is written whole.
        outcome = services.match_record_steps(
            match_id=bots.pk, steps=played, expected_version=0
        )
        assert outcome.version == len(played)
        bots.refresh_from_db()
        assert bots.state == pair.current().state


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
