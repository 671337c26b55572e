"""C and C++ bots, compiled at validation by ``zig cc`` / ``zig c++``.

The compiler comes from the pinned ``ziglang`` wheel (no system gcc), runs
inside the sandbox like a bot (:mod:`.build`: deadline, output cap, memory and
process limits, its scratch files on the size-capped tmpfs) and writes the
static musl executable to its stdout, which the worker stores in
``.build/bot``. The C library, libc++ and compiler-rt it links against are
prepared once per worker from our own source (:mod:`.toolchain`) and bound
read-only. Compiler errors are the build's stderr, shown to the owner.

Every ``.c`` (C) or ``.cpp`` / ``.cc`` (C++) file of the upload is compiled,
with the upload's directory on the include path, so ``kungfu_bot.h`` (the
single-header SDK) and the author's own headers are found.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from bots.sandbox.policy import BOT_MOUNT, WORK_DIR, SandboxConfig

from .base import (
    BUILD_DIR,
    RUNTIME_MOUNT,
    BuildError,
    Runtime,
    with_binds,
)
from .build import describe, run_build, store_product
from .toolchain import NATIVE_TARGET, link_inputs, prepare, toolchain_dir, zig_package

SDK_H = Path(__file__).resolve().parent.parent / "sdk" / "kungfu_bot.h"
ZIG_MOUNT = f"{RUNTIME_MOUNT}/zig"
LIBS_MOUNT = f"{RUNTIME_MOUNT}/zig-libs"
BINARY = "bot"
#: A compile's wall-clock limit; a template or macro bomb is stopped here.
COMPILE_TIMEOUT_S = 90.0
#: Largest executable accepted from a compile (a bigger one is a bomb).
MAX_BINARY_BYTES = 32 * 2**20
#: The compiler's own memory: clang on a large C++ translation unit needs a
#: few hundred MiB; zig reserves more address space than it touches.
COMPILE_MEMORY = 1024 * 2**20
COMPILE_ADDRESS_SPACE = 8 * 2**30

_GAME = re.compile(rb'^\s*#\s*define\s+GAME\s+"([A-Za-z0-9_-]+)"', re.MULTILINE)


class NativeRuntime(Runtime):
    """Shared by C and C++: they differ in the driver and the file suffixes."""

    driver = ""
    source_suffixes: tuple[str, ...] = ()
    std = ""
    sdk_files = (SDK_H,)

    def declared_game(self, source: bytes) -> str | None:
        match = _GAME.search(source)
        return match.group(1).decode() if match else None

    def command(self, config: SandboxConfig) -> list[str]:
        return [f"{BOT_MOUNT}/{BUILD_DIR}/{BINARY}"]

    def compile_config(self, config: SandboxConfig) -> SandboxConfig:
        target = toolchain_dir() / NATIVE_TARGET
        return with_binds(
            config,
            (str(zig_package()), ZIG_MOUNT),
            (str(target), LIBS_MOUNT),
            env=(
                ("ZIG_GLOBAL_CACHE_DIR", f"{WORK_DIR}/.zig-global"),
                ("ZIG_LOCAL_CACHE_DIR", f"{WORK_DIR}/.zig-local"),
            ),
            memory_bytes=max(config.limits.memory_bytes, COMPILE_MEMORY),
            address_space_bytes=max(
                config.limits.address_space_bytes, COMPILE_ADDRESS_SPACE
            ),
            cpu_seconds=int(COMPILE_TIMEOUT_S),
        )

    def compile_script(self, sources: list[str], link: dict[str, list[str]]) -> str:
        zig = f"{ZIG_MOUNT}/zig"
        flags = " ".join(shlex.quote(str(f)) for f in link["flags"])
        before = " ".join(f"{LIBS_MOUNT}/{name}" for name in link["before"])
        after = " ".join(f"{LIBS_MOUNT}/{name}" for name in link["after"])
        objects = []
        lines = ["set -e", f"cd {WORK_DIR}"]
        for index, source in enumerate(sources):
            obj = f"{WORK_DIR}/o{index}.o"
            objects.append(obj)
            lines.append(
                f"{zig} {self.driver} -target {NATIVE_TARGET} {self.std} -O2 -c "
                f"-I {BOT_MOUNT} -fno-color-diagnostics "
                f"{shlex.quote(f'{BOT_MOUNT}/{source}')} -o {obj} >&2"
            )
        lines.append(
            f"{zig} ld.lld {flags} {before} {' '.join(objects)} {after} "
            f"-o {WORK_DIR}/{BINARY} >&2"
        )
        lines.append(f"exec cat {WORK_DIR}/{BINARY}")
        return "\n".join(lines)

    def build(
        self, bot_dir: Path, *, config: SandboxConfig, allow_unsandboxed: bool
    ) -> str:
        sources = sorted(
            str(path.relative_to(bot_dir))
            for path in bot_dir.rglob("*")
            if path.suffix in self.source_suffixes
            and path.relative_to(bot_dir).parts[0] != BUILD_DIR
            and path.is_file()
        )
        if allow_unsandboxed and link_inputs() is None:
            raise BuildError("C and C++ bots are compiled in the sandbox only")
        link = link_inputs() or prepare()
        run = run_build(
            self.compile_config(config),
            base_config=config,
            bot_dir=bot_dir,
            command=["/bin/sh", "-c", self.compile_script(sources, link)],
            timeout_s=COMPILE_TIMEOUT_S,
            max_output=MAX_BINARY_BYTES,
            allow_unsandboxed=False,
        )
        if run.returncode != 0 or not run.output.startswith(b"\x7fELF"):
            raise BuildError(
                f"{self.entrypoint} does not compile ({describe(run)})",
                output=run.stderr,
            )
        store_product(bot_dir, BINARY, run.output, executable=True)
        return f"compiled with zig {self.driver} ({describe(run)})\n{run.stderr}"

    def limits(self, config: SandboxConfig, *, per_move_s: float) -> list[str]:
        return [
            *super().limits(config, per_move_s=per_move_s),
            f"compiling: {COMPILE_TIMEOUT_S:g} s, an executable of at most "
            f"{MAX_BINARY_BYTES // 2**20} MiB",
        ]


class CRuntime(NativeRuntime):
    name = "c"
    label = "C (zig cc, C17, static musl)"
    entrypoint = "main.c"
    suffixes = (".c",)
    driver = "cc"
    source_suffixes = (".c",)
    std = "-std=c17"


class CppRuntime(NativeRuntime):
    name = "cpp"
    label = "C++ (zig c++, C++20, libc++, static musl)"
    entrypoint = "main.cpp"
    suffixes = (".cpp", ".cc")
    driver = "c++"
    source_suffixes = (".cpp", ".cc")
    std = "-std=c++20"
