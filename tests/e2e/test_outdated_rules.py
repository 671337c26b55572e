"""A game started under an earlier rules version (issue 26): the person who
moves in it is told it was called off, in the browser, not met by an error."""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game
from gameplay.services import SeatSpec
from gameplay.services.outdated import END_REASON

CHOICES = (
    "#kfa-board button.choice:not([disabled]), #kfa-board .kcard-choice:not([disabled])"
)
REASON = "started under an earlier version of the rules"


def test_a_move_in_an_old_rules_game_shows_it_was_called_off(arena):
    ana, bo = arena.player(), arena.player()
    match = arena.server_side(
        services.match_create,
        game="kungfu2013",
        seats=[SeatSpec(user=ana.user), SeatSpec(user=bo.user)],
        config={"life": 5},
    )
    arena.server_side(services.match_start, match_id=match.pk)
    match.refresh_from_db()
    engine = get_game("kungfu2013")
    mover = (ana, bo)[engine.actors(match.state)[0]]
    # As if the match had been started before kungfu2013-2 and never touched
    # since (a deploy's migrate would have called it off already).
    Match.objects.filter(pk=match.pk).update(
        state={**match.state, "rules_version": "kungfu2013-1"}
    )
    page = mover.page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Connected")
    page.locator(CHOICES).first.click()
    expect(page.get_by_text(REASON).first).to_be_visible()
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.end_reason == END_REASON
    assert match.version == 0
    # Coming back later: the page says the same, with no move to make.
    page.reload()
    expect(page.get_by_text(REASON).first).to_be_visible()
    expect(page.locator(CHOICES)).to_have_count(0)
    assert not errors
