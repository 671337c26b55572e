"""Runs one WebAssembly (WASI) bot inside the sandbox, fuel-metered.

Started by the WebAssembly runtime as the sandbox's pid 1 with the system
Python (``-I -S``); the ``wasmtime`` wheel's package directory is bound
read-only beside this file. Not imported by the platform: it runs only inside
the sandbox. It talks to the wheel's ``libwasmtime`` C API through ``ctypes``
directly, binding only the calls it uses: importing the ``wasmtime`` Python
package costs 200-300 ms (``typing`` and bindings for the whole API), more
than the rest of a bot's start together.

* WASI with **no preopened directory** (the module sees no file at all), no
  environment, no sockets (WASI preview 1 in wasmtime has no call to open
  one), stdout and stderr passed through, arguments ``["main.wasm"]``.
* **stdin** is served by this host (``fd_read`` on fd 0 is shadowed): a bot
  that reads stdin has finished its decision, so that is where its fuel is
  counted. Each new input gives the module ``min(per-decision fuel, what is
  left of the match's fuel)``; running out traps, and the host exits with
  :data:`LIMIT_EXIT` so the worker reports a ``timeout``.
* Linear memory is capped by the store's limiter (``memory_bytes``): a
  module asking for more fails to instantiate, ``memory.grow`` past it
  returns -1.

Usage: ``host.py MODULE FUEL_PER_DECISION FUEL_PER_MATCH MEMORY [COMPILED]``,
or ``host.py --compile MODULE`` (native code on stdout, for the build step).
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
TRAP_OUT_OF_FUEL = 11
EXTERN_FUNC = 0
EXTERN_MEMORY = 3
I32 = 0

P = ctypes.c_void_p
U64 = ctypes.c_uint64


class ByteVec(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("data", ctypes.POINTER(ctypes.c_ubyte))]


class Extern(ctypes.Structure):
    """wasmtime_extern_t: a kind byte, then a 24-byte union (8-aligned)."""

    _fields_ = [("kind", ctypes.c_uint8), ("of", ctypes.c_uint64 * 3)]


class Val(ctypes.Structure):
    """wasmtime_val_t: a kind byte, then a 24-byte union (8-aligned: its
    largest members, anyref and externref, are 24 bytes in this version)."""

    _fields_ = [("kind", ctypes.c_uint8), ("of", ctypes.c_uint64 * 3)]


class Instance(ctypes.Structure):
    _fields_ = [("store_id", ctypes.c_uint64), ("private", ctypes.c_size_t)]


CALLBACK = ctypes.CFUNCTYPE(
    ctypes.c_size_t, P, P, ctypes.POINTER(Val), ctypes.c_size_t,
    ctypes.POINTER(Val), ctypes.c_size_t,
)  # fmt: skip
FINALIZER = ctypes.CFUNCTYPE(None, P)


def load_library() -> ctypes.CDLL:
    here = os.path.dirname(os.path.abspath(__file__))
    lib = ctypes.CDLL(
        os.path.join(here, "py", "wasmtime", "linux-x86_64", "_libwasmtime.so")
    )
    sig = {
        "wasm_config_new": (P, []),
        "wasmtime_config_consume_fuel_set": (None, [P, ctypes.c_bool]),
        "wasmtime_config_memory_reservation_set": (None, [P, U64]),
        "wasmtime_config_memory_guard_size_set": (None, [P, U64]),
        "wasmtime_config_memory_reservation_for_growth_set": (None, [P, U64]),
        "wasmtime_config_parallel_compilation_set": (None, [P, ctypes.c_bool]),
        "wasmtime_config_max_wasm_stack_set": (None, [P, ctypes.c_size_t]),
        "wasm_engine_new_with_config": (P, [P]),
        "wasmtime_module_new": (
            P,
            [P, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(P)],
        ),
        "wasmtime_module_serialize": (P, [P, ctypes.POINTER(ByteVec)]),
        "wasmtime_module_deserialize_file": (
            P,
            [P, ctypes.c_char_p, ctypes.POINTER(P)],
        ),
        "wasmtime_store_new": (P, [P, P, P]),
        "wasmtime_store_context": (P, [P]),
        "wasmtime_store_limiter": (None, [P] + [ctypes.c_int64] * 5),
        "wasmtime_context_set_fuel": (P, [P, U64]),
        "wasmtime_context_get_fuel": (P, [P, ctypes.POINTER(U64)]),
        "wasi_config_new": (P, []),
        "wasi_config_set_argv": (
            ctypes.c_bool,
            [P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_char_p)],
        ),
        "wasi_config_inherit_stdout": (None, [P]),
        "wasi_config_inherit_stderr": (None, [P]),
        "wasmtime_context_set_wasi": (P, [P, P]),
        "wasmtime_linker_new": (P, [P]),
        "wasmtime_linker_define_wasi": (P, [P]),
        "wasmtime_linker_allow_shadowing": (None, [P, ctypes.c_bool]),
        "wasmtime_linker_define_func": (
            P,
            [
                P,
                ctypes.c_char_p,
                ctypes.c_size_t,
                ctypes.c_char_p,
                ctypes.c_size_t,
                P,
                CALLBACK,
                P,
                FINALIZER,
            ],
        ),
        "wasm_valtype_new": (P, [ctypes.c_uint8]),
        "wasm_valtype_vec_new": (
            None,
            [ctypes.POINTER(ByteVec), ctypes.c_size_t, ctypes.POINTER(P)],
        ),
        "wasm_functype_new": (P, [ctypes.POINTER(ByteVec), ctypes.POINTER(ByteVec)]),
        "wasmtime_caller_export_get": (
            ctypes.c_bool,
            [P, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(Extern)],
        ),
        "wasmtime_caller_context": (P, [P]),
        "wasmtime_memory_data": (P, [P, P]),
        "wasmtime_memory_data_size": (ctypes.c_size_t, [P, P]),
        "wasmtime_linker_instantiate": (
            P,
            [P, P, P, ctypes.POINTER(Instance), ctypes.POINTER(P)],
        ),
        "wasmtime_instance_export_get": (
            ctypes.c_bool,
            [
                P,
                ctypes.POINTER(Instance),
                ctypes.c_char_p,
                ctypes.c_size_t,
                ctypes.POINTER(Extern),
            ],
        ),
        "wasmtime_func_call": (
            P,
            [P, P, P, ctypes.c_size_t, P, ctypes.c_size_t, ctypes.POINTER(P)],
        ),
        "wasmtime_error_exit_status": (
            ctypes.c_bool,
            [P, ctypes.POINTER(ctypes.c_int)],
        ),
        "wasmtime_error_message": (None, [P, ctypes.POINTER(ByteVec)]),
        "wasm_trap_message": (None, [P, ctypes.POINTER(ByteVec)]),
        "wasmtime_trap_code": (ctypes.c_bool, [P, ctypes.POINTER(ctypes.c_uint8)]),
    }
    for name, (restype, argtypes) in sig.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


def _text(vec: ByteVec) -> str:
    return ctypes.string_at(vec.data, vec.size).decode("utf-8", "replace")


class Host:
    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        config = lib.wasm_config_new()
        lib.wasmtime_config_consume_fuel_set(config, True)
        # Memories grow by moving instead of reserving 4 GiB + guards each, so
        # the sandbox's address-space limit holds.
        lib.wasmtime_config_memory_reservation_set(config, 0)
        lib.wasmtime_config_memory_guard_size_set(config, 0)
        lib.wasmtime_config_memory_reservation_for_growth_set(config, 1 << 20)
        lib.wasmtime_config_parallel_compilation_set(config, False)
        lib.wasmtime_config_max_wasm_stack_set(config, 1 << 20)
        self.engine = lib.wasm_engine_new_with_config(config)

    def check(self, error: int | None, what: str) -> None:
        if error:
            message = ByteVec()
            self.lib.wasmtime_error_message(error, ctypes.byref(message))
            raise RuntimeError(f"{what}: {_text(message)}")

    def compile(self, path: str) -> bytes:
        with open(path, "rb") as fh:
            wasm = fh.read()
        module = P()
        self.check(
            self.lib.wasmtime_module_new(
                self.engine, wasm, len(wasm), ctypes.byref(module)
            ),
            "compile",
        )
        out = ByteVec()
        self.check(
            self.lib.wasmtime_module_serialize(module, ctypes.byref(out)), "serialize"
        )
        return ctypes.string_at(out.data, out.size)

    def load(self, path: str, compiled: str) -> int:
        module = P()
        if compiled and os.path.exists(compiled):
            error = self.lib.wasmtime_module_deserialize_file(
                self.engine, compiled.encode(), ctypes.byref(module)
            )
            self.check(error, "load")
        else:
            with open(path, "rb") as fh:
                wasm = fh.read()
            error = self.lib.wasmtime_module_new(
                self.engine, wasm, len(wasm), ctypes.byref(module)
            )
            self.check(error, "compile")
        assert module.value is not None
        return module.value


def run(host: Host, module: int, fuel_move: int, fuel_match: int, memory: int) -> int:
    lib = host.lib
    store = lib.wasmtime_store_new(host.engine, None, None)
    ctx = lib.wasmtime_store_context(store)
    lib.wasmtime_store_limiter(store, memory, -1, 1, 4, 1)
    wasi = lib.wasi_config_new()
    argv = (ctypes.c_char_p * 1)(b"main.wasm")
    lib.wasi_config_set_argv(wasi, 1, argv)
    lib.wasi_config_inherit_stdout(wasi)
    lib.wasi_config_inherit_stderr(wasi)
    host.check(lib.wasmtime_context_set_wasi(ctx, wasi), "wasi")
    linker = lib.wasmtime_linker_new(host.engine)
    host.check(lib.wasmtime_linker_define_wasi(linker), "wasi imports")
    lib.wasmtime_linker_allow_shadowing(linker, True)

    budget = {"given": 0, "match_left": fuel_match}
    pending = bytearray()

    def give_fuel() -> None:
        budget["given"] = max(0, min(fuel_move, budget["match_left"]))
        lib.wasmtime_context_set_fuel(ctx, budget["given"])

    def fuel_left() -> int:
        left = U64()
        lib.wasmtime_context_get_fuel(ctx, ctypes.byref(left))
        return left.value

    def fd_read(_env, caller, args, _nargs, results, _nresults):
        results[0].kind = I32
        results[0].of[0] = ERRNO_IO
        fd, iovs, iovs_len, nread_ptr = (args[i].of[0] & 0xFFFFFFFF for i in range(4))
        if fd != 0:
            results[0].of[0] = ERRNO_BADF
            return 0
        if not pending:
            # The decision is over: count its fuel, then wait for the next line.
            budget["match_left"] -= budget["given"] - fuel_left()
            budget["given"] = 0
            lib.wasmtime_context_set_fuel(ctx, 0)
            try:
                pending.extend(os.read(0, 65536))
            except OSError:
                return 0
            give_fuel()
        memory_extern = Extern()
        if not lib.wasmtime_caller_export_get(
            caller, b"memory", 6, ctypes.byref(memory_extern)
        ):
            return 0
        if memory_extern.kind != EXTERN_MEMORY:
            return 0
        caller_ctx = lib.wasmtime_caller_context(caller)
        mem = ctypes.byref(memory_extern, 8)
        base = lib.wasmtime_memory_data(caller_ctx, mem)
        size = lib.wasmtime_memory_data_size(caller_ctx, mem)
        total = 0
        for index in range(iovs_len):
            entry = iovs + 8 * index
            if entry + 8 > size:
                return 0
            buf, length = struct.unpack("<II", ctypes.string_at(base + entry, 8))
            take = min(length, len(pending))
            if buf + take > size:
                return 0
            ctypes.memmove(base + buf, bytes(pending[:take]), take)
            del pending[:take]
            total += take
            if not pending:
                break
        if nread_ptr + 4 > size:
            return 0
        ctypes.memmove(base + nread_ptr, struct.pack("<I", total), 4)
        results[0].of[0] = ERRNO_SUCCESS
        return 0

    params = (P * 4)(*[lib.wasm_valtype_new(I32) for _ in range(4)])
    result = (P * 1)(lib.wasm_valtype_new(I32))
    param_vec, result_vec = ByteVec(), ByteVec()
    lib.wasm_valtype_vec_new(ctypes.byref(param_vec), 4, params)
    lib.wasm_valtype_vec_new(ctypes.byref(result_vec), 1, result)
    functype = lib.wasm_functype_new(ctypes.byref(param_vec), ctypes.byref(result_vec))
    callback = CALLBACK(fd_read)
    host.check(
        lib.wasmtime_linker_define_func(
            linker, b"wasi_snapshot_preview1", 22, b"fd_read", 7, functype,
            callback, None, FINALIZER(0),
        ),
        "fd_read",
    )  # fmt: skip

    lib.wasmtime_context_set_fuel(ctx, fuel_move)  # start-up code: one decision's
    instance = Instance()
    trap = P()
    error = lib.wasmtime_linker_instantiate(
        linker, ctx, module, ctypes.byref(instance), ctypes.byref(trap)
    )
    if error or trap.value:
        return report(host, error, trap.value, budget, fuel_move, fuel_match)
    give_fuel()
    start = Extern()
    if (
        not lib.wasmtime_instance_export_get(
            ctx, ctypes.byref(instance), b"_start", 6, ctypes.byref(start)
        )
        or start.kind != EXTERN_FUNC
    ):
        print("wasm error: the module exports no _start function", file=sys.stderr)
        return 134
    error = lib.wasmtime_func_call(
        ctx, ctypes.byref(start, 8), None, 0, None, 0, ctypes.byref(trap)
    )
    if error or trap.value:
        return report(host, error, trap.value, budget, fuel_move, fuel_match)
    return 0


def report(
    host: Host,
    error: int | None,
    trap: int | None,
    budget: dict[str, int],
    fuel_move: int,
    fuel_match: int,
) -> int:
    lib = host.lib
    if error:
        status = ctypes.c_int()
        if lib.wasmtime_error_exit_status(error, ctypes.byref(status)):
            return status.value
        message = ByteVec()
        lib.wasmtime_error_message(error, ctypes.byref(message))
        print(f"wasm error: {_text(message)}", file=sys.stderr)
        return 134
    code = ctypes.c_uint8()
    has_code = lib.wasmtime_trap_code(trap, ctypes.byref(code))
    if has_code and code.value == TRAP_OUT_OF_FUEL:
        spent = "match" if budget["match_left"] <= budget["given"] else "decision"
        print(
            f"out of fuel: the {spent}'s compute budget is spent "
            f"({fuel_move:,} per decision, {fuel_match:,} per match)",
            file=sys.stderr,
        )
        return LIMIT_EXIT
    message = ByteVec()
    lib.wasm_trap_message(trap, ctypes.byref(message))
    print(f"wasm trap: {_text(message)}", file=sys.stderr)
    return 134


def main(argv: list[str]) -> int:
    host = Host(load_library())
    try:
        if argv[1] == "--compile":
            sys.stdout.buffer.write(host.compile(argv[2]))
            return 0
        module = host.load(argv[1], argv[5] if len(argv) > 5 else "")
    except RuntimeError as exc:
        print(f"wasm error: {exc}", file=sys.stderr)
        return 134
    return run(host, module, int(argv[2]), int(argv[3]), int(argv[4]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
