"""Spawning one untrusted bot inside bubblewrap, and making sure it dies.

Layers, outermost first (docs/sandbox.md explains each one):

* host uid: as root, the worker starts bwrap already switched to the slot's own
  unprivileged uid (``uid_base + slot``, :mod:`.slots`), so on the host every bot
  process belongs to a uid that can neither signal nor ptrace the worker,
  RLIMIT_NPROC counts only that slot, and cleanup can kill "everything of that
  uid" atomically (:mod:`.uids`);
* the slot's own empty network namespace, OOM priority, rlimits and the
  parent-death signal, set between fork and exec by the launcher, a small
  per-worker fork server (:mod:`.launcher`);
* bubblewrap (:mod:`.bwrap`): new user, mount, pid, network, ipc, uts and cgroup
  namespaces, no nested user namespaces, a tmpfs root with /usr read-only, the
  bot directory read-only, size-capped tmpfs home and /tmp, a cleared
  environment, a new session and no capabilities;
* the seccomp filter from :mod:`bots.sandbox.seccomp`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import resource
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import datadir
from .bwrap import (
    build_bwrap_argv,
    bwrap_features,
    slot_bwrap,
    static_etc,
    wrap_bot_command,
)
from .cgroups import CgroupLayout, SlotCgroup, cgroup_layout
from .cgroups import create as create_cgroup
from .launcher import SECCOMP_FDS, LaunchedProcess, default_launcher
from .libc import CLONE_NEWNET, PR_SET_PDEATHSIG, prctl, setns
from .policy import BOT_MOUNT, SandboxConfig, SandboxError, SandboxLimits
from .seccomp import cap_filter_pipe, filter_pipe
from .slots import (
    SlotAllocator,
    slot_network_namespace,
    slot_tmpfs,
    stage_bot_dir,
)
from .uids import SLOT_DRAIN_S, kill_uid, wait_uid_gone

logger = logging.getLogger(__name__)

#: How long :meth:`SandboxedProcess.kill` lets bwrap exit by itself after its
#: child was killed (then it waits up to ``SLOT_DRAIN_S`` for the slot to empty).
BWRAP_EXIT_WAIT_S = 1.0


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
        if netns_fd is not None and setns(netns_fd, CLONE_NEWNET) != 0:
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
        if prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0) != 0:
            os._exit(126)
        if os.getppid() != parent_pid:
            os._exit(126)

    return preexec


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
    #: The run's data tmpfs and the bot's kept data directory (see datadir).
    _data: tuple[datadir.DataMount, Path] | None = field(default=None, repr=False)
    _data_bytes: int = field(default=0, repr=False)
    _killed: bool = field(default=False, repr=False)
    #: After :meth:`kill`: whether nothing of the bot was left (its slot uid
    #: empty, its cgroup empty) when the slot was handed on. Judged while the
    #: slot is still held: afterwards another worker may run its own bot
    #: under the same uid at once.
    nothing_left: bool | None = field(default=None, repr=False)

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
        self.nothing_left = gone
        if self._staged is not None:
            shutil.rmtree(self._staged, ignore_errors=True)
            self._staged = None
        if self._data is not None:
            tmpfs, kept = self._data
            self._data = None
            # Only once nothing of the bot can change the tree any more, and
            # only from the tmpfs itself (a vanished one would read as empty).
            if not tmpfs.alive():
                logger.warning("sandbox: data directory %s not kept (lost)", kept)
            elif gone and not datadir.save(tmpfs.access, kept, limit=self._data_bytes):
                logger.warning(
                    "sandbox: data directory %s not kept (over its cap)", kept
                )
            tmpfs.release()
        if self._lock_fd is not None:
            SlotAllocator.release(self._lock_fd, clean=gone)
            self._lock_fd = None
        return rc


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
    data_dir: str | os.PathLike[str] | None = None,
) -> SandboxedProcess:
    """Start ``command`` inside the sandbox with piped stdin/stdout/stderr.

    ``command`` runs inside the sandbox, typically ``[interpreter, *args,
    "/bot/main.py"]``. ``data_dir``: the bot's kept data directory, offered
    writable at ``/home/bot/data`` and saved back when the sandbox is killed
    (see :mod:`.datadir`). Raises :class:`SandboxError` on any
    set-up failure; the descriptors and the slot are released on every path.
    """
    features = bwrap_features(config.bwrap_path)
    if not features.tmpfs_size:
        raise SandboxError(f"{features.version} lacks --size (need >= 0.7)")
    if not features.add_seccomp_fd:
        raise SandboxError(f"{features.version} lacks --add-seccomp-fd (need >= 0.7)")
    fds: dict[str, int] = {}
    slot = lock_fd = host_uid = staged = None
    cgroup: SlotCgroup | None = None
    data: tuple[datadir.DataMount, Path] | None = None
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
        if data_dir is not None:
            tmpfs: datadir.DataMount | None = None
            try:
                if host_uid is not None:
                    point = datadir.slot_data_mount(config, host_uid)
                    tmpfs = datadir.DataMount(bind=point, access=point)
                else:
                    tmpfs = datadir.shared_data_mount(config)
                datadir.load(Path(data_dir), tmpfs.access, host_uid)
            except (SandboxError, OSError) as exc:
                # The bot plays without its data (it sees no directory);
                # a worker that cannot mount must not stop every match.
                logger.warning("sandbox: no data directory for this bot: %s", exc)
                if tmpfs is not None:
                    tmpfs.release()
            else:
                data = (tmpfs, Path(data_dir))
                config = dataclasses.replace(
                    config,
                    rw_binds=(*config.rw_binds, (str(tmpfs.bind), datadir.DATA_DIR)),
                )
        fds["seccomp"] = filter_pipe()
        fds["seccomp_cap"] = cap_filter_pipe()
        command = wrap_bot_command(config, command)
        netns_fd = slot_network_namespace(host_uid) if host_uid is not None else None
        slot_mounts = (
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
            tmpfs_dirs=(slot_mounts[0][0], slot_mounts[1][0]) if slot_mounts else None,
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
            tmpfs=slot_mounts,
            cgroups=cgroup.procs_files if cgroup is not None else (),
            mounts=[str(data[0].bind)] if data is not None and data[0].shared else (),
        )
        proc = SandboxedProcess(
            popen=popen,
            sandboxed=True,
            slot=slot,
            host_uid=host_uid,
            cgroup=cgroup,
            _lock_fd=lock_fd,
            _staged=staged,
            _data=data,
            _data_bytes=config.limits.data_bytes,
        )
        lock_fd = staged = cgroup = data = None  # owned by proc now
        return proc
    finally:
        for fd in fds.values():
            os.close(fd)
        if staged is not None:
            shutil.rmtree(staged, ignore_errors=True)
        if cgroup is not None:
            cgroup.remove()
        if data is not None:
            data[0].release()
        if lock_fd is not None:
            SlotAllocator.release(lock_fd, clean=False)


def _host_path(part: str, mounts: list[tuple[str, str]]) -> str:
    """A sandbox path of the command as the host sees it (unsandboxed runs)."""
    for inside, host in mounts:
        if part == inside or part.startswith(f"{inside}/"):
            return host + part[len(inside) :]
    return part


def spawn_unsandboxed(
    config: SandboxConfig, *, bot_dir: str | os.PathLike[str], command: Sequence[str]
) -> SandboxedProcess:
    """Development-only: run the bot as a plain child with rlimits and nothing else.

    Reached only through the explicit ``allow_unsandboxed=True`` override, which
    production settings refuse. ``command`` is the same as for the sandbox; its
    ``/bot`` paths are rewritten to the real directory.
    """
    real = os.fspath(bot_dir)
    mounts = [(BOT_MOUNT, real), *((inside, host) for host, inside in config.ro_binds)]
    argv = [_host_path(part, mounts) for part in command]
    preexec = make_preexec(config.limits, host_uid=None, parent_pid=os.getpid())
    try:
        popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={
                "PATH": "/usr/bin:/bin",
                "LANG": "C.UTF-8",
                "HOME": real,
                **dict(config.env),
            },
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
