"""Post-game analysis of the three Kung Fu games, read in the replay.

Kung Fu (2013) and (2019): a finished game's replay after a failed run, the
"Analyse this game" button, the progress text moving ("k of n decisions")
while the real worker runs, then the win-chance graph, the graded marks and
a step's menu of actions with their estimated values, checked against what
the API stored. Kung Fu (2009), the real-time game: the claim and trade
review panel.

The games are played server side with the services (first legal moves); the
worker runs the analysis with the budget stored on the row.
"""

from __future__ import annotations

import math
import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.e2e.a11y import assert_accessible_in_both_schemes

DESKTOP = {"width": 1280, "height": 900}
RUNNING = re.compile(r"Analysing… (\d+) of (\d+) decisions")
# Every text the status line shows, recorded as the page changes it (the
# analysis polls every 1.5 s; a test reads the whole history afterwards).
RECORD_STATUS = """
document.addEventListener("DOMContentLoaded", () => {
  const line = document.querySelector("[data-role='analysis-status']");
  window.kfaStatusSeen = [];
  if (!line) return;
  new MutationObserver(() => window.kfaStatusSeen.push(line.textContent))
    .observe(line, { childList: true, characterData: true, subtree: true });
});
"""


def _finished(arena, users, game: str, config: dict, seed: int | None = None):
    from gameplay import services
    from tests.gameplay.conftest import play_to_end

    def make():
        match = services.match_create(
            game=game, seats=[services.SeatSpec(user=u) for u in users], config=config
        )
        match = services.match_start(match_id=match.pk, seed=seed)
        play_to_end(match, users)
        match.refresh_from_db()
        return match

    match = arena.server_side(make)
    assert match.status == "finished"
    return match


def _stored(arena, match) -> dict:
    from analysis.models import MatchAnalysis

    def read():
        return MatchAnalysis.objects.get(match=match).result

    return arena.server_side(read)


def _ask_and_watch_progress(page, match, seated: int) -> None:
    """Press the button on the replay, see "k of n decisions" move, then the
    graph. ``seated``: the match's decisions (steps taken by a seat)."""
    page.add_init_script(RECORD_STATUS)
    page.goto(f"/matches/{match.public_id}/replay/")
    panel = page.locator("#analysis-panel")
    panel.get_by_role("button", name="Analyse this game").click()
    page.wait_for_url(f"**/matches/{match.public_id}/replay/")
    expect(panel.locator("svg.analysis-graph")).to_be_visible(timeout=180_000)
    expect(panel.locator("[data-role='analysis-status']")).to_contain_text(
        "iterations per decision"
    )
    expect(panel.get_by_role("button", name="Analyse this game")).to_be_hidden()
    seen = page.evaluate("window.kfaStatusSeen")
    running = [tuple(map(int, m.groups())) for m in map(RUNNING.search, seen) if m]
    assert running, f"the progress was never shown: {seen}"
    assert {total for _, total in running} == {seated}
    done = [d for d, _ in running]
    assert done == sorted(done) and len(set(done)) >= 2, f"it did not move: {seen}"
    # "n of n" is shown too: the last decision searched, the result not yet
    # stored (analysis.services writes done == total at once).
    assert all(0 <= d <= seated for d in done)


def _check_graph_marks_and_a_menu(page, result: dict, players: int) -> None:
    panel = page.locator("#analysis-panel")
    graph = panel.locator("svg.analysis-graph")
    decisions = result["decisions"]
    valued = [d for d in decisions if d.get("value") is not None]
    # One line per seat; one mark per valued decision, graded as stored.
    expect(graph.locator("path.analysis-line")).to_have_count(players)
    dots = graph.locator("circle.analysis-dot")
    expect(dots).to_have_count(len(valued))
    for grade in {d["grade"] for d in valued}:
        want = sum(1 for d in valued if d["grade"] == grade)
        expect(graph.locator(f"circle.grade-{grade}")).to_have_count(want)
    expect(panel.locator("[data-role='analysis-summary'] tr")).to_have_count(
        players + 1
    )

    # A searched decision with a real choice: its menu at the step before it.
    chosen = next(
        d for d in decisions if d["grade"] != "only" and len(d.get("menu") or []) > 1
    )
    dot = graph.locator(f"circle.analysis-dot[data-version='{chosen['version']}']")
    # A mark jumps the replay to that decision (marks can overlap at this
    # width, so the click goes to this one's element).
    dot.dispatch_event("click")
    expect(page.locator("[data-role='slider']")).to_have_value(str(chosen["version"]))
    page.locator("[data-role='slider']").evaluate(
        "(el, i) => { el.value = String(i);"
        " el.dispatchEvent(new Event('input', { bubbles: true })); }",
        chosen["version"] - 1,
    )
    menu = panel.locator("[data-role='analysis-menu']")
    expect(menu.locator("tr")).to_have_count(len(chosen["menu"]) + 1)
    best = menu.locator(f"tr[data-action='{chosen['best']}']")
    expect(best).to_contain_text("★ best")
    taken = menu.locator(f"tr[data-action='{chosen['taken']}']")
    expect(taken).to_contain_text("✓ played")
    for item in chosen["menu"]:
        if item["value"] is None:
            continue
        row = menu.locator(f"tr[data-action='{item['id']}']")
        shown = math.floor(item["value"] * 100 + 0.5)  # JavaScript's Math.round
        expect(row.locator("td").nth(1)).to_have_text(f"{shown}%")
    _every_grade_readable(page)


def _every_grade_readable(page) -> None:
    """Each grade's verdict line in the light and the dark scheme, whatever
    grades this game happened to produce (a "mistake" in orange once failed
    contrast only in the runs that had one)."""
    page.locator("#analysis-panel").evaluate(
        """(panel) => {
          for (const grade of ["only", "best", "inaccuracy", "mistake", "blunder"]) {
            const line = document.createElement("p");
            line.className = "analysis-verdict grade-" + grade;
            line.textContent = "A chose a move: " + grade + ".";
            panel.appendChild(line);
          }
        }"""
    )
    assert_accessible_in_both_schemes(page, "every grade's verdict")


def _failed_earlier(arena, match, iterations: int) -> None:
    """A failed earlier run of ``match`` with a budget of ``iterations``."""
    from analysis.models import AnalysisStatus, MatchAnalysis
    from gameplay.rules.analysis import ANALYSIS_VERSION

    arena.server_side(
        MatchAnalysis.objects.create,
        match=match,
        version=ANALYSIS_VERSION,
        status=AnalysisStatus.FAILED,
        error="the worker was lost",
        iterations=iterations,
    )


@pytest.mark.parametrize(
    ("game", "config", "seed", "iterations", "at_least"),
    [
        # A drawn seed's game of first legal moves lasts 55 to 390 decisions:
        # this deal's 185 take several polls to analyse, and the longest
        # games' steps, analysis and graph cost three times as much.
        ("kungfu2013", {}, 31, 96, 100),
        # A 2-player deal of first legal moves lasts 12 to 36 decisions: a
        # drawn one, at 96 iterations, could end within one or two polls (a
        # flaky run in CI). This deal's 36 at 288 iterations take about as
        # long as the game above.
        ("kungfu2019", {"draft": False}, 1, 288, 36),
    ],
)
def test_ask_again_after_a_failure_watch_the_progress_and_read_it(
    arena, game, config, seed, iterations, at_least
):
    """A failed earlier run shows its error and the button again; asking
    re-queues the stored row. Its budget (what an operator's
    ANALYSIS_ITERATIONS would store, not the test settings' 16) and a dealt
    game of ``at_least`` decisions make the run last several of the page's
    polls, so the progress is seen to move."""
    me = arena.player(viewport=DESKTOP)
    rival = arena.create_user()
    match = _finished(arena, [me.user, rival], game, config, seed)
    seated = arena.server_side(lambda: match.actions.exclude(seat=None).count())
    # The engine changed if this deal's game got short.
    assert seated >= at_least, f"{seated} decisions: too few to watch them analysed"
    _failed_earlier(arena, match, iterations)
    page = me.page
    page.goto(f"/matches/{match.public_id}/replay/")
    expect(page.locator("[data-role='analysis-status']")).to_have_text(
        "The analysis failed: the worker was lost."
    )
    _ask_and_watch_progress(page, match, seated)
    result = _stored(arena, match)
    assert result["iterations"] == iterations
    assert len(result["decisions"]) == seated
    _check_graph_marks_and_a_menu(page, result, players=2)


def test_kungfu2009_claim_and_trade_review_in_the_replay(arena):
    """A live table: seat 0 claims a difficult card it does not hold (wrong),
    seat 1 holds four Dragons, which fill the easy combination whatever it is
    (and maybe others), and never claims (missed), the table
    ends at its time limit. The steps are stamped at the times a live table
    would have stamped them (claim at 8 s, check at 10.1 s, end at 60 s)."""
    from analysis.models import MatchAnalysis
    from gameplay import services
    from gameplay.models import MatchAction
    from tests.gameplay.test_kungfu2009_live import act, table

    me = arena.player(viewport=DESKTOP)
    users = [me.user, *(arena.create_user() for _ in range(3))]
    hands = ["TMTMT", "DDDDT", "MCRTM", "CRTMC"]

    def play():
        match = table(users, hands, minutes=1)
        act(match, users[0], "claim:difficult")
        match.refresh_from_db()
        services.match_apply_timers(
            match_id=match.pk, now=match.turn_started_at + timedelta(seconds=2.1)
        )
        match.refresh_from_db()
        services.match_apply_timers(
            match_id=match.pk, now=match.started_at + timedelta(seconds=61)
        )
        match.refresh_from_db()
        stamps = {"claim:difficult": 8.0, "check": 10.1}
        for step in MatchAction.objects.filter(match=match).order_by("version"):
            at = stamps.get(step.action_id, 60.0)
            step.created_at = match.started_at + timedelta(seconds=at)
            step.save(update_fields=["created_at"])
        return match

    match = arena.server_side(play)
    assert match.status == "finished"
    page = me.page
    page.goto(f"/matches/{match.public_id}/replay/")
    panel = page.locator("#analysis-panel")
    panel.get_by_role("button", name="Analyse this game").click()
    page.wait_for_url(f"**/matches/{match.public_id}/replay/")
    review = panel.locator("[data-role='analysis-review']")
    expect(review).to_be_visible(timeout=90_000)
    expect(panel.locator("[data-role='analysis-status']")).to_contain_text(
        "Claim and trade review"
    )
    stored = arena.server_side(lambda: MatchAnalysis.objects.get(match=match).result)
    assert stored["kind"] == "review"
    review_ = stored["review"]
    assert review_["summary"]["1"]["missed_claims"] >= 1
    rows = review.locator("[data-role='analysis-summary'] tr")
    expect(rows).to_have_count(5)
    # Player, missed claims, wrong claims, trades away: seat 0's wrong claim,
    # seat 1's missed ones (others may miss too: the face-up cards are dealt).
    name = re.compile(".+")
    for seat in range(4):
        counts = review_["summary"][str(seat)]
        want = [str(counts[k]) for k in ("missed_claims", "wrong_claims")]
        expect(rows.nth(seat + 1).locator("td")).to_have_text([name, *want, "0"])
    assert review_["summary"]["0"]["wrong_claims"] == 1
    missed = len(review_["missed_claims"])
    moments = review.locator("ul.analysis-moments li")
    expect(moments).to_have_count(missed + 1)
    # Seat 1's last the whole game; a face-up card seat 0's hand happens to fill
    # counts until its own claim at 8 s.
    held = re.compile(r"for \d+\.\d s and never did")
    for i in range(missed):
        expect(moments.nth(i)).to_contain_text(held)
    expect(moments.nth(missed)).to_contain_text("was wrong")
    expect(moments.nth(missed)).to_contain_text("10.1 s")  # when the table checked
    # No search of a real-time game: no graph, no per-step menu.
    expect(panel.locator("svg.analysis-graph")).to_have_count(0)
