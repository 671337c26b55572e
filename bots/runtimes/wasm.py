"""WebAssembly (WASI preview 1) under the pinned ``wasmtime`` wheel, fuel-metered.

Any language that targets ``wasm32-wasi`` (C and C++ with zig or clang, Rust,
Zig, TinyGo, AssemblyScript) uploads ``main.wasm``. In the sandbox the system
Python runs :mod:`bots.runtimes.wasm_host` with the wheel's ``wasmtime``
package bound read-only beside it; the module gets no preopened directory,
no environment and no sockets, stdin/stdout carry the protocol as for every
bot, and its compute is counted in **fuel** (about one unit per WebAssembly
instruction): a budget per decision and one per match, so a bot's thinking
allowance is the same on every machine and a replay makes the same choices.
The wall-clock limits of the protocol still apply on top.

The build step (at validation) compiles the module to native code once, in
the sandbox, into ``.build/main.cwasm``; each start then only loads it.
"""

from __future__ import annotations

from pathlib import Path

from bots.sandbox.policy import BOT_MOUNT, SandboxConfig, SandboxError

from .base import (
    BUILD_DIR,
    RUNTIME_MOUNT,
    BuildError,
    Runtime,
    UploadError,
    readable_runtime_path,
    with_binds,
)
from .build import describe, run_build, store_product

HOST = Path(__file__).with_name("wasm_host.py")
WASM_MOUNT = f"{RUNTIME_MOUNT}/wasm"
#: Fuel per decision: about 0.1-0.3 s of compute here (docs/bots.md,
#: "WebAssembly": the measured ratio). The per-move wall clock still applies.
FUEL_PER_DECISION = 200_000_000
#: Fuel for the whole match, start-up included.
FUEL_PER_MATCH = 4_000_000_000
#: Linear memory the module may have (a bigger module fails to instantiate,
#: memory.grow past it returns -1).
MEMORY_BYTES = 256 * 2**20
#: Address space for the host: Python, wasmtime and the linear memory.
HOST_ADDRESS_SPACE = 1536 * 2**20
COMPILE_TIMEOUT_S = 60.0
MAX_COMPILED_BYTES = 64 * 2**20
COMPILED = "main.cwasm"


def wasmtime_package() -> str:
    try:
        import wasmtime
    except ImportError as exc:
        raise SandboxError(
            "the WebAssembly runtime needs the wasmtime package"
        ) from exc
    return readable_runtime_path(Path(wasmtime.__file__).parent)


class WasmRuntime(Runtime):
    name = "wasm"
    label = "WebAssembly (WASI, wasmtime)"
    entrypoint = "main.wasm"
    suffixes = (".wasm",)
    text_source = False
    sdk_files = ()

    def check_upload(self, files: dict[str, bytes], *, game: str) -> None:
        if files[self.entrypoint][:8] != b"\0asm\x01\0\0\0":
            raise UploadError(
                f"{self.entrypoint} is not a WebAssembly module (binary format "
                "version 1); build for wasm32-wasi."
            )

    def sandbox_config(self, config: SandboxConfig) -> SandboxConfig:
        return with_binds(
            config,
            (readable_runtime_path(HOST), f"{WASM_MOUNT}/host.py"),
            (wasmtime_package(), f"{WASM_MOUNT}/py/wasmtime"),
            address_space_bytes=max(
                config.limits.address_space_bytes, HOST_ADDRESS_SPACE
            ),
        )

    def _host(self, config: SandboxConfig) -> list[str]:
        return [config.interpreter, "-I", "-S", f"{WASM_MOUNT}/host.py"]

    def command(self, config: SandboxConfig) -> list[str]:
        return [
            *self._host(config),
            f"{BOT_MOUNT}/{self.entrypoint}",
            str(FUEL_PER_DECISION),
            str(FUEL_PER_MATCH),
            str(MEMORY_BYTES),
            f"{BOT_MOUNT}/{BUILD_DIR}/{COMPILED}",
        ]

    def build(
        self, bot_dir: Path, *, config: SandboxConfig, allow_unsandboxed: bool
    ) -> str:
        run_config = self.sandbox_config(config)
        run = run_build(
            run_config,
            base_config=config,
            bot_dir=bot_dir,
            command=[*self._host(run_config), "--compile", f"{BOT_MOUNT}/main.wasm"],
            timeout_s=COMPILE_TIMEOUT_S,
            max_output=MAX_COMPILED_BYTES,
            allow_unsandboxed=allow_unsandboxed,
        )
        if run.returncode != 0 or not run.output:
            raise BuildError(
                f"main.wasm does not compile ({describe(run)})", output=run.stderr
            )
        store_product(bot_dir, COMPILED, run.output, executable=False)
        return f"compiled main.wasm to native code ({describe(run)})\n{run.stderr}"

    def limits(self, config: SandboxConfig, *, per_move_s: float) -> list[str]:
        return [
            f"{FUEL_PER_DECISION:,} fuel (about one per instruction) per decision, "
            f"{FUEL_PER_MATCH:,} per match",
            f"{per_move_s:g} s per decision on the wall clock as well",
            f"{MEMORY_BYTES // 2**20} MiB of linear memory",
            "no files, no environment, no network",
        ]
