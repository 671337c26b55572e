"""The seccomp filter every sandboxed bot runs under.

Namespaces already hide the network, the host's files and processes; the filter
removes the kernel attack surface a Python card-game bot never needs, so that a
kernel bug in one of those interfaces cannot be reached from inside. It is a deny
list over an allow-by-default base: bots are ordinary Python programs, and an
allow list of everything CPython and its extension modules may call is brittle
across Python and glibc versions. Denied calls fail with EPERM (ENOSYS for clone3)
rather than killing the process, so the hostile action simply fails and the bot,
if it wants, can report the failure; libseccomp's default "bad architecture"
action still kills any 32-bit (int 0x80) or x32 system call.

The program is compiled once per process with libseccomp (through ``pyseccomp``)
and handed to bubblewrap as raw BPF on a pipe (``bwrap --seccomp FD``); bwrap loads
it with ``PR_SET_NO_NEW_PRIVS`` right before it executes the bot.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import platform
import socket
import struct

#: Syscalls no bot needs, each of them a known route to the kernel or the host:
#: tracing other processes, (un)mounting and namespace games, eBPF, the kernel
#: keyring, io_uring (its own syscall surface that bypasses filters),
#: perf events, userfaultfd (a classic exploit helper), module loading and the
#: file-handle calls used in container escapes.
DENIED_SYSCALLS: tuple[str, ...] = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "process_madvise",
    "pidfd_getfd",
    "kcmp",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "bpf",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "perf_event_open",
    "userfaultfd",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "open_by_handle_at",
    "name_to_handle_at",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "lookup_dcookie",
    "fanotify_init",
    "syslog",
    "vhangup",
    "iopl",
    "ioperm",
    "uselib",
)

#: The highest system call number reviewed for bots: ``file_setattr`` (469), the
#: last one in Linux 6.18. Every number above it is denied (ENOSYS, so a libc
#: falls back as on an older kernel): a syscall added by a later kernel has had
#: no review, and libseccomp, which resolves the names above, silently skips the
#: names its table lacks (2.5.4 stops at 451), so its filter alone allows them.
#: Raise it only after reviewing the new calls (and adding any to deny below).
REVIEWED_MAX_SYSCALL = 469

#: Reviewed calls newer than some libseccomp tables, denied by number in the
#: second filter (since 424, new calls have one number on x86_64 and aarch64
#: alike): mount-tree introspection and the new mount API's ``open_tree_attr``
#: (as the rest of the mount API above) and setting LSM attributes.
DENIED_BY_NUMBER: dict[int, str] = {
    457: "statmount",
    458: "listmount",
    460: "lsm_set_self_attr",
    467: "open_tree_attr",
}

#: AUDIT_ARCH_* of the architectures whose numbers were reviewed.
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}

#: clone() flags that create namespaces. Checked on clone's first argument; the
#: same flags hidden inside clone3's struct cannot be inspected, so clone3 fails
#: with ENOSYS and glibc falls back to clone().
NAMESPACE_CLONE_FLAGS: tuple[int, ...] = (
    0x10000000,  # CLONE_NEWUSER
    0x00020000,  # CLONE_NEWNS
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x02000000,  # CLONE_NEWCGROUP
)


class SeccompUnavailable(RuntimeError):
    """libseccomp or its Python binding is missing, so no filter can be built."""


@functools.cache
def compiled_filter() -> bytes:
    """Return the filter as a raw BPF program (``struct sock_filter[]``).

    Cached: compiling costs a few milliseconds and the program never changes
    during a process's life.
    """
    try:
        import pyseccomp as sc
    except (ImportError, RuntimeError, OSError) as exc:  # RuntimeError: no .so
        raise SeccompUnavailable(f"pyseccomp/libseccomp not usable: {exc}") from exc

    eperm = sc.ERRNO(errno.EPERM)
    flt = sc.SyscallFilter(sc.ALLOW)
    # Sockets: only AF_UNIX (local pipes/socketpairs that some libraries use); the
    # network namespace already has no route out, this also shuts the door on
    # netlink, packet and vsock sockets.
    flt.add_rule(eperm, "socket", sc.Arg(0, sc.NE, socket.AF_UNIX))
    flt.add_rule(eperm, "socketpair", sc.Arg(0, sc.NE, socket.AF_UNIX))
    for name in DENIED_SYSCALLS:
        try:
            flt.add_rule(eperm, name)
        except (ValueError, RuntimeError, OSError):
            # Syscall unknown to this libseccomp/arch (e.g. iopl on arm64):
            # nothing to deny there.
            continue
    for flag in NAMESPACE_CLONE_FLAGS:
        flt.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    with contextlib.suppress(ValueError, RuntimeError, OSError):
        flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")

    fd = os.memfd_create("kungfu-seccomp", os.MFD_CLOEXEC)
    try:
        with os.fdopen(os.dup(fd), "wb") as out:
            flt.export_bpf(out)
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    finally:
        os.close(fd)
    program = b"".join(chunks)
    if not program or len(program) % 8:
        raise SeccompUnavailable("libseccomp exported an empty or malformed program")
    return program


# Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGT_K = 0x25
_RET_K = 0x06
_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_RET_ALLOW = 0x7FFF0000


def number_cap_program(
    *,
    max_syscall: int = REVIEWED_MAX_SYSCALL,
    denied: dict[int, str] | None = None,
    machine: str | None = None,
) -> bytes:
    """The second filter: deny every number above ``max_syscall`` (ENOSYS), the
    calls in ``denied`` (EPERM), and any foreign architecture (kill).

    Written out by hand because libseccomp rules name single calls, while this
    is one comparison: a filter small enough to check by eye. bwrap stacks it
    on top of :func:`compiled_filter` (``--add-seccomp-fd``); the kernel then
    applies the stricter verdict of the two, so x32 calls (numbers with bit 30
    set) are still killed by libseccomp's architecture check.
    """
    arch = _AUDIT_ARCH.get(machine or platform.machine())
    if arch is None:
        raise SeccompUnavailable(
            f"no reviewed syscall table for {machine or platform.machine()}"
        )
    denied = DENIED_BY_NUMBER if denied is None else denied
    numbers = sorted(denied)
    # Layout: 0 ld arch; 1 jeq arch; 2 kill; 3 ld nr; 4 jgt max; 5.. jeq each;
    # then ret allow, ret ENOSYS, ret EPERM.
    allow = 5 + len(numbers)
    enosys, eperm = allow + 1, allow + 2
    code = [
        (_LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        (_JEQ_K, 1, 0, arch),
        (_RET_K, 0, 0, _RET_KILL_PROCESS),
        (_LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
        (_JGT_K, enosys - 5, 0, max_syscall),
    ]
    for index, number in enumerate(numbers):
        here = 5 + index
        code.append((_JEQ_K, eperm - here - 1, 0, number))
    code += [
        (_RET_K, 0, 0, _RET_ALLOW),
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),
        (_RET_K, 0, 0, _RET_ERRNO | errno.EPERM),
    ]
    return b"".join(struct.pack("=HBBI", *insn) for insn in code)


def filter_pipe() -> int:
    """Return the read end of a pipe holding the compiled filter.

    A fresh pipe per spawn, because bwrap reads the descriptor to its end: a shared
    memfd would share its file offset between concurrent spawns.
    """
    program = compiled_filter()
    return data_pipe(program)


def cap_filter_pipe() -> int:
    """Return the read end of a pipe holding :func:`number_cap_program`."""
    return data_pipe(number_cap_program())


def data_pipe(data: bytes) -> int:
    """Return the read end of a pipe pre-filled with ``data`` (at most 64 KiB)."""
    if len(data) > 65536:
        raise ValueError("pipe payload larger than a pipe buffer")
    read_fd, write_fd = os.pipe()
    try:
        view = memoryview(data)
        while view:
            written = os.write(write_fd, view)
            view = view[written:]
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    return read_fd
