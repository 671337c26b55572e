"""A report from the chat panel reaches the moderation queue, a moderator
mutes from it, and the mute takes effect at once and is shown to the user."""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import services
from gameplay.services import SeatSpec


def _make_moderator(user) -> None:
    """The data migration's group, made again if a transactional test in the
    same session flushed it."""
    from django.contrib.auth.models import Group, Permission

    group, _ = Group.objects.get_or_create(name="moderator")
    group.permissions.add(
        Permission.objects.get(codename="moderate", content_type__app_label="community")
    )
    user.groups.add(group)


def _match(one, two):
    match = services.match_create(
        game="duelo", seats=[SeatSpec(user=one), SeatSpec(user=two)], config={}
    )
    return services.match_start(match_id=match.pk)


def _say(page, text: str) -> None:
    page.locator("[data-role='chat-text']").fill(text)
    page.locator("[data-role='chat-form'] button[type=submit]").click()


def test_report_reaches_the_queue_and_a_mute_applies_at_once(arena):
    rude, victim, staff = arena.player(), arena.player(), arena.player()
    arena.server_side(_make_moderator, staff.user)
    match = arena.server_side(_match, rude.user, victim.user)
    for person in (rude, victim):
        person.page.goto(f"/matches/{match.public_id}/")
        expect(person.page.locator("[data-role='connection']")).to_contain_text(
            "Connected"
        )
    _say(rude.page, "you play like a potato")
    line = victim.page.locator("[data-role='chat-lines'] li:not(.chat-system)").first
    expect(line).to_contain_text("potato")
    line.get_by_role("button", name="Report").click()
    report = victim.page.locator("[data-role='chat-report']")
    report.locator("select[name=reason]").select_option("abuse")
    report.locator("input[name=note]").fill("insults")
    report.get_by_role("button", name="Send report").click()
    expect(victim.page.locator("[data-role='chat-note']")).to_contain_text(
        "went to the moderators"
    )

    # The victim is not staff: no moderation page for them.
    other_tab = victim.context.new_page()
    assert other_tab.goto(arena.url("/moderation/")).status == 403
    other_tab.close()
    staff.page.goto("/moderation/")
    card = staff.page.locator("section.report", has_text="you play like a potato")
    expect(card).to_contain_text("you play like a potato")
    expect(card).to_contain_text("insults")
    card.locator("select[name=kind]").select_option("mute")
    card.locator("input[name=minutes]").fill("30")
    card.locator("[data-testid='act'] input[name=reason]").fill("insulting an opponent")
    card.get_by_role("button", name="Apply").click()
    # This report leaves the queue (others, from earlier tests of the session
    # sharing the server's database, may stay open).
    expect(
        staff.page.locator("section.report", has_text="you play like a potato")
    ).to_have_count(0)

    # The muted player's next line is refused at once, on the same page.
    _say(rude.page, "potato again")
    expect(rude.page.locator("[data-role='chat-error']")).to_contain_text("muted")
    # It never reaches the victim: the victim's own line, said after the
    # refusal, arrives and the refused one is not before it.
    victim_lines = victim.page.locator("[data-role='chat-lines'] li:not(.chat-system)")
    _say(victim.page, "thanks, staff")
    expect(victim_lines).to_have_count(2)
    expect(victim_lines.last).to_contain_text("thanks, staff")
    expect(victim_lines.filter(has_text="potato again")).to_have_count(0)
    rude.page.goto("/community/standing/")
    expect(rude.page.locator("main, body").first).to_contain_text(
        "insulting an opponent"
    )


def _report(reporter, line_text):
    from community import moderation
    from community.models import ChatMessage

    line = ChatMessage.objects.get(body=line_text)
    return moderation.report_create(
        reporter=reporter, reason="abuse", message_id=line.pk
    )


def test_a_moderator_removes_a_line_and_it_leaves_every_page_live(arena):
    rude, victim, staff = arena.player(), arena.player(), arena.player()
    arena.server_side(_make_moderator, staff.user)
    match = arena.server_side(_match, rude.user, victim.user)
    for person in (rude, victim):
        person.page.goto(f"/matches/{match.public_id}/")
        expect(person.page.locator("[data-role='connection']")).to_contain_text(
            "Connected"
        )
    _say(rude.page, "good luck")
    _say(rude.page, "you absolute turnip")
    people_lines = "[data-role='chat-lines'] li:not(.chat-system)"
    for person in (rude, victim):
        expect(person.page.locator(people_lines)).to_have_count(2)
    report = arena.server_side(_report, victim.user, "you absolute turnip")

    staff.page.goto("/moderation/")
    card = staff.page.locator("section.report", has_text="you absolute turnip")
    expect(card).to_contain_text("you absolute turnip")
    removal = card.locator("[data-testid='remove-line']")
    removal.locator("input[name=reason]").fill("insult")
    removal.get_by_role("button", name="Remove this line for everyone").click()
    # The report stays open (the moderator may still warn or mute), its line
    # marked removed; other reports of the session may be open beside it.
    this_report = staff.page.locator("section.report", has_text=f"Report {report.pk}:")
    expect(this_report.locator("[data-testid='line-removed']")).to_be_visible()

    # Gone from both open pages without a reload; the other line stays.
    for person in (rude, victim):
        expect(person.page.locator(people_lines)).to_have_count(1)
        expect(person.page.locator(people_lines)).to_contain_text("good luck")
    # And from the history a fresh page loads.
    victim.page.reload()
    expect(victim.page.locator(people_lines)).to_have_count(1)
    # The log shows who, why and which line.
    staff.page.goto(f"/moderation/users/{rude.user.username}/")
    expect(staff.page.locator("main, body").first).to_contain_text("Chat line removed")
