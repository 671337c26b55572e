"""Benchmark of the bot sandbox: start-up overhead and per-move round trip.

Run with no arguments (``python bench/bot_sandbox.py``); it takes well under two
minutes and prints, as its last stdout line, one JSON object with:

``spawn_overhead_ms``   median time from "start the bot" to its first answer in
                        the sandbox, minus the same for a plain subprocess running
                        the same interpreter and bot (target: at most 15 ms);
``move_rtt_median_us``  median of one request + answer through the sandbox with a
                        trivial echo bot (target: at most 50 µs).

It also reports ``cgroup_start_cost_ms`` (median start with the per-bot cgroup
minus without, 20 interleaved starts each) and the sandboxed start time while
the benchmark process holds 300 MB, as a Django worker does: it should match the
plain sandboxed start, because bwrap is forked by the small launcher, not by
the worker.

Both variants run the same interpreter with the same flags and the same bot, and
are measured alternately so machine noise hits both alike. The sandbox self-test
runs once before timing (a worker does it once at start-up, not per bot).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.protocol.transport import BotProcess, TimeControl
from bots.sandbox import SandboxConfig, sandbox_available

ECHO_BOT = """\
import sys
readline, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
while line := readline():
    write(line)
    flush()
"""

SPAWN_SAMPLES = 40
BALLAST_MB = 300
RTT_WARMUP = 500
RTT_SAMPLES = 5000
HELLO = {"type": "hello", "game": "duelo", "seat": 0}


def plain_start(config: SandboxConfig, bot_dir: Path) -> float:
    """Seconds from spawn to first answer for a plain, unsandboxed subprocess."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [config.interpreter, *config.interpreter_args, str(bot_dir / "main.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write(json.dumps(HELLO).encode() + b"\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - started
    assert json.loads(line) == HELLO
    proc.stdin.close()
    proc.wait()
    proc.stdout.close()
    return elapsed


def sandboxed_start(config: SandboxConfig, bot_dir: Path) -> tuple[float, float]:
    """(seconds to first answer, seconds to close) for a sandboxed bot."""
    started = time.perf_counter()
    bot = BotProcess.start(bot_dir, config=config, time_control=TimeControl())
    answer = bot.handshake(HELLO)
    elapsed = time.perf_counter() - started
    assert answer == HELLO
    closing = time.perf_counter()
    bot.close()
    return elapsed, time.perf_counter() - closing


def move_rtts(config: SandboxConfig, bot_dir: Path) -> list[float]:
    """Round-trip times (seconds) of small requests to a sandboxed echo bot."""
    message = {"type": "act", "legal": [0, 1, 2, 3], "deadline_ms": 1000}
    samples = []
    with BotProcess.start(bot_dir, config=config) as bot:
        bot.handshake(HELLO)
        for i in range(RTT_WARMUP + RTT_SAMPLES):
            started = time.perf_counter()
            bot.request(message)
            if i >= RTT_WARMUP:
                samples.append(time.perf_counter() - started)
    return samples


def main() -> None:
    config = SandboxConfig()
    status = sandbox_available(config)
    if not status.ok:
        print(json.dumps({"error": f"sandbox unavailable: {status.reason}"}))
        sys.exit(1)
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        bot_dir = Path(tmp) / "echo"
        bot_dir.mkdir()
        (bot_dir / "main.py").write_text(ECHO_BOT)
        os.chmod(tmp, 0o755)
        os.chmod(bot_dir, 0o755)

        for _ in range(3):  # warm page cache and code paths
            plain_start(config, bot_dir)
            sandboxed_start(config, bot_dir)
        plain, sandboxed, closes = [], [], []
        for _ in range(SPAWN_SAMPLES):
            plain.append(plain_start(config, bot_dir))
            first, close = sandboxed_start(config, bot_dir)
            sandboxed.append(first)
            closes.append(close)
        rtts = move_rtts(config, bot_dir)
        # A real worker (Django, Celery) holds far more memory than this script;
        # bwrap is forked by the small launcher, so that must not matter.
        ballast = bytearray(BALLAST_MB * 1024 * 1024)
        for offset in range(0, len(ballast), 4096):
            ballast[offset] = 1
        heavy = [sandboxed_start(config, bot_dir)[0] for _ in range(20)]
        del ballast
        # What the per-bot cgroup costs a start: interleaved with and without.
        no_cgroup = SandboxConfig(use_cgroups=False)
        sandbox_available(no_cgroup)
        with_cg, without_cg = [], []
        for _ in range(20):
            with_cg.append(sandboxed_start(config, bot_dir)[0])
            without_cg.append(sandboxed_start(no_cgroup, bot_dir)[0])

    plain_ms = statistics.median(plain) * 1000
    sandboxed_ms = statistics.median(sandboxed) * 1000
    overhead_ms = sandboxed_ms - plain_ms
    rtt_us = statistics.median(rtts) * 1e6
    print(f"plain start-to-first-answer      median {plain_ms:7.2f} ms")
    print(f"sandboxed start-to-first-answer  median {sandboxed_ms:7.2f} ms")
    heavy_ms = statistics.median(heavy) * 1000
    print(f"  same, worker holding {BALLAST_MB} MB     median {heavy_ms:7.2f} ms")
    close_ms = statistics.median(closes) * 1000
    print(f"sandbox close (kill + reap)      median {close_ms:7.2f} ms")
    print(
        f"move round trip                  median {rtt_us:7.1f} us, "
        f"p99 {sorted(rtts)[int(len(rtts) * 0.99)] * 1e6:.1f} us"
    )
    cgroup_ms = (statistics.median(with_cg) - statistics.median(without_cg)) * 1000
    print(f"per-bot cgroup ({status.cgroups}) start cost median {cgroup_ms:5.2f} ms")
    result = {
        "spawn_overhead_ms": round(overhead_ms, 2),
        "cgroup_start_cost_ms": round(cgroup_ms, 2),
        "cgroups": status.cgroups,
        "load_1min": round(os.getloadavg()[0], 2),
        "move_rtt_median_us": round(rtt_us, 1),
        "sandboxed_start_ms": round(sandboxed_ms, 2),
        "plain_start_ms": round(plain_ms, 2),
        "sandboxed_start_300mb_worker_ms": round(heavy_ms, 2),
        "close_ms": round(close_ms, 2),
        "move_rtt_p99_us": round(sorted(rtts)[int(len(rtts) * 0.99)] * 1e6, 1),
        "spawn_samples": SPAWN_SAMPLES,
        "rtt_samples": RTT_SAMPLES,
        "targets": {"spawn_overhead_ms": 15, "move_rtt_median_us": 50},
        "met": {
            "spawn_overhead_ms": overhead_ms <= 15,
            "move_rtt_median_us": rtt_us <= 50,
        },
        "bwrap": status.bwrap_version,
        "per_slot_uid": status.per_slot_uid,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
