"""Uploaded bots that must act at once, at a table with a person: asked in parallel.

Run under the development override (``BOT_SANDBOX_ALLOW_UNSANDBOXED``), like
``test_live_turns.py``: what is tested is the driving. A person and two uploaded
bots play a whole Kung Fu (2019) game; whenever both bots must choose (every
draft pick, every card, every dice assignment they share), both sandboxes
are started and asked on the same state and their answers go in as one batch.
"""

from __future__ import annotations

import pytest

from bots import live_turns
from bots.models import BotMatchLog
from gameplay import services
from gameplay.models import MatchStatus
from gameplay.rules import get_game
from gameplay.services import SeatSpec
from tests.bots import botsrc
from tests.bots.helpers import stored_version
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ENGINE = get_game("kungfu2019")


def _start_table(person, version, capture_on_commit):
    """A started 3-player table: the person, then two seats of the upload."""
    match = services.match_create(
        game="kungfu2019",
        seats=[
            SeatSpec(user=person),
            SeatSpec(agent=version.agent, label="Upload A"),
            SeatSpec(agent=version.agent, label="Upload B"),
        ],
        config={"players": 3},
    )
    with capture_on_commit(execute=True):
        services.match_start(match_id=match.pk)
    return match


def test_two_uploaded_bots_are_asked_together_through_a_whole_game(
    settings, owner, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.BOT_SANDBOX_ALLOW_UNSANDBOXED = True
    person = UserFactory(username="person")
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="first")
    batches: list[tuple[int, list[int]]] = []
    real = live_turns.match_system_act_many

    def recording(*, match_id, moves, expected_version):
        batches.append((expected_version, [m.seat for m in moves]))
        return real(match_id=match_id, moves=moves, expected_version=expected_version)

    monkeypatch.setattr(live_turns, "match_system_act_many", recording)
    match = _start_table(person, version, django_capture_on_commit_callbacks)
    # Both bots picked at once, on the deal, before the person moved.
    assert batches[0] == (0, [1, 2])
    for _ in range(400):
        match.refresh_from_db()
        if match.is_over:
            break
        actors = ENGINE.actors(match.state)
        assert actors == [0], "the uploaded bots' choices were left unmade"
        with django_capture_on_commit_callbacks(execute=True):
            services.match_act(
                match_id=match.pk,
                user=person,
                action_id=ENGINE.legal_action_ids(match.state, 0)[0],
            )
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "completed"
    assert len(batches) > 10 and all(seats == [1, 2] for _, seats in batches)
    for seat in (1, 2):
        log = BotMatchLog.objects.get(match=match, seat=seat)
        assert log.fault == ""
        assert log.decisions == match.actions.filter(seat=seat).count()


def test_a_commit_landing_while_the_bots_think_leaves_their_choices_standing(
    settings, owner, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """Whenever the person chooses together with the bots, the person's commit
    goes in while the bots think (as a built-in bot's task, thinking in its own
    process, commits when ready): the bots' answers, chosen at the version
    before it, still go in by the simultaneous rule, so no bot is started and
    asked again for the same choice (one decision per logged move)."""
    from gameplay.models import Match

    settings.BOT_SANDBOX_ALLOW_UNSANDBOXED = True
    person = UserFactory(username="person")
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="first")
    landed: list[int] = []
    real_pace = live_turns._pace

    def person_first(match) -> None:
        current = Match.objects.get(pk=match.pk)
        if 0 in ENGINE.actors(current.state):
            services.match_act(
                match_id=match.pk,
                user=person,
                action_id=ENGINE.legal_action_ids(current.state, 0)[0],
            )
            landed.append(current.version)
        real_pace(match)

    monkeypatch.setattr(live_turns, "_pace", person_first)
    match = _start_table(person, version, django_capture_on_commit_callbacks)
    for _ in range(400):
        match.refresh_from_db()
        if match.is_over:
            break
        assert ENGINE.actors(match.state) == [0]
        with django_capture_on_commit_callbacks(execute=True):
            services.match_act(
                match_id=match.pk,
                user=person,
                action_id=ENGINE.legal_action_ids(match.state, 0)[0],
            )
    assert match.status == MatchStatus.FINISHED
    assert len(landed) > 5, "the person's commit landed during the bots' thought"
    for seat in (1, 2):
        log = BotMatchLog.objects.get(match=match, seat=seat)
        assert log.fault == ""
        assert log.decisions == match.actions.filter(seat=seat).count()
