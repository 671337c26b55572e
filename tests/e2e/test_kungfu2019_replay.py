"""Kung Fu (2019)'s replay in the browser: a finished 3-player match stepped
through on its replay page (hidden commits as face-down backs, then the revealed
plays, the dice of a fight, the HP after it), and an unfinished match whose
replay page and record stay closed and name none of the hidden cards.

Follows the replay checks of tests/e2e/test_csp.py and test_narrow_screens.py:
the match is played server side with the services (first legal moves: the
solver's ``auto`` in every fight), then the page is driven like a viewer does
(the slider, the step buttons, the arrow keys, the perspective menu). What each
step must show comes from the replay API's own steps, so any seed works.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gameplay.rules.kungfu2019.catalogue import catalogue

NAMES = {c["code"]: c["name"] for c in catalogue()["cards"]}
BOARD = "#kfa-board"


def _three_player_match(arena, users, *, finish: bool):
    from tests.gameplay.conftest import play_to_end, start_match

    def make():
        match = start_match(users, game="kungfu2019", config={"players": 3})
        if finish:
            play_to_end(match, users)
        match.refresh_from_db()
        return match

    return arena.server_side(make)


def _steps(arena, match, perspective: str) -> list[dict]:
    from gameplay import selectors

    return arena.server_side(
        selectors.match_replay, match=match, perspective=perspective
    )["steps"]


def _first(steps: list[dict], check) -> int:
    return next(i for i, step in enumerate(steps) if check(step["view"]))


def _go_to(page, index: int) -> None:
    """Drag the slider to ``index`` (an input event, as the range control sends)."""
    page.locator("[data-role='slider']").evaluate(
        "(el, i) => { el.value = String(i);"
        " el.dispatchEvent(new Event('input', { bubbles: true })); }",
        index,
    )
    expect(page.locator("[data-role='position']")).to_have_text(
        re.compile(rf"^Step {index} of ")
    )


def test_a_finished_kungfu2019_replay_steps_through_commits_dice_and_hp(arena):
    viewer = arena.player()
    others = [arena.create_user(), arena.create_user()]
    users = [viewer.user, *others]
    match = _three_player_match(arena, users, finish=True)
    assert match.status == "finished"
    steps = _steps(arena, match, "spectator")
    assert len(steps) == match.version + 1

    # Steps to look at, from what the spectator's observation held at each.
    def partly_committed(v):
        counts = (v["commits"] or {}).get("counts") or []
        return v["phase"] == "play" and 0 < sum(counts) < 3 * len(counts)

    commit_at = _first(steps, partly_committed)
    reveal_at = _first(steps, lambda v: any(v["played"]))
    dice_at = _first(
        steps,
        lambda v: (
            v["fight"]
            and all(v["fight"]["dice"][s] is not None for s in v["fight"]["fighters"])
        ),
    )
    # The first step after that fight's dice where someone's HP moved (damage,
    # a yin-yang, a technique's HP): nearly every game has one.
    before = steps[dice_at]["view"]["hp"]
    hp_at = next(
        (i for i in range(dice_at, len(steps)) if steps[i]["view"]["hp"] != before),
        len(steps) - 1,
    )
    assert commit_at < reveal_at <= dice_at <= hp_at  # the reveal rolls at once

    page = viewer.page
    page.goto(f"/matches/{match.public_id}/replay/")
    slider = page.locator("[data-role='slider']")
    expect(slider).to_have_attribute("max", str(len(steps) - 1))
    expect(page.locator("[data-role='position']")).to_have_text(
        f"Step 0 of {len(steps) - 1}"
    )
    page.locator("#replay-perspective").select_option("spectator")
    expect(page.locator("[data-role='loading']")).to_have_text("")
    board = page.locator(BOARD)

    # Step by step: the forward button, then the arrow key, one step each.
    page.locator("[data-nav='forward']").click()
    expect(page.locator("[data-role='position']")).to_have_text(re.compile("^Step 1 "))
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-role='position']")).to_have_text(re.compile("^Step 2 "))
    # The timeline: the step's server stamp from the start of the match.
    expect(page.locator("[data-role='position']")).to_have_text(
        re.compile(r"^Step 2 of \d+ · at \d+:\d\d\.\d{3}$")
    )
    expect(page.locator("[data-role='step-label']")).to_contain_text("Move 2")

    # Commits in: face-down backs and a count, no card of them, no play yet.
    _go_to(page, commit_at)
    view = steps[commit_at]["view"]
    for seat, count in enumerate(view["commits"]["counts"]):
        commits = board.locator(f"[data-role='commits-{seat}']")
        expect(commits).to_have_attribute("aria-label", f"Committed {count} of 3")
        expect(commits.locator(".kf19-back")).to_have_count(count)
        expect(commits.locator(".kf19-card-name")).to_have_count(0)
    expect(board.locator("[data-role^='played-']")).to_have_count(0)
    # The step's label does not say which card a seat committed.
    full = _steps(arena, match, "full")
    action = full[commit_at]["action_id"]
    assert action.startswith("play:")
    label = page.locator("[data-role='step-label']").inner_text()
    assert NAMES[action.removeprefix("play:")] not in label

    # The reveal: every seat's three cards, by name.
    _go_to(page, reveal_at)
    for seat, played in enumerate(steps[reveal_at]["view"]["played"]):
        if not played:
            continue
        cards = board.locator(f"[data-role='played-{seat}'] .kf19-card-name")
        expect(cards).to_have_text([NAMES[c] for c in played])

    # A fight: everyone's seven dice, as logged.
    _go_to(page, dice_at)
    fight = steps[dice_at]["view"]["fight"]
    expect(board.locator("[data-role='fight']")).to_be_visible()
    for seat in fight["fighters"]:
        shown = board.locator(f"[data-role='dice-{seat}'] .kf19-die")
        expect(shown).to_have_count(7)
        values = shown.evaluate_all("els => els.map(e => Number(e.dataset.value))")
        assert values == fight["dice"][seat], seat

    # HP after the first damage, then at the end of the game.
    _go_to(page, hp_at)
    for seat, hp in enumerate(steps[hp_at]["view"]["hp"]):
        expect(board.locator(f"[data-role='hp-{seat}']")).to_have_attribute(
            "aria-label", f"HP: {hp}"
        )
    page.locator("[data-nav='end']").click()
    final = steps[-1]["view"]["hp"]
    assert steps[-1]["view"]["phase"] == "over"
    for seat, hp in enumerate(final):
        expect(board.locator(f"[data-role='hp-{seat}']")).to_have_attribute(
            "aria-label", f"HP: {hp}"
        )
    expect(page.locator("[data-role='position']")).to_have_text(
        re.compile(rf"^Step {len(steps) - 1} of {len(steps) - 1} · at ")
    )
    # The full reveal names the commit the spectator's label kept back.
    page.locator("#replay-perspective").select_option("full")
    expect(page.locator("[data-role='loading']")).to_have_text("")
    _go_to(page, commit_at)
    expect(page.locator("[data-role='step-label']")).to_contain_text(
        NAMES[action.removeprefix("play:")]
    )


def test_an_unfinished_kungfu2019_match_has_no_replay_and_names_no_commit(arena):
    viewer = arena.player()
    others = [arena.create_user(), arena.create_user()]
    users = [viewer.user, *others]
    match = _three_player_match(arena, users, finish=False)

    def to_the_commits():
        """The draft played out, then the two other seats commit a card each."""
        from gameplay import services
        from gameplay.models import Match
        from gameplay.rules import get_game

        engine = get_game("kungfu2019")

        def act(m, seat) -> str:
            action = engine.legal_action_ids(m.state, seat)[0]
            services.match_act(
                match_id=m.pk,
                user=users[seat],
                action_id=action,
                expected_version=m.version,
            )
            return action

        for _ in range(100):
            m = Match.objects.get(pk=match.pk)
            if m.state["phase"] != "draft":
                break
            act(m, engine.actors(m.state)[0])
        committed = []
        for seat in (1, 2):
            m = Match.objects.get(pk=match.pk)
            assert m.state["phase"] == "play" and seat in engine.actors(m.state)
            committed.append(act(m, seat).removeprefix("play:"))
        m = Match.objects.get(pk=match.pk)
        hands = [engine.observe(m.state, seat)["hand"] for seat in (1, 2)]
        return m, committed, {code for hand in hands for code in hand}

    match, committed, other_hands = arena.server_side(to_the_commits)
    assert match.status == "active"
    hidden = set(committed) | other_hands

    page = viewer.page
    for url in (
        f"/matches/{match.public_id}/replay/",
        f"/api/matches/{match.public_id}/replay/",
        f"/api/matches/{match.public_id}/replay/?perspective=seat:1",
        f"/api/matches/{match.public_id}/replay/?perspective=spectator",
        f"/matches/{match.public_id}/record.json",
    ):
        response = page.goto(url)
        assert response.status == 409, url
        body = page.content()
        for code in hidden:
            assert f'"{code}"' not in body and NAMES[code] not in body, (url, code)
    # The live page shows the two commits as face-down backs, never as cards.
    page.goto(f"/matches/{match.public_id}/")
    board = page.locator(BOARD)
    for seat in (1, 2):
        commits = board.locator(f"[data-role='commits-{seat}']")
        expect(commits).to_have_attribute("aria-label", "Committed 1 of 3")
        section = board.locator(f"section[data-seat='{seat}']")
        text = section.inner_text()
        for code in hidden:
            assert NAMES[code] not in text, (seat, code)
