"""The seccomp filters: libseccomp's deny list, and the number cap on top of it
that denies every syscall above the highest reviewed one (a call added by a
newer kernel than the review, or newer than libseccomp's table, is not allowed
just because no rule names it)."""

from __future__ import annotations

import errno
import platform
import struct
import subprocess
import sys
import textwrap

import pytest

from bots.sandbox.seccomp import (
    DENIED_BY_NUMBER,
    REVIEWED_MAX_SYSCALL,
    SeccompUnavailable,
    number_cap_program,
)

from .conftest import StartBot, needs_bwrap

SYSCALL_ERRNO = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def errno_of(nr):
    ctypes.set_errno(0)
    zero = ctypes.c_long(0)
    if libc.syscall(ctypes.c_long(nr), zero, zero, zero, zero, zero) >= 0:
        return 0
    return ctypes.get_errno()
"""


@needs_bwrap
@pytest.mark.sandbox
def test_calls_newer_than_libseccomps_table_are_denied(start_bot: StartBot) -> None:
    """statmount, listmount and open_tree_attr exist on this kernel but are
    unknown to libseccomp 2.5.4, whose filter skipped them: EPERM now."""
    bot = start_bot(
        SYSCALL_ERRNO
        + """
numbers = read()["numbers"]
answer({str(n): errno_of(n) for n in numbers})
"""
    )
    numbers = sorted(DENIED_BY_NUMBER)
    reply = bot.handshake({"numbers": numbers})
    assert reply == {str(n): errno.EPERM for n in numbers}


@needs_bwrap
@pytest.mark.sandbox
def test_numbers_above_the_reviewed_one_are_enosys(start_bot: StartBot) -> None:
    bot = start_bot(
        SYSCALL_ERRNO
        + """
numbers = read()["numbers"]
answer({str(n): errno_of(n) for n in numbers})
"""
    )
    numbers = [REVIEWED_MAX_SYSCALL + 1, REVIEWED_MAX_SYSCALL + 30, 1023, 99999]
    reply = bot.handshake({"numbers": numbers})
    assert reply == {str(n): errno.ENOSYS for n in numbers}


@pytest.mark.skipif(
    platform.machine() not in ("x86_64", "aarch64"), reason="reviewed arches only"
)
def test_number_cap_program_denies_above_its_maximum() -> None:
    """The cap itself, loaded in a child with a lowered maximum: fchmodat2 (452)
    exists on this kernel (EFAULT for a NULL path) but is above 451, so ENOSYS;
    cachestat (451) is still reached (EBADF for fd -1); a listed number is EPERM."""
    program = number_cap_program(max_syscall=451, denied={300: "fanotify_init"})
    child = SYSCALL_ERRNO + textwrap.dedent(
        """
        import sys
        prog = sys.stdin.buffer.read()
        class SockFprog(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]
        fprog = SockFprog(len(prog) // 8, prog)
        assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
        # seccomp(SECCOMP_SET_MODE_FILTER, 0, &fprog)
        nr = 317 if __import__("platform").machine() == "x86_64" else 277
        assert libc.syscall(nr, 1, 0, ctypes.byref(fprog)) == 0, ctypes.get_errno()
        fd = ctypes.c_long(-1)
        r = libc.syscall(ctypes.c_long(451), fd, ctypes.c_long(0), ctypes.c_long(0),
                         ctypes.c_long(0), ctypes.c_long(0))
        cachestat = ctypes.get_errno() if r < 0 else 0
        print(cachestat, errno_of(452), errno_of(300), errno_of(100000))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", child], input=program, capture_output=True, check=True
    ).stdout.split()
    assert [int(x) for x in out] == [
        errno.EBADF,
        errno.ENOSYS,
        errno.EPERM,
        errno.ENOSYS,
    ]


def test_number_cap_program_kills_foreign_architectures() -> None:
    program = number_cap_program(machine="x86_64")
    # Instruction 1 compares the architecture; on a mismatch it falls to "kill".
    assert struct.unpack("=HBBI", program[8:16]) == (0x15, 1, 0, 0xC000003E)
    assert struct.unpack("=HBBI", program[16:24]) == (0x06, 0, 0, 0x80000000)
    with pytest.raises(SeccompUnavailable, match="no reviewed syscall table"):
        number_cap_program(machine="mips")
