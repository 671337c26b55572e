"""A small fork server that starts the sandboxes of one worker process.

Why: starting bwrap needs a real ``fork()`` (the fork hook sets OOM priority,
joins the slot's network namespace, sets rlimits, drops to the slot uid and sets
the parent-death signal), and ``fork()`` costs in proportion to the forking
process's memory map. A Django/Celery worker is large: forking it cost about
10 ms per bot on our 2-core VM, a fifth of a whole bot match. The launcher is a
fresh, small Python process started once per worker process (with ``vfork``,
no hook), and it does the fork for each bot instead.

Trust: the launcher runs with the worker's privileges and listens only on one
end of a ``socketpair`` that the worker created; bots never get a descriptor of
it. When the worker process dies its end of the socket closes, and the launcher
kills every bwrap it started and exits; each bwrap also has the parent-death
signal towards the (single-threaded) launcher. So a worker killed mid-match
still takes its bots with it, and, unlike a parent-death signal set from the
worker, it does not matter which worker *thread* started a bot.

Protocol (``SOCK_SEQPACKET``, one JSON object per message). Worker to launcher:
``{"id", "argv", "uid", "rlimits", "netns", "nfds", "tmpfs", "cgroups", "mounts"}``
(``cgroups``: ``cgroup.procs`` files to join; ``tmpfs``: mount points and options
to mount in a private mount namespace) with the ``nfds``
descriptors the child gets as 0, 1, 2, ... (stdin, bwrap's stdout, stderr, the
bot's stdout, the seccomp programs) and then the network namespace attached, or
``{"kill": pid}``, or ``{"id", "mount": point, "options"}`` / ``{"id",
"umount": point}`` (a non-root worker's data directories, mounted in the
launcher's own user and mount namespace; ``mounts`` of a start names those
that must be mounted). Launcher to worker: ``{"id", "pid"}`` once bwrap has been
executed (``{"id", "error"}`` if not), and ``{"exit": pid, "code": returncode}``
when it reaps a child. Only the launcher signals its children, and only while
they are unreaped, so a recycled pid can never be hit.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

from .policy import SandboxError

#: Where the bot's stdout pipe and the seccomp programs are in bwrap's process
#: (see :meth:`Launcher.spawn`).
BOT_STDOUT_FD = 3
SECCOMP_FDS = (4, 5)

#: The launcher program: standard library only, started with ``-I -S``.
LAUNCHER_SOURCE = r"""
import ctypes, fcntl, json, os, resource, select, signal, socket, sys

PARENT = int(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1
CLONE_NEWNET = 0x40000000
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
MS_REC, MS_PRIVATE, MNT_DETACH = 16384, 1 << 18, 2
libc.mount.argtypes = (ctypes.c_char_p,) * 3 + (ctypes.c_ulong, ctypes.c_char_p)
libc.umount2.argtypes = (ctypes.c_char_p, ctypes.c_int)
# No parent-death signal here: it would fire when the worker *thread* that
# happened to start the launcher exits. The worker process's death is seen as
# EOF on the socket instead (below), which is process-wide.
if os.getppid() != PARENT:
    os._exit(1)
SELF = os.getpid()


def own_namespaces():
    # A user and mount namespace of the launcher's own (non-root workers): the
    # worker's uid and gid map to themselves, so nothing changes for bwrap
    # (it nests its user namespace in this one), but here the launcher may
    # mount tmpfs that outlive a bot: its data directories (datadir.py),
    # which the worker reaches through /proc/<launcher>/root.
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER|CLONE_NEWNS)")
    for name, text in (
        ("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
        ("gid_map", f"{gid} {gid} 1"),
    ):
        with open(f"/proc/self/{name}", "w") as fh:
            fh.write(text)
    if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        raise OSError(ctypes.get_errno(), "mount --make-rprivate /")


# Why data directories cannot be mounted here ("" when they can).
NO_MOUNTS = "the worker runs as root: it mounts data directories itself"
if len(sys.argv) > 3 and sys.argv[3] == "userns":
    # Tried in a throw-away child first: a half-made namespace here would
    # break every bot, a refused one only the data directories.
    probe = os.fork()
    if probe == 0:
        try:
            own_namespaces()
        except BaseException:
            os._exit(1)
        os._exit(0)
    _, probe_status = os.waitpid(probe, 0)
    if os.waitstatus_to_exitcode(probe_status) == 0:
        own_namespaces()
        NO_MOUNTS = ""
    else:
        NO_MOUNTS = "this host does not let the worker make a user namespace"
mounted = set()
sock = socket.socket(fileno=int(sys.argv[2]))
wake_r, wake_w = os.pipe()
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda *_: None)
children = set()


def send(message):
    sock.send(json.dumps(message).encode())


def reap():
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        send({"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def child(req, fds, err_w):
    try:
        fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
        os.write(fd, b"1000")
        os.close(fd)
        nfds = req["nfds"]
        if req["netns"] and libc.setns(fds[nfds], CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns")
        # Descriptors: first out of the way (>= 100), then onto 0..nfds-1, the
        # rest closed.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 100) for fd in fds[:nfds]]
        err_w = fcntl.fcntl(err_w, fcntl.F_DUPFD_CLOEXEC, 100)
        for target, source in enumerate(high):
            os.dup2(source, target, inheritable=True)
        os.closerange(nfds, err_w)
        os.closerange(err_w + 1, max(1 << 16, os.sysconf("SC_OPEN_MAX")))
        for procs in req["cgroups"]:
            # Join the bot's own cgroup first: bwrap, the bot and the tmpfs
            # pages below are all charged to it.
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)
        if req["tmpfs"]:
            # A private mount namespace for this bwrap: tmpfs with nr_inodes,
            # which bwrap's own --tmpfs cannot set (see slots.slot_tmpfs).
            if libc.unshare(CLONE_NEWNS) != 0:
                raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
            if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
                raise OSError(ctypes.get_errno(), "mount --make-rprivate /")
            for point, options in req["tmpfs"]:
                if libc.mount(b"tmpfs", point.encode(), b"tmpfs",
                              MS_NOSUID | MS_NODEV, options.encode()) != 0:
                    raise OSError(ctypes.get_errno(), f"mount tmpfs on {point}")
        os.setpgid(0, 0)
        os.chdir("/")
        for which, soft, hard in req["rlimits"]:
            cur_hard = resource.getrlimit(which)[1]
            if cur_hard != resource.RLIM_INFINITY:
                hard = min(hard, cur_hard)
                soft = min(soft, hard)
            resource.setrlimit(which, (soft, hard))
        uid = req["uid"]
        if uid is not None:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl")
        if os.getppid() != SELF:
            os._exit(127)
        os.execve(req["argv"][0], req["argv"], {})
    except BaseException as exc:
        try:
            os.write(err_w, repr(exc).encode()[:1000])
        finally:
            os._exit(127)


def data_mount(req):
    point = req["mount"]
    if NO_MOUNTS:
        return {"id": req["id"], "error": NO_MOUNTS}
    flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    if libc.mount(b"tmpfs", point.encode(), b"tmpfs", flags,
                  req["options"].encode()) != 0:
        err = ctypes.get_errno()
        return {"id": req["id"], "error": f"mount tmpfs: {os.strerror(err)}"}
    mounted.add(point)
    return {"id": req["id"], "root": f"/proc/{SELF}/root"}


def data_umount(req):
    point = req["umount"]
    if point in mounted:
        mounted.discard(point)
        libc.umount2(point.encode(), MNT_DETACH)
    return {"id": req["id"], "ok": True}


def spawn(req, fds):
    missing = [p for p in req.get("mounts", ()) if p not in mounted]
    if missing:
        # Never bind a bare directory of the host's disk as a data directory.
        send({"id": req["id"], "error": f"not mounted here: {missing}"})
        return
    err_r, err_w = os.pipe2(os.O_CLOEXEC)
    pid = os.fork()
    if pid == 0:
        os.close(err_r)
        child(req, fds, err_w)
    children.add(pid)
    os.close(err_w)
    error = b""
    while chunk := os.read(err_r, 1024):
        error += chunk
    os.close(err_r)
    if error:
        children.discard(pid)
        os.waitpid(pid, 0)
        send({"id": req["id"], "error": error.decode(errors="replace")})
    else:
        send({"id": req["id"], "pid": pid})


while True:
    ready, _, _ = select.select([sock, wake_r], [], [])
    if wake_r in ready:
        os.read(wake_r, 4096)
        reap()
    if sock not in ready:
        continue
    data, fds, _flags, _addr = socket.recv_fds(sock, 65536, 8)
    if not data:  # the worker is gone (or done): take every sandbox with it
        for pid in children:
            os.kill(pid, signal.SIGKILL)
        os._exit(0)
    try:
        req = json.loads(data)
        if "kill" in req:
            if req["kill"] in children:
                os.kill(req["kill"], signal.SIGKILL)
        elif "mount" in req:
            send(data_mount(req))
        elif "umount" in req:
            send(data_umount(req))
        elif "mount_support" in req:
            send({"id": req["id"], "reason": NO_MOUNTS})
        else:
            spawn(req, fds)
    finally:
        for fd in fds:
            os.close(fd)
    reap()
"""


class LaunchedProcess:
    """The part of ``subprocess.Popen`` the sandbox uses, for a launcher child."""

    def __init__(
        self,
        launcher: Launcher,
        pid: int,
        pipes: tuple[IO[bytes], IO[bytes], IO[bytes]],
        generation: int,
    ) -> None:
        self._launcher = launcher
        self._generation = generation
        self.pid = pid
        self.stdin: IO[bytes] | None = pipes[0]
        self.stdout: IO[bytes] | None = pipes[1]
        self.stderr: IO[bytes] | None = pipes[2]
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._launcher.exit_code(
                self.pid, self._generation, timeout=0
            )
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            code = self._launcher.exit_code(self.pid, self._generation, timeout=timeout)
            if code is None:
                raise subprocess.TimeoutExpired("bwrap", timeout or 0)
            self.returncode = code
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            self._launcher.kill(self.pid, self._generation)


class Launcher:
    """Client side: one launcher process per worker process, started lazily."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        #: Incremented for every launcher started: children of an earlier one
        #: are gone with it (parent-death signal) and count as killed.
        self._generation = 0
        self._reset()

    def _reset(self) -> None:
        self._reading = False
        self._sock: socket.socket | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._dead = False
        self._next_id = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self._exits: dict[int, int] = {}

    def after_fork_in_child(self) -> None:
        """A forked worker must not share its parent's launcher: drop it."""
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
        self._cond = threading.Condition()  # the parent's may be held by a thread
        self._generation += 1
        self._reset()

    def _started(self) -> socket.socket:
        """Return the socket to a running launcher, starting one if needed.

        Called with the condition held. A launcher that died is replaced; its
        children died with it.
        """
        if self._sock is not None and not self._dead:
            return self._sock
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._reset()
            self._cond.notify_all()
        self._generation += 1
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", LAUNCHER_SOURCE,
                 str(os.getpid()), str(theirs.fileno()),
                 "userns" if os.geteuid() != 0 else "root"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                env={},
            )  # fmt: skip
        except OSError as exc:
            ours.close()
            raise SandboxError(f"could not start the sandbox launcher: {exc}") from exc
        finally:
            theirs.close()
        self._sock = ours
        return ours

    def spawn(
        self,
        argv: Sequence[str],
        *,
        seccomp_fds: Sequence[int],
        netns_fd: int | None,
        uid: int | None,
        rlimits: Sequence[tuple[int, int, int]],
        tmpfs: Sequence[tuple[str, str]] = (),
        cgroups: Sequence[str] = (),
        mounts: Sequence[str] = (),
    ) -> LaunchedProcess:
        """Start ``argv`` and return its process.

        The child gets stdin, stdout and stderr as 0-2, the bot's stdout pipe as
        3 and ``seccomp_fds`` from 4 on (``SECCOMP_FDS``, named in ``argv``).
        The bot's stdout pipe is the child's descriptor 3, not 1: bwrap's
        monitor process keeps its own 0-2 open for the sandbox's whole life but
        closes every higher descriptor, so only the bot holds the pipe's write
        end, and a bot that closes its stdout is seen at once as EOF
        (``BOT_STDOUT_FD``; the command moves it onto 1 inside the sandbox).
        bwrap's own stdout is the stderr pipe. ``mounts``: data directories
        (:meth:`mount_tmpfs`) the launcher must hold, or it refuses to start.
        """
        in_r, in_w = os.pipe2(os.O_CLOEXEC)
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        ours = (in_w, out_r, err_r)
        child_fds = [in_r, err_w, err_w, out_w, *seccomp_fds]
        nfds = len(child_fds)
        if netns_fd is not None:
            child_fds.append(netns_fd)
        try:
            with self._cond:
                sock = self._started()
                self._next_id += 1
                request_id = self._next_id
                request = {
                    "id": request_id,
                    "argv": list(argv),
                    "uid": uid,
                    "rlimits": [list(limit) for limit in rlimits],
                    "netns": netns_fd is not None,
                    "nfds": nfds,
                    "tmpfs": [list(pair) for pair in tmpfs],
                    "cgroups": list(cgroups),
                    "mounts": list(mounts),
                }
                generation = self._generation
                try:
                    socket.send_fds(sock, [json.dumps(request).encode()], child_fds)
                except OSError as exc:
                    self._dead = True
                    raise SandboxError(f"the sandbox launcher is gone: {exc}") from exc
            reply = self._await(
                lambda: self._replies.pop(request_id, None), generation, None
            )
            if reply is None or "error" in reply:
                detail = reply["error"] if reply else "the launcher exited"
                raise SandboxError(f"could not start bubblewrap: {detail}")
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in (in_r, out_w, err_w):
                os.close(fd)
        pipes = (
            os.fdopen(in_w, "wb", buffering=0),
            os.fdopen(out_r, "rb", buffering=0),
            os.fdopen(err_r, "rb", buffering=0),
        )
        return LaunchedProcess(self, int(reply["pid"]), pipes, generation)

    def _request(self, message: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """Send ``message`` (a new ``id`` added) and wait for its reply."""
        with self._cond:
            sock = self._started()
            self._next_id += 1
            request_id = self._next_id
            generation = self._generation
            try:
                sock.send(json.dumps({**message, "id": request_id}).encode())
            except OSError as exc:
                self._dead = True
                raise SandboxError(f"the sandbox launcher is gone: {exc}") from exc
        reply = self._await(lambda: self._replies.pop(request_id, None), generation, 30)
        if reply is None:
            raise SandboxError("the sandbox launcher did not answer")
        return reply, generation

    def mount_tmpfs(self, point: str, options: str) -> tuple[str, int]:
        """Mount a tmpfs on ``point`` in the launcher's own mount namespace
        (non-root workers; see datadir). Returns the prefix through which this
        process reaches it (``/proc/<launcher>/root``) and the launcher's
        generation (a launcher that is replaced takes its mounts with it)."""
        reply, generation = self._request({"mount": point, "options": options})
        if "error" in reply:
            raise SandboxError(f"cannot mount the data tmpfs: {reply['error']}")
        return str(reply["root"]), generation

    def mount_support(self) -> str:
        """Why this launcher cannot mount data directories ("" if it can)."""
        reply, _generation = self._request({"mount_support": True})
        return str(reply.get("reason", ""))

    def umount(self, point: str, generation: int) -> None:
        """Unmount a :meth:`mount_tmpfs` (a replaced launcher's are gone)."""
        with self._cond:
            if generation != self._generation or self._dead:
                return
        with contextlib.suppress(SandboxError):
            self._request({"umount": point})

    def kill(self, pid: int, generation: int) -> None:
        """Have the launcher SIGKILL its child ``pid`` if it is not reaped yet."""
        with self._cond:
            if (
                generation == self._generation
                and self._sock is not None
                and not self._dead
            ):
                with contextlib.suppress(OSError):
                    self._sock.send(json.dumps({"kill": pid}).encode())

    def exit_code(
        self, pid: int, generation: int, *, timeout: float | None
    ) -> int | None:
        """The child's return code, waiting up to ``timeout`` (None: forever).

        If its launcher is gone, so is the child (parent-death signal): it
        counts as killed.
        """
        code: int | None = self._await(
            lambda: self._exits.pop(pid, None), generation, timeout, lost=-9
        )
        return code

    def _await(
        self,
        take: Callable[[], Any],
        generation: int,
        timeout: float | None,
        lost: Any = None,
    ) -> Any:
        """Wait until ``take()`` finds its message, reading the socket meanwhile.

        One thread reads at a time; the others wait on the condition and look
        again after each message.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                if generation != self._generation:
                    return lost
                found = take()
                if found is not None:
                    return found
                if self._dead:
                    return lost
                remaining = None if deadline is None else deadline - time.monotonic()
                if self._reading:
                    if remaining is not None and remaining <= 0:
                        return None
                    self._cond.wait(remaining)
                    continue
                self._reading = True
                sock = self._sock
                self._cond.release()
                try:
                    # A zero timeout still reads whatever is already there.
                    wait = None if remaining is None else max(0.0, remaining)
                    message = _receive(sock, wait)
                finally:
                    self._cond.acquire()
                    if generation == self._generation:
                        self._reading = False  # (a restart has reset it already)
                    self._cond.notify_all()
                if generation != self._generation:
                    continue  # the launcher was replaced meanwhile
                if message is None:  # timed out: one last look, then give up
                    return take()
                if message == {}:
                    self._dead = True
                elif "exit" in message:
                    self._exits[int(message["exit"])] = int(message["code"])
                else:
                    self._replies[int(message["id"])] = message


def _receive(
    sock: socket.socket | None, timeout: float | None
) -> dict[str, Any] | None:
    """One message, ``None`` on timeout, ``{}`` when the launcher is gone."""
    if sock is None:
        return {}
    try:
        ready, _, _ = select.select([sock], [], [], timeout)
        if not ready:
            return None
        data = sock.recv(65536)
    except (OSError, ValueError):  # closed under us: the launcher is gone
        return {}
    return json.loads(data) if data else {}


_launcher = Launcher()
os.register_at_fork(after_in_child=_launcher.after_fork_in_child)


def default_launcher() -> Launcher:
    """The worker process's launcher (a forked child gets its own)."""
    return _launcher
