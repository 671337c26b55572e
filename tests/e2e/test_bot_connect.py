"""A bot on the author's machine plays through the bot API with connect.py.

Everything real: uvicorn serving the streams, a Celery worker driving the
built-in anchor, and ``bots/sdk/connect.py`` running an unchanged example
bot (``bots/examples/duelo_random.py``, the one that is uploaded elsewhere)
as a child process. The bot comes online by opening its event stream, the
ladder seats it against the anchors, and it plays its games to the end.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from bots import connected, ladder
from bots.models import BotAccount
from gameplay.models import Match, MatchStatus
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


def _exited_early(process: subprocess.Popen, message: str):
    """``wait_until``'s ``between``: stop waiting once connect.py has exited."""

    def check() -> None:
        if process.poll() is not None:
            raise AssertionError(f"connect.py exited early waiting for {message}")

    return check


def test_connect_plays_an_unchanged_bot_on_the_ladder_to_the_end(
    e2e_server, django_db_blocker
) -> None:
    from accounts import services

    with django_db_blocker.unblock():
        stamp = f"{os.getpid() % 10000}x{time.monotonic_ns() % 100000}"
        owner = services.user_create(
            username=f"author{stamp}", email=f"a{stamp}@example.test", password="x"
        )
        issued = connected.bot_account_create(
            owner=owner, name=f"remote{stamp}", game="duelo"
        )
        account = issued.token.account
        env = {
            **os.environ,
            "KFA_BOT_TOKEN": issued.key,
            "PYTHONPATH": str(ROOT / "bots" / "sdk"),
        }
        client = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "bots" / "sdk" / "connect.py"),
                "--server",
                e2e_server.base_url,
                "--games",
                "1",
                "--json",
                "--",
                sys.executable,
                str(ROOT / "bots" / "examples" / "duelo_random.py"),
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            # Its event stream is open: the bot is online, and the ladder
            # seats it.
            wait_until(
                lambda: connected.bot_account_online(account_id=account.pk),
                timeout=30,
                message="the bot to come online",
                between=_exited_early(client, "the bot to come online"),
            )
            round_ = ladder.ladder_round_schedule(game="duelo", duplicate=False)
            assert round_ is not None, "this period's round was made already"
            games = list(Match.objects.filter(seats__user=account.user))
            # Each anchor meets it (bots uploaded by other tests may too).
            assert len(games) >= 1
            out, err = client.communicate(timeout=240)
        finally:
            if client.poll() is None:
                client.kill()
                client.communicate()
        assert client.returncode == 0, err
        [result] = json.loads(out)
        match = Match.objects.get(public_id=result["match"])
        assert match in games
        assert match.status == MatchStatus.FINISHED, match.end_reason
        seat = match.seats.get(user=account.user)
        assert result["placement"] == seat.placement
        assert seat.placement in (1, 2) and not seat.forfeited
        # The bot made every move of its seat itself, through the API: no
        # clock ran out, no bot took over.
        moves = match.actions.filter(seat=seat.number)
        assert moves.exists()
        assert set(moves.values_list("kind", flat=True)) == {"move"}


def _open_stream(base_url: str, key: str):
    request = urllib.request.Request(base_url + "/api/bot/stream/event")
    request.add_header("Authorization", f"Bearer {key}")
    response = urllib.request.urlopen(request, timeout=30)
    return response, json.loads(response.readline())


def test_connected_bot_pages_make_show_challenge_and_revoke(arena) -> None:
    from playwright.sync_api import expect

    author = arena.player()
    page = author.page
    name = arena.unique("conn")
    page.goto("/bots/")
    page.get_by_role("link", name="Connected bots").click()
    expect(page).to_have_url(re.compile(r"/bots/connected/$"))
    page.get_by_role("textbox", name="Name").fill(name)
    page.get_by_role("combobox", name="Game").select_option("duelo")
    page.get_by_role("button", name="Make the bot and its token").click()
    key = page.locator("[data-token]").inner_text().strip()
    assert key.startswith("kfb_")
    account = BotAccount.objects.get(user__username=name)
    assert account.owner_id == author.user.pk
    card = page.locator(f"[data-account='{name}']")
    expect(card.locator(".badge")).to_have_text("offline")

    # The token from the page opens the event stream: the bot is online.
    stream, hello = _open_stream(arena.base_url, key)
    try:
        assert hello["account"] == name and hello["online"] is True
        arena.wait_until(
            lambda: connected.bot_account_online(account_id=account.pk),
            message="the bot to be online",
        )
        page.goto("/bots/connected/")
        expect(page.locator(f"[data-account='{name}'] .badge")).to_have_text("online")
        # Anyone sees it among the game's bots online now and can challenge it;
        # the challenge reaches the bot on its stream.
        rival = arena.player()
        rival.page.goto("/bots/?game=duelo")
        rival.page.get_by_role("button", name=f"Challenge {name}").click()
        line = json.loads(stream.readline() or b"{}")
        while not line or line.get("type") != "challenge":
            line = json.loads(stream.readline() or b"{}")
        assert line["from"] == rival.user.username and line["game"] == "duelo"
    finally:
        stream.close()

    # Revoked on the page: the key opens nothing any more, and the page shows
    # no key again (only its prefix).
    page.goto("/bots/connected/")
    page.locator(f"[data-account='{name}']").get_by_role(
        "button", name="Revoke"
    ).click()
    expect(page.locator(f"[data-account='{name}'] .badge.warn")).to_have_text("revoked")
    assert key not in page.content()
    try:
        _open_stream(arena.base_url, key)
    except urllib.error.HTTPError as exc:
        assert exc.code == 401
    else:
        raise AssertionError("a revoked token opened the event stream")


def test_a_host_seats_a_connected_bot_from_the_table_form(arena) -> None:
    """The table page's "Seat a bot" menu offers the online connected bot; it
    takes the seat as its own account, connect.py plays its moves, and it
    sees the game end."""
    from playwright.sync_api import expect

    from gameplay import lobby
    from gameplay.rules import get_game
    from gameplay.services import match_act, match_resign

    author = arena.player()
    name = arena.unique("crane")
    issued = arena.server_side(
        connected.bot_account_create, owner=author.user, name=name, game="duelo"
    )
    account = issued.token.account
    client = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "bots" / "sdk" / "connect.py"),
            "--server",
            arena.base_url,
            "--games",
            "1",
            "--json",
            "--",
            sys.executable,
            str(ROOT / "bots" / "examples" / "duelo_random.py"),
        ],
        env={
            **os.environ,
            "KFA_BOT_TOKEN": issued.key,
            "PYTHONPATH": str(ROOT / "bots" / "sdk"),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(
            lambda: connected.bot_account_online(account_id=account.pk),
            timeout=30,
            message="the bot to come online",
            between=_exited_early(client, "the bot to come online"),
        )
        host = arena.player()
        table = arena.server_side(
            lobby.table_create, host=host.user, game="duelo", players=2
        )
        page = host.page
        page.goto(f"/matches/{table.public_id}/")
        menu = page.locator('select[name="bot"]')
        expect(menu.locator(f'option[value="connected:{name}"]')).to_have_count(1)
        menu.select_option(f"connected:{name}")
        page.get_by_role("button", name="Seat a bot").click()
        arena.wait_until(
            lambda: Match.objects.get(pk=table.pk).status == MatchStatus.ACTIVE,
            message="the full table to start",
        )
        # The page shows the bot in its seat (as its account: "<name> [bot]").
        expect(page.locator("main")).to_contain_text(f"{name} [bot]")
        match = Match.objects.get(pk=table.pk)
        seat = match.seats.get(user=account.user)
        assert seat.number == 1 and seat.agent == ""
        # The host plays its turns; the bot answers through connect.py.
        engine = get_game("duelo")

        def bot_moved() -> bool:
            current = Match.objects.get(pk=table.pk)
            if current.status != MatchStatus.ACTIVE:
                return True
            if current.actions.filter(seat=1, kind="move").exists():
                return True
            if 0 in engine.actors(current.state):
                legal = engine.legal_actions(current.state, 0)
                arena.server_side(
                    match_act,
                    match_id=current.pk,
                    user=host.user,
                    action_id=legal[0]["id"],
                )
            return False

        wait_until(
            bot_moved,
            timeout=60,
            message="the connected bot to move",
            between=_exited_early(client, "its move"),
        )
        arena.server_side(match_resign, match_id=table.pk, user=host.user)
        out, err = client.communicate(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
            client.communicate()
    assert client.returncode == 0, err
    [result] = json.loads(out)
    assert result["match"] == str(table.public_id) and result["placement"] == 1
    match = Match.objects.get(pk=table.pk)
    assert match.status == MatchStatus.FINISHED
    assert set(match.actions.filter(seat=1).values_list("kind", flat=True)) == {"move"}
