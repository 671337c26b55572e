"""Bot-vs-bot simulation: strength checks for the built-in bots and seat balance.

``python -m gameplay.rules simulate --game duelo --players 4 --games 10000
--bots ismcts,heuristic,random,random --seed 1`` plays the games (optionally on
several processes), shows a progress bar on stderr and prints one JSON summary on
stdout.

Counting rules, so that the numbers add up:

* A win shared by k players counts 1/k of a win for each of them, so per game the
  win shares sum to exactly 1 and seat win rates sum to 100%. The number of games
  with a shared win is reported separately (``shared_win_games``).
* With ``--rotate`` (the default) game g seats the line-up shifted by g places:
  seat s plays bot ``bots[(s + g) % players]``. Over a multiple of ``players``
  games every bot sits in every seat equally often, so per-seat rates measure the
  seats and per-bot rates measure the bots.
* A bot name listed several times is one entry in ``bots_summary``; its rate is its
  win share per seat it occupied (so with two random bots the rate is per random
  seat, comparable to a single bot's rate).
* Confidence intervals are 95% Wilson score intervals over those seat-games.

Every game's seed and every decision's seed derive from ``--seed`` alone, so a run
gives the same summary (apart from timing) for any ``--workers``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from typing import Any

from gameplay.rules import GameError, available_games, get_game
from gameplay.rules.bots import available_bots, decision_context, get_bot
from gameplay.rules.rng import MASK64, _mix

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (accepts fractional shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def derive_seed(*parts: int) -> int:
    """A 63-bit seed mixed from integers (SplitMix64, stable on every machine)."""
    h = 0x243F6A8885A308D3
    for p in parts:
        h = _mix((h ^ (p & MASK64)) + 0x9E3779B97F4A7C15 & MASK64)
    return h >> 1


def parse_bot_options(
    items: Sequence[str], bots: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """``["ismcts.iterations=200"]`` -> ``{"ismcts": {"iterations": 200}}``.

    Values are read as JSON when they parse (numbers, true/false), else as text.
    """
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        bot, dot, opt = key.partition(".")
        if not sep or not dot or not bot or not opt:
            raise ValueError(f"bot option {item!r} must look like BOT.OPTION=VALUE")
        if bot not in bots:
            raise ValueError(f"bot option {item!r} names bot {bot!r}, not in --bots")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out.setdefault(bot, {})[opt] = value
    return out


def play_game(
    game_id: str,
    players: int,
    lineup: Sequence[str],
    bot_options: dict[str, dict[str, Any]],
    game_seed: int,
    config: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play one game; ``lineup[s]`` names the bot in seat s. Returns its record."""
    game = get_game(game_id)
    bots = {name: get_bot(name, **bot_options.get(name, {})) for name in set(lineup)}
    state = game.setup({**(config or {}), "players": players}, game_seed)
    steps = 0
    if getattr(game, "realtime", False):
        # Real time: every seat may act at once; the virtual clock decides.
        from gameplay.rules.ticks import run

        match = run(game, state, [bots[name] for name in lineup], game_seed)
        state, steps = match.state, len(match.log)
    while not game.is_over(state):
        seat = game.actors(state)[0]
        ids = game.legal_action_ids(state, seat)
        if len(ids) == 1:
            action = ids[0]  # a forced move needs no bot (and no observation)
        else:
            ctx = decision_context(game, state, seat, derive_seed(game_seed, steps))
            action = bots[lineup[seat]].choose(ctx)
        state, _ = game.apply(state, seat, action)
        steps += 1
    result = game.result(state)
    assert result is not None, "the loop above plays the game to its end"
    public = game.observe(state, None)
    return {
        "winners": list(result["winners"]),
        "steps": steps,
        "turns": public.get("turns"),
        "lineup": list(lineup),
    }


def _lineup(bots: Sequence[str], g: int, rotate: bool) -> list[str]:
    n = len(bots)
    return [bots[(s + g) % n] for s in range(n)] if rotate else list(bots)


# One game for a worker: game id, players, bots, bot options, seed, rotate, the
# game's number and its config (a plain tuple, so it pickles cheaply).
_Job = tuple[
    str,
    int,
    list[str],
    dict[str, dict[str, Any]],
    int,
    bool,
    int,
    dict[str, Any] | None,
]


def _work(job: _Job) -> dict[str, Any]:
    game_id, players, bots, options, seed, rotate, g, config = job
    return play_game(
        game_id,
        players,
        _lineup(bots, g, rotate),
        options,
        derive_seed(seed, g),
        config,
    )


def simulate(
    game_id: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    rotate: bool = True,
    workers: int = 1,
    bot_options: dict[str, dict[str, Any]] | None = None,
    config: dict[str, Any] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games and summarise them (see the module docstring)."""
    options = bot_options or {}
    jobs: list[_Job] = [
        (game_id, players, list(bots), options, seed, rotate, g, config)
        for g in range(games)
    ]
    records: list[dict[str, Any]] = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", file=sys.stderr, dynamic_ncols=True)
    start = time.perf_counter()
    if workers > 1:
        ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else None)
        with ctx.Pool(workers) as pool:
            # Small chunks keep the progress bar moving for slow (search) bots;
            # large runs of fast bots still amortize the inter-process traffic.
            chunk = max(1, min(20, games // (workers * 50)))
            for rec in pool.imap(_work, jobs, chunksize=chunk):
                records.append(rec)
                if bar:
                    bar.update()
    else:
        for job in jobs:
            records.append(_work(job))
            if bar:
                bar.update()
    elapsed = time.perf_counter() - start
    if bar:
        bar.close()
    return summarise(
        game_id, players, bots, seed, rotate, workers, options, records, elapsed
    )


def summarise(
    game_id: str,
    players: int,
    bots: Sequence[str],
    seed: int,
    rotate: bool,
    workers: int,
    options: dict[str, dict[str, Any]],
    records: list[dict[str, Any]],
    elapsed: float,
) -> dict[str, Any]:
    """The JSON summary for a list of game records."""
    games = len(records)
    seat_wins = [0.0] * players
    bot_wins: dict[str, float] = dict.fromkeys(bots, 0.0)
    bot_seats: dict[str, int] = dict.fromkeys(bots, 0)
    shared = 0
    no_winner = 0
    for rec in records:
        winners = rec["winners"]
        if len(winners) > 1:
            shared += 1
        if not winners:
            no_winner += 1
            share = 0.0
        else:
            share = 1.0 / len(winners)
        for name in rec["lineup"]:
            bot_seats[name] += 1
        for w in winners:
            seat_wins[w] += share
            bot_wins[rec["lineup"][w]] += share

    def entry(wins: float, n: int) -> dict[str, Any]:
        lo, hi = wilson(wins, n)
        return {
            "wins": round(wins, 4),
            "games": n,
            "win_rate": round(wins / n, 4) if n else None,
            "ci95": [round(lo, 4), round(hi, 4)],
        }

    turns = [r["turns"] for r in records if r["turns"] is not None]
    return {
        "game": game_id,
        "players": players,
        "bots": list(bots),
        "bot_options": options,
        "rotate": rotate,
        "seed": seed,
        "workers": workers,
        "games": games,
        "elapsed_s": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 3) if elapsed > 0 else None,
        "mean_steps": round(sum(r["steps"] for r in records) / games, 3),
        "mean_turns": round(sum(turns) / len(turns), 3) if turns else None,
        "shared_win_games": shared,
        "no_winner_games": no_winner,
        "shared_win_rule": "a win shared by k players counts 1/k for each",
        "seats": [{"seat": s, **entry(seat_wins[s], games)} for s in range(players)],
        "bots_summary": {
            name: {
                "seats_played": bot_seats[name],
                **entry(bot_wins[name], bot_seats[name]),
            }
            for name in dict.fromkeys(bots)
        },
    }


def build_parser(prog: str = "python -m gameplay.rules") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="Tools for the pure-Python game engines."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = sub.add_parser(
        "simulate",
        help="play bot-vs-bot games and print a JSON summary",
        description="Play bot-vs-bot games; progress on stderr, JSON on stdout.",
    )
    sim.add_argument(
        "--game", required=True, help=f"one of: {', '.join(available_games())}"
    )
    sim.add_argument("--players", type=int, required=True, help="seats per game")
    sim.add_argument("--games", type=int, default=100, help="number of games (>= 1)")
    sim.add_argument(
        "--bots",
        required=True,
        help=f"comma-separated bot per seat, from: {', '.join(available_bots())}",
    )
    sim.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    sim.add_argument(
        "--rotate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="rotate the line-up one seat per game (default: on)",
    )
    sim.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    sim.add_argument(
        "--bot-option",
        action="append",
        default=[],
        metavar="BOT.OPTION=VALUE",
        help="option for one bot, e.g. ismcts.iterations=200 (repeatable)",
    )
    sim.add_argument(
        "--config",
        default="{}",
        help="extra game options as JSON, e.g. '{\"reshuffle_discard\": true}'",
    )
    sim.add_argument(
        "--no-progress", action="store_true", help="do not draw the progress bar"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m gameplay.rules``; argparse exits 2 on bad input."""
    parser = build_parser()
    args = parser.parse_args(argv)
    sim = parser._subparsers._group_actions[0].choices["simulate"]  # type: ignore[union-attr,index]
    try:
        game = get_game(args.game)
    except GameError as exc:
        sim.error(str(exc))
    if not game.min_players <= args.players <= game.max_players:
        sim.error(
            f"--players must be from {game.min_players} to {game.max_players} "
            f"for {args.game}, got {args.players}"
        )
    if args.games < 1:
        sim.error(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        sim.error(f"--workers must be at least 1, got {args.workers}")
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != args.players:
        sim.error(
            f"--bots lists {len(bots)} bot(s) but --players is {args.players}; "
            "give one bot per seat"
        )
    try:
        options = parse_bot_options(args.bot_option, bots)
        for name in dict.fromkeys(bots):
            get_bot(name, **options.get(name, {}))
    except ValueError as exc:
        sim.error(str(exc))
    try:
        config = json.loads(args.config)
        if not isinstance(config, dict):
            raise ValueError("--config must be a JSON object")
        config = {**config, "players": args.players}
        game.validate_config(config)
    except (ValueError, GameError) as exc:
        sim.error(f"bad --config: {exc}")
    summary = simulate(
        args.game,
        args.players,
        bots,
        args.games,
        args.seed,
        rotate=args.rotate,
        workers=args.workers,
        bot_options=options,
        config=config,
        progress=not args.no_progress,
    )
    print(json.dumps(summary, indent=2))
    return 0
