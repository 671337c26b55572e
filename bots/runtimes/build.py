"""Running a build step (a compiler) in the sandbox, with a deadline and caps.

A compiler given hostile source is hostile code too: a template or macro bomb
can run for minutes, eat memory or emit gigabytes. So a build runs exactly
like a bot (same namespaces, uid, seccomp, rlimits, cgroup), with its own
wall-clock deadline, its output read from stdout up to a cap (the compiled
program is written there, never to a host path), and its stderr kept, bounded,
for the owner's page. Everything it writes inside goes to the size-capped
tmpfs home, so an object-file bomb ends in ENOSPC.
"""

from __future__ import annotations

import os
import select
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bots.sandbox import (
    SandboxConfig,
    describe_exit,
    sandbox_available,
    spawn_sandboxed,
    spawn_unsandboxed,
)

from .base import BUILD_DIR, BuildError

#: The compiler's messages kept for the owner (the newest bytes are dropped
#: past it, with a note: the first errors are the useful ones).
STDERR_KEEP = 32 * 1024


@dataclass(frozen=True)
class BuildRun:
    returncode: int
    output: bytes
    stderr: str
    seconds: float


def run_build(
    config: SandboxConfig,
    *,
    base_config: SandboxConfig,
    bot_dir: Path,
    command: Sequence[str],
    timeout_s: float,
    max_output: int,
    allow_unsandboxed: bool,
) -> BuildRun:
    """Run ``command`` over the bot's tree; its stdout is the build's product.

    Raises :class:`BuildError` when the deadline passes or the product is
    over ``max_output`` (the process is killed at once in both cases).
    """
    # The self-test's verdict is per base configuration (the runtime's binds
    # and limits on top do not change what it verified).
    if sandbox_available(base_config).ok:
        process = spawn_sandboxed(config, bot_dir=bot_dir, command=command)
    elif allow_unsandboxed:
        process = spawn_unsandboxed(config, bot_dir=bot_dir, command=command)
    else:
        raise BuildError("the sandbox is not available here, so nothing is built")
    started = time.monotonic()
    deadline = started + timeout_s
    popen = process.popen
    assert popen.stdin and popen.stdout and popen.stderr
    popen.stdin.close()
    out, err = bytearray(), bytearray()
    dropped = 0
    fds = {popen.stdout.fileno(): out, popen.stderr.fileno(): err}
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    failure = ""
    try:
        while fds:
            left = deadline - time.monotonic()
            if left <= 0:
                failure = f"the build took longer than {timeout_s:g} s and was stopped"
                break
            for fd, _event in poller.poll(left * 1000):
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    poller.unregister(fd)
                    del fds[fd]
                    continue
                buffer = fds[fd]
                if buffer is err:
                    room = STDERR_KEEP - len(err)
                    err += chunk[: max(room, 0)]
                    dropped += max(len(chunk) - max(room, 0), 0)
                else:
                    out += chunk
                    if len(out) > max_output:
                        failure = (
                            f"the build's output passed {max_output // 2**20} MiB "
                            "and was stopped"
                        )
                        break
            if failure:
                break
        if not failure:
            remaining = max(deadline - time.monotonic(), 0.1)
            while popen.poll() is None and time.monotonic() - started < timeout_s + 1:
                time.sleep(min(0.01, remaining))
    finally:
        rc = process.kill()
    stderr = err.decode("utf-8", errors="replace")
    if dropped:
        stderr += f"\n[{dropped} more bytes of compiler output not kept]"
    if failure:
        raise BuildError(failure, output=stderr)
    return BuildRun(
        returncode=rc,
        output=bytes(out),
        stderr=stderr,
        seconds=time.monotonic() - started,
    )


def store_product(bot_dir: Path, name: str, data: bytes, *, executable: bool) -> None:
    """Write a build's product into ``bot_dir/.build/`` (a stored version is
    read-only: its directory is opened for the write and closed again)."""
    build = bot_dir / BUILD_DIR
    modes = {bot_dir: bot_dir.stat().st_mode & 0o7777}
    os.chmod(bot_dir, 0o755)
    try:
        build.mkdir(mode=0o755, exist_ok=True)
        os.chmod(build, 0o755)
        target = build / name
        tmp = build / f".{name}.{os.getpid()}"
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o555 if executable else 0o444)
        os.replace(tmp, target)
        os.chmod(build, modes[bot_dir] & 0o555 or 0o555)
    finally:
        os.chmod(bot_dir, modes[bot_dir])


def describe(run: BuildRun) -> str:
    return f"{describe_exit(run.returncode)} after {run.seconds:.1f} s"


def store_tree(bot_dir: Path, name: str, files: dict[str, bytes]) -> None:
    """Write a build's product of several files (``files``: relative POSIX
    paths, already checked) as ``bot_dir/.build/<name>/`` (read-only, like
    the rest of a stored version); a previous one is replaced."""
    build = bot_dir / BUILD_DIR
    modes = {bot_dir: bot_dir.stat().st_mode & 0o7777}
    os.chmod(bot_dir, 0o755)
    try:
        build.mkdir(mode=0o755, exist_ok=True)
        os.chmod(build, 0o755)
        target = build / name
        tmp = build / f".{name}.{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        for relative, data in files.items():
            path = tmp / relative
            path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            path.write_bytes(data)
            path.chmod(0o444)
        tmp.mkdir(mode=0o755, exist_ok=True)
        for directory in [tmp, *(p for p in tmp.rglob("*") if p.is_dir())]:
            directory.chmod(0o555)
        if target.exists():
            _make_writable(target)
            shutil.rmtree(target)
        os.replace(tmp, target)
        os.chmod(build, modes[bot_dir] & 0o555 or 0o555)
    finally:
        os.chmod(bot_dir, modes[bot_dir])


def _make_writable(tree: Path) -> None:
    for directory in [tree, *(p for p in tree.rglob("*") if p.is_dir())]:
        directory.chmod(0o755)
