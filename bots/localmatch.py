"""Local bot matches (``manage.py botmatch``): the server's rules on a laptop.

An author's bot goes through the same upload checks, the same on-disk layout
(with the SDK beside it), the same sandbox and the same protocol player as on
the server; only the match lives in memory instead of the database. Opponents
are built-in bots (in-process) or other bot files (sandboxed too).
"""

from __future__ import annotations

import io
import math
import os
import stat
import statistics
import tempfile
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bots.protocol.match import Agent, BuiltinAgent, ProcessAgent, play_local_match
from bots.protocol.transport import TimeControl
from bots.runtimes import build_bot
from bots.sandbox import SandboxConfig
from bots.storage import write_bot_tree
from bots.uploads import UnpackedBot, UploadError, inspect_upload
from gameplay.rules import get_game


def load_bot(path: Path, *, game: str) -> UnpackedBot:
    """Read a .py, a .zip or a directory and check it exactly as an upload.

    A directory is walked without following links, and any symbolic link or
    special file in it is refused, as the upload checks refuse them in a zip:
    following one would copy its target (a root-only file, the project's
    ``.env``) into the sandbox and perhaps into a fault's stderr tail.
    """
    if path.is_dir():
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for root, dirs, files in os.walk(path, followlinks=False):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for name in sorted(dirs + files):
                    entry = Path(root) / name
                    rel = entry.relative_to(path).as_posix()
                    mode = entry.lstat().st_mode
                    if stat.S_ISLNK(mode):
                        raise UploadError(
                            f"Refused {rel}: symbolic links are not allowed "
                            "(uploads refuse them too)."
                        )
                    if stat.S_ISREG(mode):
                        archive.write(entry, rel)
                    elif not stat.S_ISDIR(mode):
                        raise UploadError(
                            f"Refused {rel}: only regular files are allowed."
                        )
        return inspect_upload(
            filename=f"{path.name}.zip", data=buffer.getvalue(), game=game
        )
    return inspect_upload(filename=path.name, data=path.read_bytes(), game=game)


@contextmanager
def staged_bots(
    bots: dict[str, UnpackedBot],
    *,
    config: SandboxConfig | None = None,
    allow_unsandboxed: bool = False,
) -> Iterator[dict[str, Path]]:
    """Lay each bot out as the server stores it, in a temporary directory, and
    build the ones that are compiled (C, C++) as validation does, in the
    sandbox; a failed build raises :class:`~bots.runtimes.BuildError`."""
    with tempfile.TemporaryDirectory(prefix="botmatch-") as tmp:
        os.chmod(tmp, 0o755)  # the sandbox's slot uid must reach the code
        dirs = {}
        for index, (label, bot) in enumerate(bots.items()):
            target = Path(tmp) / f"bot{index}"
            write_bot_tree(bot.files, target, read_only=False)
            build_bot(
                target,
                config=config or SandboxConfig(),
                allow_unsandboxed=allow_unsandboxed,
            )
            dirs[label] = target
        yield dirs


@dataclass
class OpponentStats:
    """Results of the author's bot against one opponent."""

    opponent: str
    placements: list[int] = field(default_factory=list)
    players: int = 2
    faults: Counter[str] = field(default_factory=Counter)
    opponent_faults: Counter[str] = field(default_factory=Counter)
    decisions: int = 0
    think_s: float = 0.0
    first_fault: str = ""

    @property
    def games(self) -> int:
        return len(self.placements)

    @property
    def wins(self) -> int:
        return sum(1 for p in self.placements if p == 1)

    def win_rate_ci(self, z: float = 1.96) -> tuple[float, float, float]:
        """Win rate with its 95% Wilson score interval."""
        n = self.games
        if n == 0:
            return 0.0, 0.0, 0.0
        p = self.wins / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        return p, max(0.0, centre - half), min(1.0, centre + half)

    def placement_ci(self, z: float = 1.96) -> tuple[float, float]:
        """Mean placement and the half-width of its normal 95% interval."""
        if not self.placements:
            return 0.0, 0.0
        mean = statistics.fmean(self.placements)
        if len(self.placements) < 2:
            return mean, 0.0
        return mean, z * statistics.stdev(self.placements) / math.sqrt(
            len(self.placements)
        )

    @property
    def mean_decision_ms(self) -> float | None:
        return self.think_s * 1000 / self.decisions if self.decisions else None

    def as_dict(self) -> dict[str, object]:
        rate, low, high = self.win_rate_ci()
        mean, half = self.placement_ci()
        return {
            "opponent": self.opponent,
            "games": self.games,
            "players": self.players,
            "wins": self.wins,
            "win_rate": round(rate, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "mean_placement": round(mean, 3),
            "mean_placement_ci95": round(half, 3),
            "faults": dict(self.faults),
            "opponent_faults": dict(self.opponent_faults),
            "mean_decision_ms": (
                round(self.mean_decision_ms, 3)
                if self.mean_decision_ms is not None
                else None
            ),
        }


def run_local_matches(
    *,
    game_id: str,
    bot_dir: Path,
    opponents: dict[str, Path | str],
    games: int,
    players: int,
    seed: int,
    config: SandboxConfig,
    time_control: TimeControl,
    allow_unsandboxed: bool,
    on_game: Callable[[], object] | None = None,
) -> list[OpponentStats]:
    """Play ``games`` per opponent; the author's seat rotates every game.

    An opponent is a built-in bot name (a string) or a staged bot directory;
    the other seats of a bigger table are all copies of that opponent.
    """
    game = get_game(game_id)
    results = []
    for label, opponent in opponents.items():
        stats = OpponentStats(opponent=label, players=players)
        for number in range(games):
            match_seed = seed + number
            mine = number % players
            agents: dict[int, Agent] = {}
            for seat in range(players):
                if seat == mine:
                    agents[seat] = ProcessAgent(
                        bot_dir,
                        seat=seat,
                        label="you",
                        config=config,
                        time_control=time_control,
                        allow_unsandboxed=allow_unsandboxed,
                    )
                elif isinstance(opponent, str):
                    agents[seat] = BuiltinAgent(
                        opponent, seat=seat, match_seed=match_seed
                    )
                else:
                    agents[seat] = ProcessAgent(
                        opponent,
                        seat=seat,
                        label=label,
                        config=config,
                        time_control=time_control,
                        allow_unsandboxed=allow_unsandboxed,
                    )
            outcome = play_local_match(
                game=game, config={}, seed=match_seed, agents=agents
            )
            stats.placements.append(outcome.result["placements"][mine])
            for log in outcome.logs:
                if log.seat == mine:
                    stats.decisions += log.decisions
                    stats.think_s += log.think_s
                    if log.fault:
                        stats.faults[log.fault] += 1
                        if not stats.first_fault:
                            stats.first_fault = (
                                f"game {number + 1} (seat {mine}, seed "
                                f"{match_seed}): {log.fault} - {log.fault_detail}\n"
                                f"{log.stderr[-2000:]}"
                            )
                elif log.fault:
                    stats.opponent_faults[log.fault] += 1
            if on_game is not None:
                on_game()
        results.append(stats)
    return results
