"""The zig toolchain from the pinned ``ziglang`` wheel, and its prepared libraries.

``zig cc`` / ``zig c++`` build the C library, libc++ and compiler-rt from
source the first time a target is used (minutes on a small machine) and keep
them in a writable cache. A bot's compile cannot be given a shared writable
cache (one bot could plant objects in another's build), nor minutes. So the
worker prepares the libraries once, outside any sandbox, from a fixed source
of ours (:func:`prepare`), and keeps the linker's inputs read-only in
``toolchain_dir()/<target>/``; a bot's compile in the sandbox then only
compiles its own source (``zig c++ -c``, with an empty cache in its tmpfs)
and links against those files (``zig ld.lld``).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from bots.sandbox.policy import SandboxError

from .base import readable_runtime_path

#: Static musl executables: no dependence on the worker's C library.
NATIVE_TARGET = "x86_64-linux-musl"
WASM_TARGET = "wasm32-wasi"
_WARM_CPP = b"""#include <cstdio>
#include <string>
#include <vector>
#include <map>
#include <algorithm>
int main() { std::vector<std::string> v{"a"}; std::map<int, int> m{{1, 2}};
std::sort(v.begin(), v.end()); std::printf("%s %d\\n", v[0].c_str(), m[1]); }
"""
_WARM_C = b'#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n'


def zig_package() -> Path:
    try:
        import ziglang  # type: ignore[import-untyped]
    except ImportError as exc:
        raise SandboxError("C and C++ bots need the ziglang package") from exc
    return Path(readable_runtime_path(Path(ziglang.__file__).parent))


def zig_binary() -> str:
    return str(zig_package() / "zig")


def zig_version() -> str:
    from importlib.metadata import version

    return version("ziglang")


def toolchain_dir() -> Path:
    """Where prepared libraries live: ``BOT_TOOLCHAIN_DIR``, else a cache
    directory the sandbox's uids can read (root: /var/cache, others: ~/.cache)."""
    configured = os.environ.get("BOT_TOOLCHAIN_DIR")
    if configured:
        base = Path(configured)
    elif os.geteuid() == 0:
        base = Path("/var/cache/kungfu-arena/toolchains")
    else:
        base = Path.home() / ".cache" / "kungfu-arena" / "toolchains"
    return base / f"zig-{zig_version()}"


def zig_env(cache: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(cache),
        "ZIG_GLOBAL_CACHE_DIR": str(cache / "global"),
        "ZIG_LOCAL_CACHE_DIR": str(cache / "local"),
    }


def host_zig(args: list[str], *, cwd: Path, timeout: float = 900) -> str:
    """Run zig on the host with the toolchain's own cache (trusted input only:
    our warm-up sources, the test suite's examples); ``cwd`` holds the local
    cache, so every run links afresh."""
    cache = toolchain_dir() / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    env = zig_env(cache)
    env["ZIG_LOCAL_CACHE_DIR"] = str(cwd / ".zig-local")
    done = subprocess.run(
        [zig_binary(), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise SandboxError(f"zig {' '.join(args[:3])} failed: {done.stderr[-2000:]!r}")
    return done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")


def link_inputs(target: str = NATIVE_TARGET) -> dict[str, list[str]] | None:
    """The prepared link line for ``target`` (None when not prepared yet)."""
    manifest = toolchain_dir() / target / "link.json"
    try:
        found: dict[str, list[str]] = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return None
    if not _links_a_program(found):
        return None  # an earlier prepare kept a sub-build's line: redo it
    return found


def _links_a_program(manifest: dict[str, list[str]]) -> bool:
    """A program's link line: not a partial (``-r``) link, and with the C
    runtime's start file and libraries around the bot's objects."""
    flags = manifest.get("flags", [])
    libraries = manifest.get("before", []) + manifest.get("after", [])
    return "-r" not in flags and len(libraries) >= 2


def _program_link_line(log: str, *, program: str) -> str:
    """The ``ld.lld`` line that links ``program`` itself.

    ``zig c++ -v`` also prints the link lines of what it builds on the way
    (libc, libc++, compiler-rt), some of them partial links (``-r``), in an
    order that depends on its cache and on timing; the program's own line is
    the one whose output is ``program``.
    """
    for row in log.splitlines():
        argv = row.split()
        if not argv or argv[0] != "ld.lld" or "-r" in argv:
            continue
        outputs = [argv[k + 1] for k, arg in enumerate(argv[:-1]) if arg == "-o"]
        if outputs and os.path.basename(outputs[-1]) == program:
            return row.strip()
    return ""


def prepare(target: str = NATIVE_TARGET) -> dict[str, list[str]]:
    """Build the C/C++ runtime libraries for ``target`` once (idempotent).

    Compiles a fixed C++ program with ``zig c++ -v``, reads the linker line
    zig prints, and copies its inputs (crt1.o, libc++, libc++abi, libunwind,
    libc, compiler-rt) into ``toolchain_dir()/<target>/`` with the line's
    flags in ``link.json``. Takes minutes the first time; a lock keeps two
    workers from doing it together.
    """
    found = link_inputs(target)
    if found is not None:
        return found
    root = toolchain_dir()
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = link_inputs(target)
        if found is not None:
            return found
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            (work / "warm.cpp").write_bytes(_WARM_CPP)
            log = host_zig(
                ["c++", "-target", target, "-O2", "-v", "warm.cpp", "-o", "warm"],
                cwd=work,
            )
        line = _program_link_line(log, program="warm")
        if not line:
            raise SandboxError(f"zig printed no linker line for {target}")
        return _copy_link_inputs(line.split(), root / target, own=work)


def _copy_link_inputs(
    argv: list[str], dest: Path, *, own: Path
) -> dict[str, list[str]]:
    tmp = dest.with_name(dest.name + f".{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(mode=0o755, parents=True)
    flags: list[str] = []
    before: list[str] = []
    after: list[str] = []
    seen_object = False
    skip = False
    for arg in argv[1:]:
        if skip:
            skip = False
            continue
        if arg == "-o":
            skip = True
        elif (
            re.search(r"\.(o|a)$", arg)
            and os.path.isabs(arg)
            and not Path(arg).is_relative_to(own)
        ):
            name = os.path.basename(arg)
            shutil.copyfile(arg, tmp / name)
            os.chmod(tmp / name, 0o644)
            (after if seen_object else before).append(name)
        elif re.search(r"\.(o|a)$", arg):  # the program's own object: the bot's
            seen_object = True
        elif not arg.startswith("-L"):
            flags.append(arg)
    manifest = {"flags": flags, "before": before, "after": after}
    (tmp / "link.json").write_text(json.dumps(manifest))
    os.chmod(tmp / "link.json", 0o644)
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(tmp, dest)
    return manifest


def compile_wasm(source: Path, output: Path, *, include: Path) -> None:
    """Compile trusted C (our examples, the tests') to a wasm32-wasi module."""
    with tempfile.TemporaryDirectory() as tmp:
        host_zig(
            [
                "cc",
                "-target",
                WASM_TARGET,
                "-O2",
                "-s",
                "-I",
                str(include),
                str(source),
                "-o",
                str(output),
            ],
            cwd=Path(tmp),
        )


def prepare_all() -> None:
    """Everything ``make install`` prepares: the native libraries bots link
    against, and wasi-libc for compiling the WebAssembly examples."""
    prepare(NATIVE_TARGET)
    marker = toolchain_dir() / WASM_TARGET / "ready"
    if marker.exists():
        return
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "warm.c").write_bytes(_WARM_C)
        compile_wasm(Path(tmp) / "warm.c", Path(tmp) / "warm.wasm", include=Path(tmp))
    marker.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    marker.write_text("wasi-libc built\n")
