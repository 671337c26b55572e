"""Runs one WebAssembly (WASI) bot inside the sandbox, fuel-metered.

Started by the WebAssembly runtime as the sandbox's pid 1 with the system
Python (``-I -S``); the ``wasmtime`` package is bound read-only beside this
file. Not imported by the platform: it runs only inside the sandbox.

* WASI with **no preopened directory** (the module sees no file at all), no
  environment, no sockets (wasmtime's WASI preview 1 has no way to open one),
  stdout and stderr passed through, arguments ``["main.wasm"]``.
* **stdin** is served by this host (``fd_read`` on fd 0 is shadowed): a bot
  that reads stdin has finished its decision, so that is where its fuel is
  counted. Each new input gives the module ``min(per-decision fuel, what is
  left of the match's fuel)``; running out traps, and the host exits with
  :data:`LIMIT_EXIT` so the worker reports a ``timeout``.
* Linear memory is capped by the store's limiter (``--memory``): a module
  asking for more fails to instantiate, ``memory.grow`` past it returns -1.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys

#: Exit status meaning "the bot ran out of its compute budget" (the worker
#: turns it into a ``timeout`` fault; bots.protocol.transport.LIMIT_EXIT).
LIMIT_EXIT = 124
ERRNO_SUCCESS = 0
ERRNO_BADF = 8
ERRNO_IO = 29


def main(argv: list[str]) -> int:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "py"))
    import wasmtime

    config = wasmtime.Config()
    config.consume_fuel = True
    # Memories grow by moving instead of reserving 4 GiB + guards each, so
    # the sandbox's address-space limit holds.
    config.memory_reservation = 0
    config.memory_guard_size = 0
    config.memory_reservation_for_growth = 1 << 20
    config.parallel_compilation = False
    config.max_wasm_stack = 1 << 20
    engine = wasmtime.Engine(config)
    if argv[1] == "--compile":
        # Build step: compile once, write the native code to stdout.
        with open(argv[2], "rb") as fh:
            code = wasmtime.Module(engine, fh.read()).serialize()
        sys.stdout.buffer.write(code)
        return 0
    module_path = argv[1]
    fuel_move = int(argv[2])
    fuel_match = int(argv[3])
    memory_bytes = int(argv[4])
    compiled = argv[5] if len(argv) > 5 else ""
    if compiled and os.path.exists(compiled):
        module = wasmtime.Module.deserialize_file(engine, compiled)
    else:
        module = wasmtime.Module.from_file(engine, module_path)

    store = wasmtime.Store(engine)
    store.set_limits(memory_size=memory_bytes, instances=1, tables=4, memories=1)
    wasi = wasmtime.WasiConfig()
    wasi.argv = ["main.wasm"]
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    store.set_wasi(wasi)

    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    linker.allow_shadowing = True
    budget = {"given": 0, "match_left": fuel_match}
    pending = bytearray()

    def give_fuel() -> None:
        budget["given"] = max(0, min(fuel_move, budget["match_left"]))
        store.set_fuel(budget["given"])

    def fd_read(caller, fd, iovs, iovs_len, nread_ptr):
        if fd != 0:
            return ERRNO_BADF
        if not pending:
            # The decision is over: count its fuel, then wait for the next line.
            budget["match_left"] -= budget["given"] - store.get_fuel()
            budget["given"] = 0
            store.set_fuel(0)
            try:
                pending.extend(os.read(0, 65536))
            except OSError:
                return ERRNO_IO
            give_fuel()
        memory = caller["memory"]
        base = ctypes.addressof(memory.data_ptr(caller).contents)
        size = memory.data_len(caller)
        total = 0
        for index in range(iovs_len):
            entry = iovs + 8 * index
            if not 0 <= entry <= size - 8:
                return ERRNO_IO
            buf, length = struct.unpack("<II", ctypes.string_at(base + entry, 8))
            take = min(length, len(pending))
            if buf + take > size:
                return ERRNO_IO
            ctypes.memmove(base + buf, bytes(pending[:take]), take)
            del pending[:take]
            total += take
            if not pending:
                break
        if not 0 <= nread_ptr <= size - 4:
            return ERRNO_IO
        ctypes.memmove(base + nread_ptr, struct.pack("<I", total), 4)
        return ERRNO_SUCCESS

    i32 = wasmtime.ValType.i32()
    linker.define_func(
        "wasi_snapshot_preview1",
        "fd_read",
        wasmtime.FuncType([i32, i32, i32, i32], [i32]),
        fd_read,
        access_caller=True,
    )
    try:
        store.set_fuel(fuel_move)  # start-up code runs under one decision's fuel
        instance = linker.instantiate(store, module)
        give_fuel()
        start = instance.exports(store)["_start"]
        assert isinstance(start, wasmtime.Func)
        start(store)
    except wasmtime.ExitTrap as exc:
        return exc.code
    except (wasmtime.Trap, wasmtime.WasmtimeError) as exc:
        if _out_of_fuel(exc, wasmtime):
            spent = "match" if budget["match_left"] <= budget["given"] else "decision"
            print(
                f"out of fuel: the {spent}'s compute budget is spent "
                f"({fuel_move:,} per decision, {fuel_match:,} per match)",
                file=sys.stderr,
            )
            return LIMIT_EXIT
        print(f"wasm trap: {exc}", file=sys.stderr)
        return 134
    return 0


def _out_of_fuel(exc: Exception, wasmtime: object) -> bool:
    code = getattr(exc, "trap_code", None)
    out = wasmtime.TrapCode.OUT_OF_FUEL  # type: ignore[attr-defined]
    return code == out or "all fuel consumed" in str(exc)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
