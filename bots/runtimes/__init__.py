"""Bot runtimes: one module per language, one registry.

A version's runtime is the entry point its files hold (``main.py``,
``main.js``, ``main.c``, ``main.cpp``, ``main.wasm``); the platform stores no
other marker. Shared code asks this registry and never names a runtime.
"""

from __future__ import annotations

import os
from pathlib import Path

from bots.sandbox.policy import SandboxConfig

from .base import BUILD_DIR, BuildError, Runtime, UploadError
from .javascript import JavaScriptRuntime
from .native import CppRuntime, CRuntime
from .python import PythonRuntime
from .wasm import WasmRuntime

RUNTIMES: dict[str, Runtime] = {
    runtime.name: runtime
    for runtime in (
        PythonRuntime(),
        JavaScriptRuntime(),
        CRuntime(),
        CppRuntime(),
        WasmRuntime(),
    )
}


def get_runtime(name: str) -> Runtime:
    return RUNTIMES[name]


def runtime_for_files(files: dict[str, bytes] | set[str]) -> Runtime | None:
    """The runtime whose entry point is among ``files`` (relative paths)."""
    found = [r for r in RUNTIMES.values() if r.entrypoint in files]
    return found[0] if len(found) == 1 else None


def runtime_for_suffix(filename: str) -> Runtime | None:
    """The runtime a single uploaded file belongs to, by its suffix."""
    lower = filename.lower()
    for runtime in RUNTIMES.values():
        if lower.endswith(runtime.suffixes):
            return runtime
    return None


def runtime_for_dir(bot_dir: str | os.PathLike[str]) -> Runtime:
    """The runtime of a stored (or staged) bot tree; Python when ambiguous.

    A tree stored before other runtimes existed holds ``main.py`` only.
    """
    names = {entry.name for entry in Path(bot_dir).iterdir()}
    return runtime_for_files(names) or RUNTIMES["python"]


def build_bot(bot_dir: Path, *, config: SandboxConfig, allow_unsandboxed: bool) -> str:
    """Build a staged or stored tree once (compiled runtimes); return the log.

    Raises :class:`BuildError` with the compiler's output when it fails.
    """
    return runtime_for_dir(bot_dir).build(
        bot_dir, config=config, allow_unsandboxed=allow_unsandboxed
    )


__all__ = [
    "BUILD_DIR",
    "RUNTIMES",
    "BuildError",
    "Runtime",
    "UploadError",
    "build_bot",
    "get_runtime",
    "runtime_for_dir",
    "runtime_for_files",
    "runtime_for_suffix",
]
