"""The C/C++ link line taken from ``zig c++ -v`` (bots.runtimes.toolchain).

zig prints the link lines of what it builds on the way (libc, libc++,
compiler-rt) before or after the program's own, some of them partial links.
A prepare that kept the first line stored a partial link (``-r``), and every
C and C++ bot then compiled to an object file that the sandbox could not run
("Exec format error"). Pure: no zig is run here.
"""

from __future__ import annotations

import json

from bots.runtimes import toolchain

SUB_BUILD = "ld.lld --error-limit=0 -r -m elf_x86_64 /z/cache/a.o -o /z/cache/libc.o"
LIBCXX = "ld.lld --error-limit=0 -m elf_x86_64 -static /z/cache/x.o -o /z/libc++.so"
PROGRAM = (
    "ld.lld --error-limit=0 --entry _start -m elf_x86_64 -static "
    "/z/crt1.o /tmp/w/warm.o /z/libc++.a /z/libc.a -o warm"
)


def test_the_programs_own_line_is_taken_wherever_it_comes():
    for log in (
        "\n".join([SUB_BUILD, LIBCXX, PROGRAM]),
        "\n".join([PROGRAM, SUB_BUILD]),
        f"info: building\n  {SUB_BUILD}\n  {PROGRAM}\n",
    ):
        assert toolchain._program_link_line(log, program="warm") == PROGRAM.strip()


def test_no_program_line_gives_nothing():
    assert toolchain._program_link_line(SUB_BUILD, program="warm") == ""


def test_a_stored_partial_link_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setattr(toolchain, "toolchain_dir", lambda: tmp_path)
    manifest = tmp_path / "x86_64-linux-musl" / "link.json"
    manifest.parent.mkdir()
    manifest.write_text(
        json.dumps({"flags": ["-r"], "before": ["crt1.o"], "after": []})
    )
    assert toolchain.link_inputs("x86_64-linux-musl") is None
    good = {"flags": ["-static"], "before": ["crt1.o"], "after": ["libc.a"]}
    manifest.write_text(json.dumps(good))
    assert toolchain.link_inputs("x86_64-linux-musl") == good
