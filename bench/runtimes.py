"""Benchmark of the bot runtimes: start-up, round trip, matches per second.

Run with no arguments (``python bench/runtimes.py``; a few minutes). For each
runtime (Python, JavaScript, C, C++, WebAssembly) it stores the Duelo random
example as the server does, builds it (the compiled ones, in the sandbox),
and measures through the real sandbox:

``spawn_ms``            median of start to the answer to ``hello`` (process,
                        sandbox, interpreter or runtime start-up);
``rtt_median_us``       median round trip of one ``act`` and its answer;
``matches_per_s``       complete local Duelo matches between two copies of
                        the bot on this one worker (play_local_match: both
                        sandboxes started, every move exchanged; no database);
``vs_python``           matches_per_s over Python's (target: JavaScript and
                        WebAssembly >= 0.5, i.e. within 2x);
``cpu_ms_per_match``    CPU time of the bots' processes per match (both seats,
                        sandbox included: the launcher's reaped children), a
                        figure the machine's load moves far less than wall time;
``vs_python_cpu``       Python's cpu_ms_per_match over the runtime's.

JavaScript also gets ``compile_cache``: the median CPU of one start with and
without the compile cache stored at validation, for the example and for an
800 KB generated bundle (``bundle_cpu_ms``).

WebAssembly also gets, in this process with the host's own engine settings:
``instantiate_ms`` (deserialize the precompiled module and instantiate it
with WASI; target < 20 ms) and ``fuel_per_ms`` (a tight loop run to the end
of its fuel: the fuel-to-time ratio of this machine). The last stdout line
is one JSON object.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SPAWNS = 15
ROUND_TRIPS = 300
MATCHES = 30
EXAMPLES = ROOT / "bots" / "examples"
SOURCES = {
    "python": ("main.py", EXAMPLES / "duelo_random.py"),
    "javascript": ("main.js", EXAMPLES / "duelo_random.js"),
    "c": ("main.c", EXAMPLES / "duelo_random_wasm.c"),
    "cpp": ("main.cpp", EXAMPLES / "duelo_random.cpp"),
    "wasm": ("main.wasm", EXAMPLES / "duelo_random_wasm.c"),
}


def stage(tmp: Path, runtime: str, config) -> Path:
    from bots.runtimes import build_bot
    from bots.runtimes.toolchain import compile_wasm
    from bots.storage import write_bot_tree

    entry, source = SOURCES[runtime]
    data = source.read_bytes()
    if runtime == "wasm":
        compile_wasm(source, tmp / "example.wasm", include=ROOT / "bots" / "sdk")
        data = (tmp / "example.wasm").read_bytes()
    target = tmp / runtime
    write_bot_tree({entry: data}, target, read_only=True)
    build_bot(target, config=config, allow_unsandboxed=False)
    return target


def launcher_children_cpu() -> float:
    """CPU seconds of every sandbox the launcher has reaped (cutime + cstime)."""
    from bots.sandbox.launcher import default_launcher

    proc = default_launcher()._proc
    if proc is None:
        return 0.0
    with open(f"/proc/{proc.pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def start_cpu_ms(bot_dir: Path, config, runs: int = 15) -> float:
    """Median CPU of one start to the answer to ``hello`` (sandbox included)."""
    from bots.protocol.transport import BotProcess, TimeControl

    tc = TimeControl(startup=10, per_move=5, bank=10)
    hello = {"type": "hello", "protocol": 1, "game": "duelo", "seat": 0}
    cpu = []
    for _ in range(runs):
        before = launcher_children_cpu()
        with BotProcess.start(bot_dir, config=config, time_control=tc) as bot:
            bot.handshake(hello)
        cpu.append(launcher_children_cpu() - before)
    return round(statistics.median(cpu) * 1000, 1)


def bundle_source(functions: int = 6000) -> bytes:
    """main.js of an ~800 KB generated bundle (the example's choice, plus a
    library of small functions a big bot would ship)."""
    lines = ['"use strict";']
    for i in range(functions):
        lines.append(
            f"function f{i}(a, b) {{ let s = 0; for (let k = 0; k < a; k++) "
            f"{{ s += (k * {i}) % (b + 1); }} return s + {i}; }}"
        )
    lines.append('const kungfu_bot = require("./kungfu_bot.js");')
    lines.append(
        "kungfu_bot.run((turn) => turn.legal_ids[(f1(3, 4) + f2(2, 3)) %"
        " turn.legal_ids.length]);"
    )
    return "\n".join(lines).encode()


def compile_cache_effect(tmp: Path, config) -> dict[str, float]:
    """JavaScript start CPU with and without the stored compile cache."""
    from bots.runtimes import build_bot
    from bots.runtimes.javascript import CACHE_DIR
    from bots.storage import write_bot_tree

    result: dict[str, float] = {}
    sources = {
        "example": (EXAMPLES / "duelo_random.js").read_bytes(),
        "bundle": bundle_source(),
    }
    for label, source in sources.items():
        cached, plain = tmp / f"js-{label}-cached", tmp / f"js-{label}-plain"
        for target in (cached, plain):
            write_bot_tree({"main.js": source}, target, read_only=True)
        build_bot(cached, config=config, allow_unsandboxed=False)
        assert (cached / ".build" / CACHE_DIR).is_dir(), "no compile cache stored"
        with_cache, without = [], []
        for _ in range(3):  # interleaved, so the load hits both alike
            with_cache.append(start_cpu_ms(cached, config, runs=7))
            without.append(start_cpu_ms(plain, config, runs=7))
        result[f"{label}_cpu_ms_cached"] = statistics.median(with_cache)
        result[f"{label}_cpu_ms_uncached"] = statistics.median(without)
    result["bundle_bytes"] = len(sources["bundle"])
    return result


def measure(bot_dir: Path, config) -> dict[str, float]:
    from bots.protocol.match import Agent, ProcessAgent, play_local_match
    from bots.protocol.transport import BotProcess, TimeControl
    from gameplay.rules import get_game

    tc = TimeControl(startup=10, per_move=5, bank=10)
    hello = {"type": "hello", "protocol": 1, "game": "duelo", "seat": 0}
    spawns = []
    for _ in range(SPAWNS):
        started = time.perf_counter()
        with BotProcess.start(bot_dir, config=config, time_control=tc) as bot:
            bot.handshake(hello)
            spawns.append(time.perf_counter() - started)
    act = {
        "type": "act",
        "step": 1,
        "observation": {},
        "events": [],
        "legal": [{"id": f"a{i}", "label": "x"} for i in range(8)],
        "deadline_ms": 1000,
    }
    trips = []
    with BotProcess.start(bot_dir, config=config, time_control=tc) as bot:
        bot.handshake(hello)
        for step in range(ROUND_TRIPS):
            act["step"] = step + 1
            started = time.perf_counter()
            bot.request(act)
            trips.append(time.perf_counter() - started)
    game = get_game("duelo")
    started = time.perf_counter()
    cpu_before = launcher_children_cpu()
    for number in range(MATCHES):
        agents: dict[int, Agent] = {
            seat: ProcessAgent(
                bot_dir, seat=seat, label=f"s{seat}", config=config, time_control=tc
            )
            for seat in (0, 1)
        }
        outcome = play_local_match(game=game, config={}, seed=number, agents=agents)
        assert not any(log.fault for log in outcome.logs), outcome.logs
    elapsed = time.perf_counter() - started
    cpu = launcher_children_cpu() - cpu_before
    return {
        "spawn_ms": round(statistics.median(spawns) * 1000, 1),
        "rtt_median_us": round(statistics.median(trips) * 1e6, 1),
        "matches_per_s": round(MATCHES / elapsed, 2),
        "cpu_ms_per_match": round(cpu * 1000 / MATCHES, 1),
    }


def wasm_inproc(bot_dir: Path) -> dict[str, float]:
    """Instantiate time and the fuel-to-time ratio, with the host's settings."""
    import wasmtime

    from bots.runtimes import wasm

    config = wasmtime.Config()
    config.consume_fuel = True
    config.memory_reservation = 0
    config.memory_guard_size = 0
    config.memory_reservation_for_growth = 1 << 20
    config.parallel_compilation = False
    config.max_wasm_stack = 1 << 20
    engine = wasmtime.Engine(config)
    compiled = str(bot_dir / ".build" / wasm.COMPILED)
    times = []
    for _ in range(20):
        started = time.perf_counter()
        module = wasmtime.Module.deserialize_file(engine, compiled)
        store = wasmtime.Store(engine)
        store.set_limits(memory_size=wasm.MEMORY_BYTES)
        wasi = wasmtime.WasiConfig()
        store.set_wasi(wasi)
        store.set_fuel(10**9)
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        linker.instantiate(store, module)
        times.append(time.perf_counter() - started)
    loop = wasmtime.Module(
        engine,
        wasmtime.wat2wasm(
            '(module (func (export "run") (local i32)'
            " (loop $l (local.set 0 (i32.add (local.get 0) (i32.const 1)))"
            " (br $l))))"
        ),
    )
    store = wasmtime.Store(engine)
    fuel = wasm.FUEL_PER_DECISION
    store.set_fuel(fuel)
    run = wasmtime.Instance(store, loop, []).exports(store)["run"]
    started = time.perf_counter()
    with contextlib.suppress(wasmtime.Trap):  # out of fuel: the point
        run(store)  # type: ignore[operator]
    spent = time.perf_counter() - started
    return {
        "instantiate_ms": round(statistics.median(times) * 1000, 2),
        "fuel_per_ms": round(fuel / (spent * 1000)),
        "decision_fuel_ms": round(spent * 1000, 1),
    }


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-runtimes-"))
    os.chmod(tmp, 0o755)
    try:
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
        import django

        django.setup()
        from bots import conf

        config = conf.sandbox_config()
        load_at_start = os.getloadavg()[0]
        results: dict[str, dict[str, float]] = {}
        for runtime in SOURCES:
            bot_dir = stage(tmp, runtime, config)
            results[runtime] = measure(bot_dir, config)
            if runtime == "wasm":
                results[runtime].update(wasm_inproc(bot_dir))
            print(runtime, results[runtime], file=sys.stderr)
        python = results["python"]["matches_per_s"]
        python_cpu = results["python"]["cpu_ms_per_match"]
        for row in results.values():
            row["vs_python"] = round(row["matches_per_s"] / python, 2)
            row["vs_python_cpu"] = round(python_cpu / row["cpu_ms_per_match"], 2)
        results["javascript"]["compile_cache"] = compile_cache_effect(tmp, config)  # type: ignore[assignment]
        print("compile cache", results["javascript"]["compile_cache"], file=sys.stderr)
        load = os.getloadavg()[0]
        load_start = f"{load_at_start:.1f}"
        summary = {
            "machine": f"{platform.machine()} {os.cpu_count()} cpus, "
            f"load {load_start} at the start, {load:.1f} at the end",
            "runtimes": results,
            "targets": {
                "javascript_vs_python": ">= 0.5",
                "wasm_vs_python": ">= 0.5",
                "wasm_instantiate_ms": "< 20",
            },
            "met": {
                "javascript_vs_python": results["javascript"]["vs_python"] >= 0.5,
                "wasm_vs_python": results["wasm"]["vs_python"] >= 0.5,
                "wasm_instantiate_ms": results["wasm"]["instantiate_ms"] < 20,
            },
        }
        print(json.dumps(summary))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
