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
import subprocess
import sys
import time
from pathlib import Path

from bots import connected, ladder
from gameplay.models import Match, MatchStatus

ROOT = Path(__file__).resolve().parents[2]


def _wait(check, *, timeout: float, message: str, process=None):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if process is not None and process.poll() is not None:
            raise AssertionError(f"connect.py exited early waiting for {message}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {message}")
        time.sleep(0.2)


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
            _wait(
                lambda: connected.bot_account_online(account_id=account.pk),
                timeout=30,
                message="the bot to come online",
                process=client,
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
