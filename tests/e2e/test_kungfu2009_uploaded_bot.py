"""Kung Fu (2009) in Chromium with an uploaded bot at the table: the host seats
the example bot (it trades and claims) and a built-in bot from the table's
"Seat a bot" menu; the worker holds the uploaded bot's sandboxed process for
the match (bots.live_realtime) and it acts on the wall clock's ticks next to
the person, who shouts KUNG FU with a stacked hand; the one-minute time limit
(the least the table offers: the test waits it out) ends the match, after
which the bot's process and lease are gone.
"""

from __future__ import annotations

from pathlib import Path

from django.core.cache import cache
from playwright.sync_api import expect

from bots import enqueue as bot_enqueue
from bots import services as bot_services
from bots import tasks as bot_tasks
from bots.models import Bot, BotMatchLog, BotStatus, BotVersion, VersionStatus
from gameplay import services
from gameplay.models import Match, MatchAction, MatchStatus
from gameplay.services import SeatSpec
from tests.e2e.kungfu2009 import shout_until_scored

EXAMPLE = Path(__file__).resolve().parents[2] / "bots/examples/kungfu2009_collector.py"
RESULTS = "[data-role='results']"
TALL = {"width": 1280, "height": 1400}


def stacked(hands: list[str]) -> str:
    n = len(hands)
    deal = "".join(hands[t][k] for k in range(5) for t in range(n))
    left = {"T": 16, "M": 16, "C": 16, "R": 16, "D": 4}
    for c in deal:
        left[c] -= 1
    return deal + "".join(c * k for c, k in left.items())


def _store_example(author, name: str) -> BotVersion:
    """The example, stored and marked active (validation is another test's)."""
    original = bot_enqueue.validation
    bot_enqueue.validation = lambda version_id: None
    try:
        version = bot_services.bot_create(
            owner=author,
            game="kungfu2009",
            name=name,
            filename="collector.py",
            data=EXAMPLE.read_bytes(),
        )
    finally:
        bot_enqueue.validation = original
    BotVersion.objects.filter(pk=version.pk).update(status=VersionStatus.ACTIVE)
    Bot.objects.filter(pk=version.bot_id).update(
        status=BotStatus.ACTIVE, active_version=version
    )
    version.refresh_from_db()
    return version


def test_a_person_plays_a_live_table_with_an_uploaded_real_time_bot(arena):
    author, host = arena.create_user(), arena.player(viewport=TALL)
    version = _store_example(author, arena.unique("Crane"))
    match = arena.server_side(
        services.match_create,
        game="kungfu2009",
        seats=[SeatSpec(user=host.user), SeatSpec(), SeatSpec()],
        config={
            "deck": stacked(["DDDDT", "MCRTM", "CRTMC"]),
            "minutes": 1,
        },
        private_options=True,
        host=host.user,
    )
    page = host.page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/matches/{match.public_id}/")
    page.locator('select[name="bot"]').select_option(f"upload:{version.bot_id}")
    page.get_by_role("button", name="Seat a bot").click()
    expect(page.locator("body")).to_contain_text(f"{version.bot.name} v1")
    page.locator('select[name="bot"]').select_option("heuristic")
    page.get_by_role("button", name="Seat a bot").click()
    arena.wait_until(
        lambda: Match.objects.filter(pk=match.pk, status=MatchStatus.ACTIVE).first(),
        message="the table to start",
    )
    page.reload()
    expect(page.locator("#kfa-board")).to_be_visible()
    expect(page.locator('[data-role="my-hand"] [data-index]')).to_have_count(5)
    bot_seat = Match.objects.get(pk=match.pk).seats.get(agent=version.agent).number

    # The worker holds the bot: its intents go in on the ticks.
    arena.wait_until(
        lambda: MatchAction.objects.filter(match=match, seat=bot_seat).exists(),
        timeout=60,
        interval=1,
        message="the uploaded bot's first intent",
    )
    assert cache.get(f"{bot_tasks.LIVE_RT_LOCK_PREFIX}{match.pk}") is not None

    # KUNG FU with the four Dragons (again if a bot took the face-up card).
    shout_until_scored(arena, page, match_pk=match.pk)

    # The time limit (or a pile) ends it; the bot's process and lease go.
    expect(page.locator(RESULTS)).to_be_visible(timeout=200_000)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED
    mine = MatchAction.objects.filter(match=match, seat=bot_seat)
    kinds = {a.split(":")[0] for a in mine.values_list("action_id", flat=True)}
    trades_or_claims = {"to", "give", "want", "send", "accept", "claim"}
    assert kinds & trades_or_claims, kinds  # not only arranging its hand
    assert not match.seats.get(number=bot_seat).forfeited
    log = arena.wait_until(
        lambda: BotMatchLog.objects.filter(match=match, seat=bot_seat).first(),
        timeout=30,
        message="the bot's match log (written when its process stops)",
    )
    assert log.fault == "" and log.decisions > 10
    arena.wait_until(
        lambda: cache.get(f"{bot_tasks.LIVE_RT_LOCK_PREFIX}{match.pk}") is None,
        timeout=30,
        message="the driver's lease released",
    )
    assert errors == []
