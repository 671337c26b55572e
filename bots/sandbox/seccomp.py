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
import socket

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


def filter_pipe() -> int:
    """Return the read end of a pipe holding the compiled filter.

    A fresh pipe per spawn, because bwrap reads the descriptor to its end: a shared
    memfd would share its file offset between concurrent spawns.
    """
    program = compiled_filter()
    return data_pipe(program)


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
