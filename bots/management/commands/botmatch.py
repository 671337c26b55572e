"""``manage.py botmatch bot.py --vs random,heuristic``: try a bot locally.

Runs the bot through the same upload checks, sandbox and protocol as the
server, against built-in bots or other bot files, and prints per opponent the
wins and placements (with 95% intervals), the bot's faults by reason and its
mean decision time.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from bots import conf
from bots.localmatch import load_bot, run_local_matches, staged_bots
from bots.runtimes import BuildError, runtime_for_suffix
from bots.sandbox import sandbox_available
from bots.uploads import UploadError
from gameplay.rules import GameError, available_games, get_game
from gameplay.rules.bots import available_bots


class Command(BaseCommand):
    help = (
        "Play a local bot file against built-in bots (or other bot files) through "
        "the server's sandbox and protocol, and summarise the results."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "bot",
            help="the bot: a source file (.py, .js, .c, .cpp, .wasm), a .zip or a "
            "directory",
        )
        parser.add_argument(
            "--game",
            default=None,
            choices=available_games(),
            help="default: the GAME the bot file declares, else the first game",
        )
        parser.add_argument(
            "--vs",
            default="random",
            help="comma-separated opponents: built-in bot names "
            f"({', '.join(available_bots())}) or paths to other bots",
        )
        parser.add_argument("--games", type=int, default=20, help="games per opponent")
        parser.add_argument(
            "--players",
            type=int,
            default=None,
            help="table size (opponent fills the rest); default: 2, or the "
            "game's smallest table",
        )
        parser.add_argument("--seed", type=int, default=None, help="first deal's seed")
        parser.add_argument("--json", action="store_true", help="print JSON only")

    def handle(self, *args: Any, **options: Any) -> None:
        game_id = options["game"] or _declared(Path(options["bot"]))
        game = get_game(game_id)
        players = options["players"] or max(2, game.min_players)
        if not game.min_players <= players <= game.max_players:
            raise CommandError(
                f"{game_id} is played by {game.min_players}-{game.max_players} players"
            )
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        bots = {"you": self._load(Path(options["bot"]), game_id)}
        opponents: dict[str, Any] = {}
        for name in filter(None, (n.strip() for n in options["vs"].split(","))):
            if name in available_bots():
                opponents[name] = name
            elif Path(name).exists():
                bots[name] = self._load(Path(name), game_id)
                opponents[name] = None
            else:
                raise CommandError(
                    f"unknown opponent {name!r}: not a built-in bot "
                    f"({', '.join(available_bots())}) nor a file"
                )
        if not opponents:
            raise CommandError("name at least one opponent with --vs")
        # The files first: what the server would refuse is refused even here.
        config = conf.sandbox_config()
        allow = conf.allow_unsandboxed()
        status = sandbox_available(config)
        if not status.ok and not allow:
            raise CommandError(
                "The bot sandbox is not available on this machine, so botmatch "
                f"refuses to run uploaded code: {status.reason}.\nInstall bubblewrap "
                "(apt-get install bubblewrap) or, on a development machine only, set "
                "BOT_SANDBOX_ALLOW_UNSANDBOXED=1 to run bots unprotected."
            )
        if not status.ok:
            self.stderr.write(
                self.style.WARNING(
                    f"WARNING: running bots WITHOUT the sandbox ({status.reason})."
                )
            )
        seed = options["seed"] if options["seed"] is not None else secrets.randbits(40)
        total = options["games"] * len(opponents)
        with contextlib.ExitStack() as stack:
            try:
                dirs = stack.enter_context(
                    staged_bots(bots, config=config, allow_unsandboxed=allow)
                )
            except BuildError as exc:
                raise CommandError(
                    f"{exc}: the server would refuse this version.\n{exc.output}"
                ) from exc
            for name in opponents:
                if opponents[name] is None:
                    opponents[name] = dirs[name]
            with tqdm(
                total=total, unit="game", disable=options["json"], desc="botmatch"
            ) as progress:
                results = run_local_matches(
                    game_id=game_id,
                    bot_dir=dirs["you"],
                    opponents=opponents,
                    games=options["games"],
                    players=players,
                    seed=seed,
                    config=config,
                    time_control=conf.time_control(),
                    allow_unsandboxed=allow,
                    on_game=progress.update,
                )
        summary = {
            "game": game_id,
            "seed": seed,
            "sandboxed": status.ok,
            "results": [stats.as_dict() for stats in results],
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary))
            return
        self._print(summary, results)

    def _load(self, path: Path, game_id: str) -> Any:
        if not path.exists():
            raise CommandError(f"{path} does not exist")
        try:
            return load_bot(path, game=game_id)
        except (UploadError, GameError) as exc:
            raise CommandError(f"{path}: the server would refuse it: {exc}") from exc

    def _print(self, summary: dict[str, Any], results: list[Any]) -> None:
        write = self.stdout.write
        write(
            f"\n{summary['game']}, first seed {summary['seed']}, "
            f"{'sandboxed' if summary['sandboxed'] else 'UNSANDBOXED'}\n"
        )
        width = max(16, *(len(row["opponent"]) + 2 for row in summary["results"]))
        header = (
            f"{'opponent':<{width}}{'games':>6}{'wins':>6}  {'win rate (95% CI)':<22}"
            f"{'mean place':>16}  {'faults':<24}{'ms/decision':>12}"
        )
        write(header)
        write("-" * len(header))
        for row in summary["results"]:
            low, high = row["win_rate_ci95"]
            rate = f"{row['win_rate']:>6.1%} [{low:.1%}, {high:.1%}]"
            place = f"{row['mean_placement']:.2f} ± {row['mean_placement_ci95']:.2f}"
            faults = ", ".join(f"{k} {v}" for k, v in sorted(row["faults"].items()))
            speed = row["mean_decision_ms"]
            write(
                f"{row['opponent']:<{width}}{row['games']:>6}{row['wins']:>6}  "
                f"{rate:<22}{place:>16}  {faults or 'none':<24}"
                f"{(f'{speed:.3f}' if speed is not None else '-'):>12}"
            )
        for stats in results:
            if stats.first_fault:
                write(f"\nFirst fault against {stats.opponent}: {stats.first_fault}")


def _declared(path: Path) -> str:
    """The game a single-file bot declares (``GAME = "<id>"``), else the first
    game of the registry: the command names no game itself."""
    runtime = runtime_for_suffix(path.name) if path.is_file() else None
    if runtime is not None:
        game = runtime.declared_game(path.read_bytes())
        if game in available_games():
            return game
    return available_games()[0]
