"""The processes of a slot's host uid: finding them, and killing them all.

A root worker runs each bot under its slot's own unprivileged host uid, so
"everything of that uid" is exactly what the bot left behind: these functions
find it (a /proc scan) and sweep it (``kill(-1)`` as the uid, atomically).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

#: How long :func:`wait_uid_gone` waits, by default, for a slot to empty.
SLOT_DRAIN_S = 10.0


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
