"""Every page fits a 390 px wide phone screen: no horizontal scrolling.

Wide content (tables, the bracket, code) may scroll inside its own box; the
page itself must not. The pages are visited with real content: a signed-in
player with a bot, a league and season, a tournament, a live game, a finished
game's replay and a waiting table.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from bots import services as bot_services
from gameplay import services
from gameplay.services import SeatSpec
from league.models import League, ParticipantKind, Season, SeasonStatus
from league.tournaments import services as tournament_services
from tests.bots.botsrc import FIRST_LEGAL

PHONE = {"width": 390, "height": 844}
OVERFLOW = """() => {
  const root = document.documentElement;
  const over = root.scrollWidth - root.clientWidth;
  let widest = "";
  if (over > 0) {
    let right = root.clientWidth;
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width && r.right > right) {
        right = r.right;
        const cls = typeof el.className === "string" && el.className.trim()
          ? "." + el.className.trim().split(/\\s+/).join(".") : "";
        widest = el.tagName.toLowerCase() + cls + " to " + Math.round(r.right) + " px";
      }
    }
  }
  return {over: over, widest: widest};
}"""


def _content(arena, user) -> dict[str, str]:
    """Pages with something on them, keyed by a short name."""
    other = arena.create_user()
    version = bot_services.bot_create(
        owner=user,
        game="duelo",
        name=arena.unique("Narrow"),
        filename="bot.py",
        data=FIRST_LEGAL,
        source_public=True,
        description="A bot with a description long enough to wrap on a phone.",
    )
    bot = version.bot
    league = League.objects.create(
        slug=arena.unique("league"),
        name="A league with a rather long name for a phone screen",
        game="duelo",
        participants=ParticipantKind.MIXED,
    )
    now = timezone.now()
    Season.objects.create(
        league=league,
        number=1,
        name="Season one",
        registration_opens_at=now - timedelta(days=1),
        registration_closes_at=now + timedelta(days=7),
        starts_at=now,
        ends_at=now + timedelta(days=30),
        status=SeasonStatus.OPEN,
    )
    cup = tournament_services.tournament_create(
        by=user, name="Narrow cup", game="duelo", format="double_elim"
    )
    for entrant in (user, other, arena.create_user(), arena.create_user()):
        tournament_services.tournament_enter(tournament=cup, user=entrant)
    arena.server_side(tournament_services.tournament_start, tournament=cup, by=user)

    live = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=user), SeatSpec(agent="builtin:random")],
        config={"start": 0},
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=live.pk)
    finished = services.match_create(
        game="duelo",
        seats=[SeatSpec(agent="builtin:random"), SeatSpec(agent="builtin:heuristic")],
    )
    arena.server_side(services.match_start, match_id=finished.pk)
    arena.wait_until(
        lambda: type(finished).objects.get(pk=finished.pk).is_over,
        message="the bots' game to finish",
    )
    waiting = services.match_create(
        game="duelo", seats=[SeatSpec(user=user), SeatSpec()], host=user
    )
    return {
        "home": "/",
        "games": "/games/",
        "game lobby": "/games/duelo/",
        "rules": "/games/duelo/rules/",
        "leagues": "/leagues/",
        "league": f"/leagues/{league.slug}/",
        "season": f"/leagues/{league.slug}/seasons/1/",
        "rankings": "/rankings/?game=duelo",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{cup.slug}/",
        "bots": "/bots/",
        "bot upload": "/bots/new/",
        "bot": f"/bots/{bot.pk}/",
        "bot logs": f"/bots/{bot.pk}/logs/",
        "bot source": f"/bots/{bot.pk}/versions/{version.number}/source/",
        "bots by owner": f"/bots/by/{user.username}/",
        "writing a bot": "/bots/docs/writing/",
        "bot protocol": "/bots/docs/protocol/",
        "sandbox doc": "/bots/docs/sandbox/",
        "profile": f"/accounts/u/{user.username}/",
        "profile edit": "/accounts/profile/edit/",
        "api tokens": "/accounts/tokens/",
        "password change": "/accounts/password/change/",
        "notifications": "/notifications/",
        "live game": f"/matches/{live.public_id}/",
        "replay": f"/matches/{finished.public_id}/replay/",
        "waiting table": f"/matches/{waiting.public_id}/",
    }


ANONYMOUS = {
    "sign in": "/accounts/login/",
    "sign up": "/accounts/signup/",
    "password reset": "/accounts/password/reset/",
    "home (visitor)": "/",
    "game lobby (visitor)": "/games/duelo/",
}


def test_no_page_is_wider_than_a_390_px_screen(arena, new_context):
    me = arena.player(viewport=PHONE)
    me.user.display_name = "Someone with a long display name"
    me.user.save(update_fields=["display_name"])
    pages = _content(arena, me.user)
    visitor = new_context(viewport=PHONE).new_page()
    too_wide = []
    for viewer, urls in ((me.page, pages), (visitor, ANONYMOUS)):
        for name, url in urls.items():
            response = viewer.goto(url)
            assert response.ok, f"{name} ({url}) answered {response.status}"
            viewer.wait_for_load_state("networkidle")
            found = viewer.evaluate(OVERFLOW)
            if found["over"] > 0:
                too_wide.append(
                    f"{name} ({url}): {found['over']} px too wide, {found['widest']}"
                )
    assert not too_wide, "pages wider than 390 px:\n" + "\n".join(too_wide)
    # The measure itself can fail: one over-wide element makes the page scroll.
    visitor.evaluate(
        "() => { const d = document.createElement('div');"
        " d.style.width = '600px'; d.style.height = '1px';"
        " document.querySelector('main').appendChild(d); }"
    )
    assert visitor.evaluate(OVERFLOW)["over"] > 0
