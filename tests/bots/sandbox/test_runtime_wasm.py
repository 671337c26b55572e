"""WebAssembly (WASI) bots under the wasmtime wheel, fuel-metered, sandboxed."""

from __future__ import annotations

import json
import time
from io import StringIO
from pathlib import Path

import pytest
import wasmtime
from django.core.management import call_command

from bots.protocol.transport import BotFault, BotProcess, TimeControl
from bots.runtimes import BUILD_DIR, build_bot, runtime_for_dir, wasm
from bots.runtimes.toolchain import compile_wasm
from bots.storage import write_bot_tree
from bots.uploads import UploadError, inspect_upload
from tests.bots.sandbox.conftest import needs_bwrap

pytestmark = [pytest.mark.sandbox, needs_bwrap]

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "bots" / "examples" / "duelo_random_wasm.c"
HELLO = {"type": "hello", "protocol": 1, "game": "duelo", "seat": 0, "players": 2}


@pytest.fixture(scope="module")
def example_wasm(tmp_path_factory) -> Path:
    """The C example compiled by zig to wasm32-wasi (as the docs tell authors)."""
    out = tmp_path_factory.mktemp("wasm") / "duelo_random.wasm"
    compile_wasm(EXAMPLE, out, include=ROOT / "bots" / "sdk")
    return out


def wasm_bot(tmp_path: Path, module: bytes, *, build: bool = True, config=None) -> Path:
    target = tmp_path / "wasmbot"
    write_bot_tree({"main.wasm": module}, target, read_only=True)
    if build:
        build_bot(target, config=config, allow_unsandboxed=False)
    return target


def test_example_plays_duelo_through_the_sandbox(example_wasm):
    out = StringIO()
    call_command(
        "botmatch",
        str(example_wasm),
        "--game",
        "duelo",
        "--vs",
        "random",
        "--games",
        "2",
        "--json",
        stdout=out,
    )
    summary = json.loads(out.getvalue())
    assert summary["sandboxed"]
    row = summary["results"][0]
    assert row["games"] == 2 and row["faults"] == {}


def test_build_precompiles_and_answers(tmp_path, sandbox_config, example_wasm):
    bot_dir = wasm_bot(tmp_path, example_wasm.read_bytes(), config=sandbox_config)
    assert runtime_for_dir(bot_dir).name == "wasm"
    assert (bot_dir / BUILD_DIR / wasm.COMPILED).stat().st_size > 0
    with BotProcess.start(bot_dir, config=sandbox_config) as bot:
        assert bot.handshake(HELLO) == {"ready": True}
        for step in (1, 2, 3):
            legal = [{"id": "a"}, {"id": "b"}, {"id": "c"}]
            answer = bot.request({"type": "act", "step": step, "legal": legal})
            assert answer["action"] in {"a", "b", "c"}


def test_upload_checks_the_module_header(example_wasm):
    bot = inspect_upload(
        filename="bot.wasm", data=example_wasm.read_bytes(), game="duelo"
    )
    assert bot.runtime == "wasm" and set(bot.files) == {"main.wasm"}
    with pytest.raises(UploadError, match="not a WebAssembly module"):
        inspect_upload(filename="bot.wasm", data=b"\x7fELF....", game="duelo")


# fd_read stands for "wait for the next request"; these modules read once and
# then misbehave.
READ_THEN = """
(module
  (import "wasi_snapshot_preview1" "fd_read"
    (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1)
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 64))
    (i32.store (i32.const 4) (i32.const 1024))
    (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)))
    %s))
"""


def test_infinite_loop_is_stopped_by_fuel(tmp_path, sandbox_config):
    module = wasmtime.wat2wasm(READ_THEN % "(loop $l (br $l))")
    bot_dir = wasm_bot(tmp_path, module, config=sandbox_config)
    started = time.monotonic()
    with (
        BotProcess.start(
            bot_dir,
            config=sandbox_config,
            time_control=TimeControl(startup=30, per_move=30, bank=0),
        ) as bot,
        pytest.raises(BotFault) as fault,
    ):
        bot.handshake(HELLO)
    # Fuel, not the 30 s wall clock, ended it: the budget is instructions.
    assert fault.value.reason == "timeout"
    assert "fuel" in fault.value.detail and "out of fuel" in fault.value.stderr
    assert time.monotonic() - started < 25


def test_loop_before_reading_is_stopped_too(tmp_path, sandbox_config):
    module = wasmtime.wat2wasm(
        '(module (memory (export "memory") 1)'
        ' (func (export "_start") (loop $l (br $l))))'
    )
    bot_dir = wasm_bot(tmp_path, module, config=sandbox_config)
    with (
        BotProcess.start(
            bot_dir,
            config=sandbox_config,
            time_control=TimeControl(startup=30, per_move=30, bank=0),
        ) as bot,
        pytest.raises(BotFault) as fault,
    ):
        bot.handshake(HELLO)
    assert fault.value.reason == "timeout"


def test_asking_for_4_gib_fails_to_instantiate(tmp_path, sandbox_config):
    module = wasmtime.wat2wasm(
        '(module (memory (export "memory") 65536) (func (export "_start")))'
    )
    bot_dir = wasm_bot(tmp_path, module, config=sandbox_config)
    with (
        BotProcess.start(bot_dir, config=sandbox_config) as bot,
        pytest.raises(BotFault) as fault,
    ):
        bot.handshake(HELLO)
    assert fault.value.reason == "crash"
    assert "memory" in fault.value.stderr


def test_growing_to_4_gib_is_refused(tmp_path, sandbox_config):
    # memory.grow by 65535 pages (4 GiB) must return -1: then exit 7.
    body = """
    (if (i32.eq (memory.grow (i32.const 65535)) (i32.const -1))
      (then (call $exit (i32.const 7))))
    (unreachable)"""
    module = wasmtime.wat2wasm(READ_THEN % body)
    bot_dir = wasm_bot(tmp_path, module, config=sandbox_config)
    with (
        BotProcess.start(bot_dir, config=sandbox_config) as bot,
        pytest.raises(BotFault) as fault,
    ):
        bot.handshake(HELLO)
    assert fault.value.reason == "crash" and "exit code 7" in fault.value.detail


def test_no_files_no_environment(tmp_path, sandbox_config):
    # path_open needs a preopened directory: there is none, so fd 3 is bad.
    body = """
    (i32.store (i32.const 200) (i32.const 0))
    (call $exit (call $prestat (i32.const 3) (i32.const 300)))"""
    module = wasmtime.wat2wasm(
        (READ_THEN % body).replace(
            '(memory (export "memory") 1)',
            '(import "wasi_snapshot_preview1" "fd_prestat_get"'
            " (func $prestat (param i32 i32) (result i32)))"
            ' (memory (export "memory") 1)',
        )
    )
    bot_dir = wasm_bot(tmp_path, module, config=sandbox_config)
    with (
        BotProcess.start(bot_dir, config=sandbox_config) as bot,
        pytest.raises(BotFault) as fault,
    ):
        bot.handshake(HELLO)
    assert "exit code 8" in fault.value.detail  # EBADF: no preopened directory


def test_a_bad_module_fails_its_build(tmp_path, sandbox_config):
    from bots.runtimes import BuildError

    broken = b"\0asm\x01\0\0\0\x01\xff\xff"
    with pytest.raises(BuildError, match="does not compile"):
        wasm_bot(tmp_path, broken, config=sandbox_config)


def test_no_network(tmp_path, sandbox_config):
    # WASI preview 1 can only accept on a socket the host preopened: none is,
    # so sock_accept on the first descriptor after stdio is EBADF (8).
    body = "(call $exit (call $accept (i32.const 3) (i32.const 0) (i32.const 300)))"
    module = wasmtime.wat2wasm(
        (READ_THEN % body).replace(
            '(memory (export "memory") 1)',
            '(import "wasi_snapshot_preview1" "sock_accept"'
            " (func $accept (param i32 i32 i32) (result i32)))"
            ' (memory (export "memory") 1)',
        )
    )
    bot_dir = wasm_bot(tmp_path, module, config=sandbox_config)
    with (
        BotProcess.start(bot_dir, config=sandbox_config) as bot,
        pytest.raises(BotFault) as fault,
    ):
        bot.handshake(HELLO)
    assert "exit code 8" in fault.value.detail
