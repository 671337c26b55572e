"""Unfinished matches of an earlier rules version (issue 26): called off
without a result and said so, never a crash or a game under other rules."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game
from gameplay.services.outdated import (
    END_REASON,
    matches_call_off_outdated,
    played_rules_version,
)
from tests.gameplay.conftest import start_match

pytestmark = pytest.mark.django_db
GAME = "kungfu2013"
OLD = "kungfu2013-1"


def _outdated(users) -> Match:
    match = start_match(users, game=GAME, config={"life": 5})
    match.state = {**match.state, "rules_version": OLD}
    match.save(update_fields=["state"])
    return match


def test_a_move_in_an_old_rules_match_calls_it_off_with_the_reason(
    players, client
) -> None:
    users = players[:2]
    match = _outdated(users)
    assert played_rules_version(match) == OLD
    current = {**match.state, "rules_version": get_game(GAME).rules_version}
    seat = get_game(GAME).actors(current)[0]
    api = APIClient()
    api.force_authenticate(users[seat])
    answer = api.post(
        f"/api/matches/{match.public_id}/act/",
        {"action": "initiative:keep", "version": 0},
    )
    assert answer.status_code == 409, answer.content
    assert answer.json()["code"] == "not_active"
    assert "earlier version of the rules" in answer.json()["detail"]
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.end_reason == END_REASON
    assert match.version == 0 and match.state["rules_version"] == OLD
    assert all(seat.placement is None for seat in match.seats.all())
    # The page and the API show the called-off game, no error.
    client.force_login(users[0])
    page = client.get(reverse("gameplay:match", args=[match.public_id]))
    assert page.status_code == 200
    state = api.get(f"/api/matches/{match.public_id}/").json()
    assert state["status"] == MatchStatus.ABORTED and state["end_reason"] == END_REASON
    again = api.post(
        f"/api/matches/{match.public_id}/act/",
        {"action": "initiative:keep", "version": 0},
    )
    assert again.status_code == 409 and again.json()["code"] == "not_active"


def test_migrate_calls_off_every_old_rules_match_and_leaves_the_others(
    players,
) -> None:
    old = _outdated(players[:2])
    current = start_match(players[2:4], game=GAME, config={"life": 5})
    other_game = start_match(players[4:6])
    call_command("migrate", verbosity=0, interactive=False)
    old.refresh_from_db()
    current.refresh_from_db()
    other_game.refresh_from_db()
    assert old.status == MatchStatus.ABORTED and old.end_reason == END_REASON
    assert current.status == MatchStatus.ACTIVE
    assert other_game.status == MatchStatus.ACTIVE
    assert matches_call_off_outdated() == 0
