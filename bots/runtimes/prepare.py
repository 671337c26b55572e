"""``python -m bots.runtimes.prepare``: build the bot toolchains' libraries.

Run by ``make install`` (so ``make run`` and ``make test`` have them): minutes
the first time (zig builds musl, libc++ and wasi-libc from source), nothing
afterwards. A worker that skipped it prepares them at its first C or C++
validation instead.
"""

from bots.runtimes.toolchain import prepare_all, toolchain_dir

if __name__ == "__main__":
    prepare_all()
    print(f"bot toolchains ready in {toolchain_dir()}")
