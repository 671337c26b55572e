"""Compare our Swiss pairing with bbpPairings, the FIDE-endorsed Dutch engine.

bbpPairings is a C++ program, not a Python package, so it is not installed
with the project. Build it from its sources
(https://github.com/BieremaBoyzProgramming/bbpPairings, ``make``; v5.0.1
implements the Dutch rules in force until 31 January 2026 - the text py4swiss
implements -, v6.0.0 the rules in force since 1 February 2026) and run::

    BBP_PAIRINGS=/path/to/bbpPairings.exe \
        python -m tests.league.algorithms.fide_reference 500

Random events (8-40 players, 5-9 rounds, a third of the games drawn, 5% of
them forfeited): every round is paired by :func:`pair_swiss_round` and by the
reference from the very same TRF (our :func:`swiss_trf`), compared, and the
event continues along the reference's pairing. Prints a JSON summary.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from league.tournaments.formats.swiss import (
    SwissGame,
    SwissPairingError,
    pair_swiss_round,
    swiss_trf,
)


class ReferenceFailed(Exception):
    """The reference found no pairing (its exit code 1)."""


def reference_pairing(
    binary: str, trf: str, numbers: dict
) -> tuple[set[tuple], object | None]:
    """The reference's pairing of a TRF: ({(first, second)}, bye or None)."""
    by_number = {n: p for p, n in numbers.items()}
    with tempfile.TemporaryDirectory(prefix="bbp-") as tmp:
        src, out = Path(tmp) / "in.trf", Path(tmp) / "out.txt"
        src.write_text(trf, encoding="utf-8")
        done = subprocess.run(
            [binary, "--dutch", str(src), "-p", str(out)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if done.returncode == 1:
            raise ReferenceFailed(done.stdout + done.stderr)
        if done.returncode != 0:
            raise RuntimeError(f"bbpPairings failed: {done.stdout}{done.stderr}")
        lines = out.read_text().split("\n")[1:]
    pairs, bye = set(), None
    for line in lines:
        if not line.strip():
            continue
        white, black = (int(x) for x in line.split())
        if black == 0:
            bye = by_number[white]
        else:
            pairs.add((by_number[white], by_number[black]))
    return pairs, bye


def random_event(rnd: random.Random) -> tuple[int, int]:
    n = rnd.randint(8, 40)
    return n, rnd.randint(5, min(9, n - 1))


def play(rnd: random.Random, round_number: int, first, second) -> SwissGame:
    if second is None:
        return SwissGame(round_number, first, None, 1.0)
    roll = rnd.random()
    if roll < 0.05:
        return SwissGame(
            round_number, first, second, rnd.choice((1.0, 0.0)), forfeit=True
        )
    if roll < 0.05 + 0.95 / 3:
        return SwissGame(round_number, first, second, 0.5)
    return SwissGame(round_number, first, second, rnd.choice((1.0, 0.0)))


def compare(binary: str, events: int, seed: int = 2026) -> dict:
    """Pair ``events`` random events with both engines; counts per outcome."""
    rnd = random.Random(seed)
    kinds: Counter = Counter()
    by_round: Counter = Counter()
    same_by_round: Counter = Counter()
    times: list[float] = []
    examples: list[dict] = []
    for event in range(events):
        n, rounds = random_event(rnd)
        players = [f"e{i:03d}" for i in range(n)]
        history: list[SwissGame] = []
        for r in range(1, rounds + 1):
            trf, numbers = swiss_trf(players, history, total_rounds=rounds)
            start = time.perf_counter()
            try:
                mine = pair_swiss_round(players, history, total_rounds=rounds)
                mine_error = None
            except SwissPairingError as exc:
                mine, mine_error = [], exc
            times.append(time.perf_counter() - start)
            try:
                ref_pairs, ref_bye = reference_pairing(binary, trf, numbers)
            except ReferenceFailed:
                kinds["both fail" if mine_error else "only the reference fails"] += 1
                break
            by_round[r] += 1
            if mine_error:
                kinds["only ours fails"] += 1
                break
            pairs = {(p.first, p.second) for p in mine if not p.is_bye}
            bye = next((p.first for p in mine if p.is_bye), None)
            if pairs == ref_pairs and bye == ref_bye:
                kinds["identical"] += 1
                same_by_round[r] += 1
            elif {frozenset(p) for p in pairs} == {frozenset(p) for p in ref_pairs}:
                kinds["same pairs, other colours"] += 1
            else:
                kinds["different"] += 1
                if len(examples) < 5:
                    examples.append({"event": event, "round": r, "trf": trf})
            for white, black in sorted(ref_pairs):
                history.append(play(rnd, r, white, black))
            if ref_bye is not None:
                history.append(play(rnd, r, ref_bye, None))
    paired = sum(by_round.values())
    times.sort()
    return {
        "events": events,
        "rounds_compared": paired,
        "kinds": dict(kinds),
        "identical_share": kinds["identical"] / paired if paired else None,
        "identical_by_round": {
            r: f"{same_by_round[r]}/{by_round[r]}" for r in sorted(by_round)
        },
        "ours_seconds_median": times[len(times) // 2] if times else None,
        "ours_seconds_max": times[-1] if times else None,
        "examples": examples,
    }


def main() -> None:
    binary = os.environ.get("BBP_PAIRINGS")
    if not binary:
        sys.exit("set BBP_PAIRINGS to a bbpPairings executable")
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    report = compare(binary, events)
    report["reference"] = subprocess.run(
        [binary], capture_output=True, text=True, check=False
    ).stdout.strip()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
