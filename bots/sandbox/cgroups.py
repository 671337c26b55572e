"""A cgroup per sandbox slot: memory, processes and CPU capped per bot as a whole.

rlimits are per process: ten children of one bot could hold ten times
RLIMIT_AS, and fourteen spinning children took 1.5x the CPU of the host's other
matches. A root worker therefore puts each bot (bwrap and everything it starts)
into a cgroup of its own, created when the bot starts and removed when every
process of it is gone:

* ``memory``: ``memory.max`` (v2) / ``memory.limit_in_bytes`` (v1) for all its
  processes together, swap included where the kernel accounts it; the kernel's
  OOM killer then acts inside the bot's cgroup only;
* ``pids``: ``pids.max``, every process and thread of the bot together;
* ``cpu``: at most ``cpu_cores`` CPUs (``cpu.max`` / CFS quota), and the whole
  bot competes for CPU as one ordinary process does (its own scheduling group
  with the default ``cpu.weight`` / ``cpu.shares``).

Where the cgroups come from:

* **v2** (unified hierarchy, the default on current distributions): the slot
  cgroups live under ``SandboxConfig.cgroup_parent`` when set (a delegated
  cgroup without processes, e.g. from systemd's ``Delegate=yes``), otherwise
  in ``kungfu-arena-sandbox`` created beside the worker's own cgroup (a cgroup
  with processes cannot hand controllers to children, the "no internal
  processes" rule). It needs ``memory``, ``pids`` and ``cpu`` enabled there;
* **v1** (separate hierarchies per controller, as on this project's
  development VM): ``kungfu-arena-sandbox/uid-<uid>`` inside the worker's own
  cgroup of each controller, so whatever limits the worker itself is under
  still apply to its bots.

When neither is usable (non-root worker, read-only ``/sys/fs/cgroup``, missing
controllers) the sandbox falls back to the per-process limits, and the
self-test says so in its ``cgroups`` field: RLIMIT_AS x RLIMIT_NPROC bounds a
bot's memory, RLIMIT_CPU its total CPU, the OOM score makes the kernel take bots
first, and the container's own memory limit caps all bots together
(docs/sandbox.md).
"""

from __future__ import annotations

import contextlib
import errno
import os
from dataclasses import dataclass
from pathlib import Path

from .policy import SandboxConfig, SandboxError

#: Name of the directory that holds the slot cgroups.
GROUP_NAME = "kungfu-arena-sandbox"
CONTROLLERS = ("memory", "pids", "cpu")
#: cpu.weight (v2) and cpu.shares (v1) of a bot: the defaults, i.e. a whole bot,
#: however many processes it runs, weighs as much as one ordinary process of the
#: platform. (Half of that was measured to slow bot starts under load by a
#: further ~10 ms for no gain the quota does not already give.)
CPU_WEIGHT = 100
CPU_SHARES = 1024
CFS_PERIOD_US = 100_000


@dataclass(frozen=True)
class CgroupLayout:
    """Where this worker creates slot cgroups: ``version`` 1 or 2, and per
    controller (v1) or once (v2, key ``""``) the parent directory."""

    version: int
    parents: dict[str, str]

    def describe(self) -> str:
        return f"v{self.version} ({', '.join(CONTROLLERS)})"


def _own_cgroups() -> dict[str, str]:
    """Controller (``""`` for v2) -> this process's cgroup path."""
    own: dict[str, str] = {}
    with open("/proc/self/cgroup") as fh:
        for line in fh:
            _id, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                own[name] = path
    return own


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(mount point, root within the hierarchy, fstype, options) of cgroups."""
    found = []
    with open("/proc/self/mountinfo") as fh:
        for line in fh:
            left, _, right = line.partition(" - ")
            fields, rest = left.split(), right.split()
            if rest and rest[0] in ("cgroup", "cgroup2"):
                options = set(rest[2].split(",")) if len(rest) > 2 else set()
                found.append((fields[4], fields[3], rest[0], options))
    return found


def _join(mount: str, root: str, path: str) -> Path:
    """The directory of cgroup ``path`` (as /proc/self/cgroup names it)."""
    if root != "/" and path.startswith(root):
        path = path[len(root) :]
    return Path(mount) / path.lstrip("/")


def detect(config: SandboxConfig) -> CgroupLayout | str:
    """The layout to use, or why there is none (the fallback is then in force)."""
    if os.geteuid() != 0:
        return "unavailable: the worker is not root"
    if not config.use_cgroups:
        return "unavailable: disabled in the sandbox configuration"
    try:
        own = _own_cgroups()
        mounts = _mounts()
    except OSError as exc:
        return f"unavailable: {exc}"
    v1 = {}
    for mount, root, fstype, options in mounts:
        if fstype == "cgroup":
            for name in CONTROLLERS:
                if name in options and name in own:
                    v1[name] = str(_join(mount, root, own[name]) / GROUP_NAME)
    if len(v1) == len(CONTROLLERS):
        return _checked(CgroupLayout(version=1, parents=v1))
    v2_mount = next((m for m in mounts if m[2] == "cgroup2"), None)
    if v2_mount is None or "" not in own:
        return "unavailable: no cgroup v2 hierarchy and no v1 memory/pids/cpu"
    mount, root, _fstype, _options = v2_mount
    if config.cgroup_parent:
        parent = Path(config.cgroup_parent)
    else:
        here = _join(mount, root, own[""])
        if here == Path(mount):
            return (
                "unavailable: the worker is in the root of its cgroup v2 tree; set "
                "BOT_SANDBOX_CGROUP to a delegated cgroup"
            )
        parent = here.parent / GROUP_NAME
    try:
        available = (parent.parent / "cgroup.controllers").read_text().split()
    except OSError as exc:
        return f"unavailable: {exc}"
    missing = [c for c in CONTROLLERS if c not in available]
    if missing:
        return f"unavailable: cgroup v2 controllers {missing} not delegated"
    return _checked(CgroupLayout(version=2, parents={"": str(parent)}))


def _checked(layout: CgroupLayout) -> CgroupLayout | str:
    """Create the parents (v2: and enable the controllers) or say why not."""
    try:
        for parent in layout.parents.values():
            _prepare_parent(layout, Path(parent))
    except OSError as exc:
        return f"unavailable: cannot prepare {parent}: {exc}"
    return layout


def _prepare_parent(layout: CgroupLayout, parent: Path) -> None:
    """The parent exists and (v2) hands memory, pids and cpu to its children."""
    parent.mkdir(mode=0o755, exist_ok=True)
    if layout.version == 2:
        control = parent / "cgroup.subtree_control"
        enabled = control.read_text().split()
        wanted = [c for c in CONTROLLERS if c not in enabled]
        if wanted:
            control.write_text(" ".join(f"+{c}" for c in wanted))


@dataclass
class SlotCgroup:
    """The cgroup(s) of one running bot; :meth:`remove` once it is all gone."""

    layout: CgroupLayout
    dirs: list[str]

    @property
    def procs_files(self) -> list[str]:
        """Files the launcher's child writes ``0`` to, joining before bwrap."""
        return [str(Path(d) / "cgroup.procs") for d in self.dirs]

    def dir(self, controller: str) -> Path:
        if self.layout.version == 2:
            return Path(self.dirs[0])
        return Path(self.dirs[CONTROLLERS.index(controller)])

    def memory_peak(self) -> int | None:
        """Highest memory use of the bot so far, in bytes (None if unknown)."""
        name = (
            "memory.peak" if self.layout.version == 2 else "memory.max_usage_in_bytes"
        )
        with contextlib.suppress(OSError, ValueError):
            return int((self.dir("memory") / name).read_text())
        return None

    def empty(self) -> bool:
        for d in self.dirs:
            with contextlib.suppress(OSError):
                if (Path(d) / "cgroup.procs").read_text().strip():
                    return False
        return True

    def remove(self) -> None:
        """rmdir the cgroups (only possible once empty); never raises."""
        for d in self.dirs:
            with contextlib.suppress(OSError):
                os.rmdir(d)
            # The shared parent goes too when no other slot uses it, so nothing
            # of the sandbox stays in the host's cgroup tree after the worker.
            with contextlib.suppress(OSError):
                os.rmdir(Path(d).parent)


def create(layout: CgroupLayout, config: SandboxConfig, uid: int) -> SlotCgroup:
    """Make the slot's cgroup(s) for host ``uid`` with the bot's limits."""
    limits = config.limits
    quota = max(1000, int(limits.cpu_cores * CFS_PERIOD_US))
    dirs: list[str] = []
    try:
        if layout.version == 2:
            slot = Path(layout.parents[""]) / f"uid-{uid}"
            _fresh(layout, slot)
            dirs.append(str(slot))
            _write(slot / "memory.max", limits.memory_bytes)
            _write(slot / "memory.swap.max", 0, optional=True)
            _write(slot / "pids.max", limits.max_processes)
            _write(slot / "cpu.max", f"{quota} {CFS_PERIOD_US}")
            _write(slot / "cpu.weight", CPU_WEIGHT)
        else:
            for name in CONTROLLERS:
                slot = Path(layout.parents[name]) / f"uid-{uid}"
                _fresh(layout, slot)
                dirs.append(str(slot))
            memory, pids, cpu = (Path(d) for d in dirs)
            _write(memory / "memory.limit_in_bytes", limits.memory_bytes)
            _write(memory / "memory.memsw.limit_in_bytes", limits.memory_bytes,
                   optional=True)  # fmt: skip
            _write(pids / "pids.max", limits.max_processes)
            _write(cpu / "cpu.cfs_period_us", CFS_PERIOD_US)
            _write(cpu / "cpu.cfs_quota_us", quota)
            _write(cpu / "cpu.shares", CPU_SHARES)
    except OSError as exc:
        SlotCgroup(layout, dirs).remove()
        raise SandboxError(f"cannot set up the bot's cgroup: {exc}") from exc
    return SlotCgroup(layout, dirs)


def _fresh(layout: CgroupLayout, path: Path) -> None:
    """A new, empty cgroup at ``path`` (one left by a crashed worker is reused
    only if empty; a cgroup with processes in it is a slot still in use).

    Another worker process may remove the shared parent in between (when its
    own last bot is gone), so the parent is prepared again and retried.
    """
    for attempt in range(3):
        _prepare_parent(layout, path.parent)
        try:
            path.mkdir(mode=0o755)
        except FileNotFoundError:
            if attempt == 2:
                raise
            continue
        except FileExistsError:
            if (path / "cgroup.procs").read_text().strip():
                raise OSError(errno.EBUSY, f"{path} still has processes") from None
        return


def _write(path: Path, value: object, *, optional: bool = False) -> None:
    try:
        path.write_text(str(value))
    except FileNotFoundError:
        if not optional:
            raise
    except OSError as exc:
        # memsw must be set after (and not below) the memory limit; a kernel
        # without swap accounting refuses it: the memory limit still holds.
        if not optional:
            raise
        del exc


_cgroup_layouts: dict[SandboxConfig, CgroupLayout | str] = {}


def cgroup_layout(config: SandboxConfig) -> CgroupLayout | str:
    """Where this worker makes slot cgroups, or why it cannot (detected once)."""
    layout = _cgroup_layouts.get(config)
    if layout is None:
        layout = _cgroup_layouts[config] = detect(config)
    return layout
