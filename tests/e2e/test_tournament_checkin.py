"""Check-in in a real browser: an entrant checks in with the button on the
tournament page; at the start the organiser's bracket holds only those who
checked in (issue 31, section 4)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from league.models import Tournament
from league.participants import participant_for_builtin
from league.tournaments import services


def test_an_entrant_checks_in_and_the_no_show_is_left_out(arena):
    organiser, present, absent = arena.player(), arena.player(), arena.player()
    tournament = arena.server_side(
        services.tournament_create,
        by=organiser.user,
        name=f"Check-in cup {arena.unique('c')}",
        game="kungfu2013",
        format="single_elim",
        starts_at=timezone.now() + timedelta(minutes=20),
        checkin_minutes=30,
    )
    for person in (present, absent):
        arena.server_side(
            services.tournament_enter, tournament=tournament, user=person.user
        )
    arena.server_side(
        services.tournament_add_entrant,
        tournament=tournament,
        by=organiser.user,
        participant_id=participant_for_builtin("random").pk,
    )

    page = present.page
    page.goto(f"/tournaments/{tournament.slug}/")
    checkin = page.locator("#checkin")
    expect(checkin).to_contain_text("Check-in open")
    expect(checkin).to_contain_text("1 of 3 checked in")  # the built-in bot
    page.get_by_role("button", name="Check in", exact=True).click()
    expect(page.get_by_text("You are checked in.")).to_be_visible()
    expect(page.locator("#checkin")).to_contain_text("2 of 3 checked in")
    expect(page.get_by_role("button", name="Check in", exact=True)).to_have_count(0)

    # The absent entrant sees the button they never press.
    absent.page.goto(f"/tournaments/{tournament.slug}/")
    expect(
        absent.page.get_by_role("button", name="Check in", exact=True)
    ).to_be_visible()

    org = organiser.page
    org.goto(f"/tournaments/{tournament.slug}/")
    expect(org.locator("main")).to_contain_text("not checked in")
    org.get_by_role("button", name="Start", exact=True).click()
    expect(org.get_by_role("heading", name="Bracket", level=2)).to_be_visible()
    expect(org.get_by_role("heading", name="Entrants (2)")).to_be_visible()
    bracket = org.locator(".bracket")
    expect(bracket).to_contain_text(present.user.public_name)
    expect(bracket).not_to_contain_text(absent.user.public_name)
    started = Tournament.objects.get(pk=tournament.pk)
    assert started.status == "running"
    assert {e.participant.user_id for e in started.entrants.all()} == {
        present.user.pk,
        None,
    }
