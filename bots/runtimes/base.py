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

import dataclasses
import os
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


def readable_runtime_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a real path, refused unless the sandbox's uid can read it.

    A root worker runs bots as unprivileged slot uids: a runtime installed
    under a 0700 directory (a virtualenv in /root) would fail inside the
    sandbox with a confusing "permission denied"; this says what to fix.
    """
    real = os.path.realpath(path)
    if not os.path.exists(real):
        raise SandboxError(f"runtime file {real} is missing")
    if os.geteuid() == 0:
        current = real
        while current != "/":
            mode = os.stat(current).st_mode
            need = 0o005 if os.path.isdir(current) or current != real else 0o004
            if mode & need != need:
                raise SandboxError(
                    f"runtime file {real} is not readable by the sandbox's uids "
                    f"({current} is mode {mode & 0o777:o}); install the runtime "
                    "wheel where other users can read it"
                )
            current = os.path.dirname(current)
    return real


class Runtime:
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

    def command(self, config: SandboxConfig) -> list[str]:
        """The command run inside the sandbox (``config`` from sandbox_config)."""
        raise NotImplementedError

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
