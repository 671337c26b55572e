"""``manage.py botmatch``: same checks, sandbox and protocol as the server."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from bots.localmatch import OpponentStats
from bots.management.commands import botmatch
from bots.sandbox import SandboxStatus
from tests.bots.botsrc import CRASHER, FIRST_LEGAL

EXAMPLES = Path(__file__).resolve().parents[2] / "bots" / "examples"


def run(*args: str) -> dict:
    out = StringIO()
    call_command("botmatch", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.sandbox
def test_examples_play_builtins_and_each_other():
    summary = run(
        str(EXAMPLES / "duelo_heuristic.py"),
        "--vs",
        f"random,{EXAMPLES / 'duelo_random.py'}",
        "--games",
        "4",
        "--seed",
        "7",
    )
    assert summary["sandboxed"] and summary["seed"] == 7
    rows = {row["opponent"]: row for row in summary["results"]}
    assert rows["random"]["games"] == 4
    assert all(row["faults"] == {} for row in rows.values())
    assert all(row["mean_decision_ms"] > 0 for row in rows.values())
    assert all(0 <= row["wins"] <= 4 for row in rows.values())


@pytest.mark.sandbox
def test_faults_are_counted_by_reason(tmp_path):
    bot = tmp_path / "crash.py"
    bot.write_bytes(CRASHER)
    summary = run(str(bot), "--vs", "random", "--games", "2", "--players", "3")
    row = summary["results"][0]
    assert row["faults"] == {"crash": 2}
    assert row["mean_placement"] == 3.0


def test_refuses_without_sandbox(tmp_path, monkeypatch, settings):
    settings.BOT_SANDBOX_ALLOW_UNSANDBOXED = False
    monkeypatch.setattr(
        botmatch,
        "sandbox_available",
        lambda config: SandboxStatus(ok=False, reason="bubblewrap not found"),
    )
    bot = tmp_path / "bot.py"
    bot.write_bytes(FIRST_LEGAL)
    with pytest.raises(CommandError, match="bubblewrap not found") as info:
        call_command("botmatch", str(bot))
    assert "BOT_SANDBOX_ALLOW_UNSANDBOXED" in str(info.value)


def test_refuses_what_the_server_would_refuse(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_bytes(b"def (:\n")
    with pytest.raises(CommandError, match=r"the server would refuse it: .*syntax"):
        call_command("botmatch", str(bot))
    with pytest.raises(CommandError, match="unknown opponent 'nobody'"):
        bot.write_bytes(FIRST_LEGAL)
        call_command("botmatch", str(bot), "--vs", "nobody")


def test_wilson_interval_and_placement_interval():
    stats = OpponentStats(opponent="x", placements=[1] * 7 + [2] * 3)
    rate, low, high = stats.win_rate_ci()
    assert rate == 0.7
    assert low == pytest.approx(0.3968, abs=1e-3)
    assert high == pytest.approx(0.8922, abs=1e-3)
    mean, half = stats.placement_ci()
    assert mean == 1.3 and half == pytest.approx(0.3003, abs=1e-3)


@pytest.mark.parametrize("kind", ["file", "directory"])
def test_refuses_symlinks_in_a_bot_folder(tmp_path, kind):
    """A folder is checked as an upload is: links are refused, never followed
    (a link to a root-only file or the project's .env must not be copied into
    the sandbox, let alone printed in a fault's stderr tail)."""
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "env").write_text("SECRET_KEY=do-not-print\n")
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_bytes(FIRST_LEGAL)
    if kind == "file":
        (bot / "data.txt").symlink_to(secret / "env")
    else:
        (bot / "lib").symlink_to(secret)
    with pytest.raises(CommandError, match="symbolic link"):
        run(str(bot), "--vs", "random", "--games", "1")


@pytest.mark.sandbox
def test_kungfu2013_example_plays_builtins_game_taken_from_its_declaration():
    summary = run(
        str(EXAMPLES / "kungfu2013_heuristic.py"),
        "--vs",
        "random",
        "--games",
        "4",
        "--seed",
        "3",
    )
    assert summary["game"] == "kungfu2013"
    row = summary["results"][0]
    assert row["games"] == 4 and row["faults"] == {}


@pytest.mark.sandbox
def test_kungfu2019_example_plays_through_the_sandbox():
    summary = run(
        str(EXAMPLES / "kungfu2019_greedy.py"),
        "--vs",
        "random",
        "--games",
        "2",
        "--seed",
        "11",
    )
    assert summary["game"] == "kungfu2019"  # from the example's GAME
    row = summary["results"][0]
    assert row["games"] == 2 and row["faults"] == {}
    assert row["mean_decision_ms"] > 0
