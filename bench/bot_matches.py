"""Benchmark of bot matches: sandbox start-up, move round trip, matches per second.

Run with no arguments (``python bench/bot_matches.py``); it takes about a
minute and prints, as its last stdout line, one JSON object with:

``spawn_overhead_ms``   median start-to-first-answer of a sandboxed Python bot
                        minus the same for a plain subprocess (target <= 15 ms);
``move_rtt_median_us``  median of one request and answer through the sandbox
                        (target <= 50 us);
``matches_per_s``       complete Duelo matches between two uploaded Python bots
                        (the example bots, stored through the upload service),
                        played and recorded by ``bots.services.bot_match_play``
                        in this one process, the way a bots worker plays them:
                        both sandboxes started, every move exchanged, the match
                        written to the database with its logs (target >= 10).

The first two reuse the sandbox benchmark's measurements (``bench/bot_sandbox.py``)
with the interpreter flags the platform runs bots with. The match benchmark
uses a throw-away SQLite database and media directory, the in-memory channel
layer and cache (nobody watches; no Redis needed) and an in-memory Celery broker
(the rating tasks a finished match queues are other workers' work), so it
measures what a bots worker itself does.
"""

from __future__ import annotations

import importlib.util
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

MATCH_WARMUP = 5
MATCHES = 150
TARGETS = {"spawn_overhead_ms": 15, "move_rtt_median_us": 50, "matches_per_s": 10}


def _sandbox_bench():
    """``bench/bot_sandbox.py`` as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "bench_bot_sandbox", ROOT / "bench" / "bot_sandbox.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def setup_django(tmp: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:1/0")  # never contacted
    import django
    from django.conf import settings

    django.setup()
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    }
    settings.MEDIA_ROOT = str(tmp / "media")
    # What a finished match triggers elsewhere (ratings, tournaments) is queued
    # for other workers, as in production, not run inline as in eager tests.
    from config.celery import app

    app.conf.task_always_eager = False
    app.conf.update(broker_url="memory://", result_backend="cache+memory://")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def sandboxed_django(tmp: Path):
    """``setup_django``, then the sandbox's config and status when bots can run
    here; else the JSON error line and exit 1 (every bot benchmark's start)."""
    setup_django(tmp)
    from bots import conf
    from bots.sandbox import sandbox_available

    config = conf.sandbox_config()
    status = sandbox_available(config)
    if not status.ok:
        print(json.dumps({"error": f"sandbox unavailable: {status.reason}"}))
        sys.exit(1)
    return config, status


def active_bot(*, owner, game: str, name: str, filename: str, source: bytes):
    """An uploaded bot's version, made active at once: the benchmarks measure
    play, so the validation task is not queued and its verdict is set."""
    from bots import enqueue, services
    from bots.models import Bot, BotStatus, BotVersion, VersionStatus

    enqueue.validation = lambda version_id: None
    version = services.bot_create(
        owner=owner, game=game, name=name, filename=filename, data=source
    )
    BotVersion.objects.filter(pk=version.pk).update(status=VersionStatus.ACTIVE)
    Bot.objects.filter(pk=version.bot_id).update(
        status=BotStatus.ACTIVE, active_version=version
    )
    return version


def start_and_rtt(config) -> dict[str, float]:
    """Spawn overhead and move round trip, as the sandbox benchmark measures them."""
    bench = _sandbox_bench()
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        bot_dir = Path(tmp) / "echo"
        bot_dir.mkdir()
        (bot_dir / "main.py").write_text(bench.ECHO_BOT)
        os.chmod(tmp, 0o755)
        os.chmod(bot_dir, 0o755)
        for _ in range(3):
            bench.plain_start(config, bot_dir)
            bench.sandboxed_start(config, bot_dir)
        plain, sandboxed = [], []
        for _ in range(bench.SPAWN_SAMPLES):
            plain.append(bench.plain_start(config, bot_dir))
            sandboxed.append(bench.sandboxed_start(config, bot_dir)[0])
        rtts = bench.move_rtts(config, bot_dir)
    return {
        "plain_start_ms": statistics.median(plain) * 1000,
        "sandboxed_start_ms": statistics.median(sandboxed) * 1000,
        "spawn_overhead_ms": (statistics.median(sandboxed) - statistics.median(plain))
        * 1000,
        "move_rtt_median_us": statistics.median(rtts) * 1e6,
    }


def matches(count: int) -> dict[str, float]:
    """Play ``count`` recorded matches between the two example bots."""
    from bots import services
    from gameplay.models import Match
    from gameplay.services import SeatSpec, match_create
    from tests.factories import UserFactory

    author = UserFactory(username="bench-author")
    versions = []
    for name in ("duelo_heuristic", "duelo_random"):
        source = (ROOT / "bots" / "examples" / f"{name}.py").read_bytes()
        versions.append(
            active_bot(
                owner=author,
                game="duelo",
                name=name,
                filename=f"{name}.py",
                source=source,
            )
        )

    def one(index: int) -> Match:
        order = versions if index % 2 == 0 else versions[::-1]
        match = match_create(
            game="duelo",
            seats=[SeatSpec(agent=v.agent, label=str(v)) for v in order],
            config={},
            rated=False,
        )
        services.bot_match_play(match_id=match.pk)
        return match

    for index in range(MATCH_WARMUP):
        one(index)
    steps = faults = 0
    started = time.perf_counter()
    for index in range(count):
        match = one(index)
        match.refresh_from_db()
        steps += match.version
        faults += match.end_reason != "completed"
    elapsed = time.perf_counter() - started
    return {
        "matches_per_s": count / elapsed,
        "ms_per_match": elapsed / count * 1000,
        "moves_per_match": steps / count,
        "faulted_matches": faults,
    }


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-bot-matches-"))
    os.chmod(tmp, 0o755)
    try:
        config, status = sandboxed_django(tmp)
        spawn = start_and_rtt(config)
        played = matches(MATCHES)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"plain start to first answer     {spawn['plain_start_ms']:7.2f} ms median")
    print(
        f"sandboxed start to first answer {spawn['sandboxed_start_ms']:7.2f} ms median"
    )
    print(
        f"move round trip                 {spawn['move_rtt_median_us']:7.1f} us median"
    )
    print(
        f"recorded matches                {played['matches_per_s']:7.2f} /s "
        f"({played['ms_per_match']:.1f} ms each, {played['moves_per_match']:.1f} moves)"
    )
    result = {
        "spawn_overhead_ms": round(spawn["spawn_overhead_ms"], 2),
        "move_rtt_median_us": round(spawn["move_rtt_median_us"], 1),
        "matches_per_s": round(played["matches_per_s"], 2),
        "ms_per_match": round(played["ms_per_match"], 1),
        "moves_per_match": round(played["moves_per_match"], 1),
        "faulted_matches": played["faulted_matches"],
        "sandboxed_start_ms": round(spawn["sandboxed_start_ms"], 2),
        "plain_start_ms": round(spawn["plain_start_ms"], 2),
        "matches": MATCHES,
        "interpreter_args": list(config.interpreter_args),
        "targets": TARGETS,
        "met": {
            "spawn_overhead_ms": spawn["spawn_overhead_ms"] <= 15,
            "move_rtt_median_us": spawn["move_rtt_median_us"] <= 50,
            "matches_per_s": played["matches_per_s"] >= 10,
        },
        "bwrap": status.bwrap_version,
        "per_slot_uid": status.per_slot_uid,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
