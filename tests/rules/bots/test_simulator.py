"""The simulator: summary arithmetic, the CLI's JSON and its usage errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.rules.simulate import (
    derive_seed,
    parse_bot_options,
    simulate,
    summarise,
    wilson,
)

ROOT = Path(__file__).resolve().parents[3]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gameplay.rules", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = wilson(80, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.7112, 0.8666)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_seeds_are_stable_and_spread() -> None:
    assert derive_seed(1, 2) == derive_seed(1, 2)
    assert len({derive_seed(1, g) for g in range(1000)}) == 1000
    assert 0 <= derive_seed(5, 7) < 2**63


def test_shared_wins_count_one_share_each_and_rates_sum_to_one() -> None:
    records = [
        {"winners": [0], "steps": 10, "turns": 3, "lineup": ["a", "b"]},
        {"winners": [0, 1], "steps": 20, "turns": 5, "lineup": ["b", "a"]},
    ]
    s = summarise("duelo", 2, ["a", "b"], 1, True, 1, {}, records, 1.0)
    assert s["shared_win_games"] == 1
    assert [x["wins"] for x in s["seats"]] == [1.5, 0.5]
    assert s["bots_summary"]["a"]["wins"] == 1.5
    assert s["bots_summary"]["b"]["wins"] == 0.5
    assert s["mean_steps"] == 15 and s["mean_turns"] == 4


def test_rotation_gives_every_bot_every_seat() -> None:
    s = simulate("duelo", 3, ["heuristic", "random", "random"], 6, seed=2)
    assert s["bots_summary"]["heuristic"]["seats_played"] == 6
    assert s["bots_summary"]["random"]["seats_played"] == 12
    total = sum(x["wins"] for x in s["seats"])
    assert total == pytest.approx(6 - s["no_winner_games"])


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    args = ("duelo", 2, ["heuristic", "random"], 12)
    one = simulate(*args, seed=4, workers=1)
    two = simulate(*args, seed=4, workers=2)
    for key in ("seats", "bots_summary", "mean_steps", "shared_win_games"):
        assert one[key] == two[key]


def test_parse_bot_options() -> None:
    got = parse_bot_options(["ismcts.iterations=20", "ismcts.variant=so"], ["ismcts"])
    assert got == {"ismcts": {"iterations": 20, "variant": "so"}}
    with pytest.raises(ValueError, match=r"BOT\.OPTION=VALUE"):
        parse_bot_options(["iterations=20"], ["ismcts"])
    with pytest.raises(ValueError, match="not in --bots"):
        parse_bot_options(["ismcts.iterations=20"], ["random"])


def test_cli_prints_a_json_summary_and_a_progress_bar() -> None:
    proc = cli(
        "simulate",
        "--game",
        "duelo",
        "--players",
        "3",
        "--games",
        "6",
        "--bots",
        "ismcts,heuristic,random",
        "--seed",
        "1",
        "--bot-option",
        "ismcts.iterations=5",
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["games"] == 6
    assert summary["games_per_s"] > 0
    assert summary["mean_steps"] > 0 and summary["mean_turns"] > 0
    assert summary["bot_options"] == {"ismcts": {"iterations": 5}}
    assert [s["seat"] for s in summary["seats"]] == [0, 1, 2]
    for entry in [*summary["seats"], *summary["bots_summary"].values()]:
        lo, hi = entry["ci95"]
        assert 0 <= lo <= entry["win_rate"] <= hi <= 1
    assert set(summary["bots_summary"]) == {"ismcts", "heuristic", "random"}
    assert "6/6" in proc.stderr  # tqdm's bar went to stderr, not into the JSON


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--game", "chess", "--players", "2", "--bots", "random,random"],
            "unknown game 'chess'",
        ),
        (
            ["--game", "duelo", "--players", "2", "--bots", "random,minimax"],
            "unknown bot 'minimax'",
        ),
        (
            ["--game", "duelo", "--players", "3", "--bots", "random,random"],
            "lists 2 bot",
        ),
        (
            ["--game", "duelo", "--players", "9", "--bots", ",".join(["random"] * 9)],
            "--players must be from 2 to 8",
        ),
        (
            ["--game", "duelo", "--players", "1", "--bots", "random"],
            "--players must be from 2 to 8",
        ),
        (
            [
                "--game",
                "duelo",
                "--players",
                "2",
                "--bots",
                "random,random",
                "--games",
                "0",
            ],
            "--games must be at least 1",
        ),
        (
            [
                "--game",
                "duelo",
                "--players",
                "2",
                "--bots",
                "random,random",
                "--workers",
                "0",
            ],
            "--workers must be at least 1",
        ),
        (
            [
                "--game",
                "duelo",
                "--players",
                "2",
                "--bots",
                "ismcts,random",
                "--bot-option",
                "ismcts.depth=3",
            ],
            "unknown option",
        ),
        (
            [
                "--game",
                "duelo",
                "--players",
                "2",
                "--bots",
                "random,random",
                "--config",
                '{"rounds": 99}',
            ],
            "bad --config",
        ),
        (
            ["--game", "duelo", "--players", "two", "--bots", "random,random"],
            "invalid int value",
        ),
    ],
)
def test_cli_rejects_bad_arguments_with_usage_and_exit_2(
    args: list[str], message: str
) -> None:
    proc = cli("simulate", *args, "--no-progress")
    assert proc.returncode == 2
    assert "usage:" in proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_cli_without_a_command_is_a_usage_error() -> None:
    proc = cli()
    assert proc.returncode == 2
    assert "usage:" in proc.stderr
