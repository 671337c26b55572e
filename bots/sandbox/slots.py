"""Sandbox slots: one per concurrent bot, each with its own host uid.

A slot is taken with a lock file in the worker's private lock directory
(:class:`SlotAllocator`); its bot's code is staged there as a snapshot the
slot uid can read (:func:`stage_bot_dir`); a root worker gives it an empty
network namespace made once (:func:`slot_network_namespace`) and its own
inode-capped tmpfs (:func:`slot_tmpfs`). :func:`check_uid_range` refuses a
uid range that someone outside these locks also uses.
"""

from __future__ import annotations

import fcntl
import grp
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

from .libc import CLONE_NEWNET, unshare
from .policy import SandboxConfig, SandboxError
from .uids import processes_of_uid, wait_uid_gone


def private_dir(path: Path) -> None:
    """Create ``path`` (mode 0711) or check that the worker's uid owns it.

    It holds the slot locks, the fake /etc and the staged bot code, so a
    directory someone else created first (and could swap files in) is refused.
    0711: slot uids may traverse it to reach their staged code, never list it.
    """
    path.mkdir(mode=0o711, parents=True, exist_ok=True)
    st = path.lstat()
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        raise SandboxError(f"{path} is not a directory owned by the worker's uid")
    if stat.S_IMODE(st.st_mode) != 0o711:
        path.chmod(0o711)


_CLEAN = b"clean\n"
_BUSY = b"busy\n\n"


class SlotAllocator:
    """Hands out sandbox slots with one ``flock`` per slot, across processes.

    Several Celery worker processes on one host share the uid range; a slot is
    taken by locking its file, and the lock dies with the process that holds it,
    so a crashed worker never leaks a slot. The file's content records whether the
    last holder released the slot after a full sweep; if not, the slot is swept
    (:func:`.uids.kill_uid`) before reuse in case anything of that holder survived.
    """

    def __init__(self, config: SandboxConfig) -> None:
        self._config = config
        self._dir = Path(config.lock_dir)
        self._checked = False

    def acquire(self) -> tuple[int, int]:
        """Return ``(slot, lock_fd)``; raise :class:`SandboxError` when all busy."""
        if not self._checked:
            private_dir(self._dir)
            self._checked = True
        held = draining = 0
        for slot in range(self._config.slot_count):
            # Named by uid, not slot number: workers whose ranges overlap in
            # one lock directory still never run two bots under one uid.
            path = self._dir / f"uid-{self._config.host_uid(slot)}.lock"
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                held += 1
                continue
            # The lock file says whether the last holder swept the slot on release.
            # If it did not (it crashed, or never finished), sweep now: whatever
            # survived must not share the uid (and RLIMIT_NPROC) with the new bot.
            # And wait until it is empty: a process still exiting would share
            # the uid with the new bot. A slot that will not drain is skipped.
            # (An empty file was never used: nothing to sweep.)
            if os.pread(fd, 16, 0) not in (_CLEAN, b"") and not wait_uid_gone(
                self._config.host_uid(slot), timeout=2.0
            ):
                os.close(fd)
                draining += 1
                continue
            os.pwrite(fd, _BUSY, 0)
            return slot, fd
        raise SandboxError(
            f"all sandbox slots are busy ({held} running bots, {draining} slots "
            "whose last bot's processes have not gone yet)"
        )

    @staticmethod
    def release(lock_fd: int, *, clean: bool) -> None:
        """Free a slot taken with :meth:`acquire`; ``clean`` after a full sweep."""
        try:
            if clean:
                os.pwrite(lock_fd, _CLEAN, 0)
        finally:
            os.close(lock_fd)

    def stage_dir(self, slot: int) -> Path:
        """Where the slot's snapshot of the bot code is staged."""
        return self._dir / f"uid-{self._config.host_uid(slot)}"


def stage_bot_dir(source: Path, dest: Path, *, max_bytes: int) -> None:
    """Copy the bot's code into a fresh directory the slot uid can read.

    Run as root before each start, so the bot sees an immutable snapshot that
    does not depend on how (or where) the upload was stored: directories become
    0755 and files 0644 (the slot uid is "other"), symlinks are copied as links
    and never followed (following them as root could copy host files in), and
    anything else (fifos, devices, sockets) or an oversized tree is refused.
    """
    if not source.is_dir():
        raise SandboxError(f"bot path {source} is not a directory")
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(mode=0o755)
    total = 0
    for root, dirs, files in os.walk(source, followlinks=False):
        rel = Path(root).relative_to(source)
        target_root = dest / rel
        for name in dirs + files:
            src = Path(root) / name
            dst = target_root / name
            st = src.lstat()
            if stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(src), dst)
            elif stat.S_ISDIR(st.st_mode):
                dst.mkdir(mode=0o755)
            elif stat.S_ISREG(st.st_mode):
                total += st.st_size
                if total > max_bytes:
                    raise SandboxError(f"bot code exceeds {max_bytes} bytes")
                fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                with os.fdopen(fd, "rb") as fin, open(dst, "xb") as fout:
                    shutil.copyfileobj(fin, fout)
                # Executable only what was (a compiled bot: uploads are
                # written without exec bits, bots.storage).
                dst.chmod(0o755 if st.st_mode & stat.S_IXUSR else 0o644)
            else:
                raise SandboxError(f"bot code may not contain special file {src}")
        dirs[:] = [d for d in dirs if not (Path(root) / d).is_symlink()]
        target_root.chmod(0o755)


def slot_tmpfs(
    config: SandboxConfig, slot: int, host_uid: int
) -> list[tuple[str, str]]:
    """The home and /tmp tmpfs of a slot: (mount point, mount options) each.

    bwrap's ``--tmpfs`` can cap bytes (``--size``) but not inodes, and an inode
    flood pins kernel memory without using any bytes. So a root worker's
    launcher mounts both tmpfs itself, with ``size`` *and* ``nr_inodes``, in a
    private mount namespace of the bwrap process it forks (the host never sees
    them, and they vanish with the sandbox), on two empty root-owned directories
    that bwrap then binds as ``/home/bot`` and ``/tmp``. Owned by the slot uid
    (the bot inside), mode 0700.
    """
    limits = config.limits
    base = Path(config.lock_dir) / f"tmpfs-{host_uid}"
    points = []
    for name, size in (
        ("home", limits.work_tmpfs_bytes),
        ("tmp", limits.tmp_tmpfs_bytes),
    ):
        point = base / name
        if not point.is_dir():
            point.mkdir(mode=0o755, parents=True, exist_ok=True)
            base.chmod(0o755)
        options = (
            f"size={size},nr_inodes={limits.tmpfs_inodes},mode=0700,"
            f"uid={host_uid},gid={host_uid}"
        )
        points.append((str(point), options))
    return points


_slot_netns: dict[int, int] = {}


def slot_network_namespace(uid: int) -> int:
    """Return an fd of the slot's own empty network namespace (root only).

    Keyed by the slot's host uid (the slot's identity across configurations).

    Creating a network namespace is the most expensive part of starting bwrap,
    and tearing one down keeps a kernel worker busy afterwards. A root worker
    therefore creates one empty namespace per slot, once, and each bot of that
    slot joins it (bwrap ``--share-net`` after ``setns`` in the fork hook). It is
    never shared between concurrent bots (a slot runs one bot at a time, and
    everything of the previous bot is dead before the next starts), it has no
    interface but a loopback that is down, and it is owned by the host's user
    namespace, so a bot holds no capability over it at all.
    """
    fd = _slot_netns.get(uid)
    if fd is not None:
        return fd
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the forked helper
        try:
            os.close(read_fd)
            ok = unshare(CLONE_NEWNET) == 0
            os.write(write_fd, b"1" if ok else b"0")
            os.close(write_fd)
            time.sleep(30)
        finally:
            os._exit(0)
    os.close(write_fd)
    try:
        ok = os.read(read_fd, 1) == b"1"
        if not ok:
            raise SandboxError("could not create a network namespace for the slot")
        fd = os.open(f"/proc/{pid}/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        os.close(read_fd)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    _slot_netns[uid] = fd
    return fd


def check_uid_range(config: SandboxConfig) -> str:
    """Why the configured slot uid range cannot be used here, or "" if it can.

    Slot uids must be this worker's alone: a uid shared with another worker or
    deployment on the host (another container, another checkout) means one of
    them sweeps the other's bots (``kill(-1)`` as that uid) and they share
    RLIMIT_NPROC. Workers sharing one lock directory coordinate through the
    per-uid lock files, so overlapping ranges there are safe; anything else is
    refused: a range outside ``1000 .. 2**31``, one holding ``nobody`` (65534),
    a uid or gid that belongs to an account of this host, or a uid that runs a
    process while its lock is free and clean here (so someone who does not use
    our locks is running under it). Separate pid namespaces hide the last case
    from each other; giving each deployment its own ``BOT_SANDBOX_UID_BASE`` is
    the operator's part (docs/sandbox.md).
    """
    first, count = config.uid_base, config.slot_count
    last = first + count - 1
    if count < 1 or first < 1000 or last >= 2**31:
        return f"sandbox uid range {first}-{last} must lie within 1000-{2**31 - 1}"
    if first <= 65534 <= last:
        return f"sandbox uid range {first}-{last} holds 65534 (nobody)"
    accounts = {p.pw_uid: p.pw_name for p in pwd.getpwall()}
    groups = {g.gr_gid: g.gr_name for g in grp.getgrall()}
    for uid in range(first, last + 1):
        if uid in accounts:
            return f"sandbox uid {uid} belongs to the account {accounts[uid]!r}"
        if uid in groups:
            return f"sandbox gid {uid} belongs to the group {groups[uid]!r}"
    lock_dir = Path(config.lock_dir)
    private_dir(lock_dir)
    # Each uid is looked at while holding its lock (one at a time, so spawns of
    # workers sharing the locks just take another slot meanwhile): then no bot
    # of ours can run under it, and whatever runs is someone else's.
    with _NprocProbe() as probe:
        for uid in range(first, last + 1):
            pids = _foreign_processes(lock_dir, uid, probe)
            if pids is not None:
                where = (
                    f"pids {', '.join(map(str, pids[:5]))}"
                    if pids
                    else "not visible here: another container or pid namespace"
                )
                return (
                    f"sandbox uid {uid} is in use outside this worker's lock "
                    f"directory {lock_dir} ({where}): another worker or "
                    "deployment uses the same range; give each its own "
                    "BOT_SANDBOX_UID_BASE"
                )
    return ""


def _foreign_processes(
    lock_dir: Path, uid: int, probe: _NprocProbe
) -> list[int] | None:
    """Pids (maybe none visible) of ``uid`` run by someone not using our locks.

    None when the uid is fine, or cannot be judged now: its lock is held (a bot
    of a worker sharing our locks), its last holder did not release it (our own
    leftover, swept by the next taker), or it has zombies (they count for
    RLIMIT_NPROC until reaped, so the probe could not tell).
    """
    fd = os.open(
        lock_dir / f"uid-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600
    )
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return None
        if os.pread(fd, 16, 0) not in (b"", _CLEAN):
            return None
        if not probe.in_use(uid):
            return None  # nothing of the uid anywhere (the usual, cheap case)
        live = processes_of_uid(uid)
        if live:
            return live
        if processes_of_uid(uid, include_zombies=True):
            return None
        # Nothing visible: either it runs where we cannot see, or what the
        # probe counted was a zombie reaped since; a second probe tells.
        return [] if probe.in_use(uid) else None
    finally:
        os.close(fd)


#: The helper of :class:`_NprocProbe`, a small fresh interpreter (forking the
#: large worker once per uid would cost milliseconds each). For each uid on a
#: stdin line it answers 1 (something else runs as that uid) or 0.
_NPROC_PROBE = r"""
import os, resource, sys
# The helper's child is one process of the uid; with a limit of 2 it may fork
# once more only while no other process of the uid exists (Linux >= 5.14 counts
# the new child before comparing with ">", older kernels compare with ">="
# before counting it: the same outcome).
for line in sys.stdin:
    uid = int(line)
    pid = os.fork()
    if pid == 0:
        code = 5
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (2, 2))
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            try:
                child = os.fork()
            except BlockingIOError:
                code = 3
            else:
                if child == 0:
                    os._exit(0)
                os.waitpid(child, 0)
                code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    sys.stdout.write("1\n" if code == 3 else "0\n" if code == 0 else "E\n")
    sys.stdout.flush()
"""


class _NprocProbe:
    """Whether a uid has a live process anywhere, in any pid namespace.

    Containers do not see each other's processes, but the kernel counts each
    uid's processes host-wide (per user namespace) for RLIMIT_NPROC. A helper
    running as the uid (so without capabilities) under RLIMIT_NPROC 2 can fork
    once only if nothing else of the uid is alive: a fork failing with EAGAIN
    means another worker or deployment runs something under that uid. Root only.
    """

    def __enter__(self) -> _NprocProbe:
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _NPROC_PROBE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env={},
                text=True,
            )
        except OSError as exc:
            raise SandboxError(f"cannot probe the slot uids: {exc}") from exc
        return self

    def in_use(self, uid: int) -> bool:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(f"{uid}\n")
        self._proc.stdin.flush()
        answer = self._proc.stdout.readline().strip()
        if answer not in ("0", "1"):
            raise SandboxError(f"the slot uid probe failed for uid {uid}")
        return answer == "1"

    def __exit__(self, *exc: object) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=10)
        if self._proc.stdout is not None:
            self._proc.stdout.close()
