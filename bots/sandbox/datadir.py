"""A bot's data directory: kept between its matches, private, size-capped.

Inside the sandbox a bot may write ``/home/bot/data`` (``DATA_DIR``) and finds
there, at its next start, what it left at the end of its previous run. On the
host the kept copy is a plain directory of the worker's (``store``: under
``MEDIA_ROOT/bot-data/<bot id>/``, never served, never mounted anywhere).

During a run the bot does not write to that copy. A root worker mounts one
tmpfs per slot **in its own mount namespace** (``size`` = the cap, a small
``nr_inodes``, ``nosuid,nodev,noexec``, owned by the slot uid), fills it from
the kept copy, and bwrap binds it writable at ``DATA_DIR``. The cap is the
file system's: a bot that writes more gets ``ENOSPC``, the host's disk never
sees it. When the bot is gone (every process of the slot dead, so nothing can
change the tree any more), the worker copies it back without following a
single link: ``os.fwalk`` with directory descriptors, ``O_NOFOLLOW`` opens,
regular files only, the total capped again, into a fresh directory that then
replaces the kept copy (so a crash half-way keeps the old one). Then the tmpfs
is emptied for the slot's next bot.

A non-root worker cannot mount in its own namespaces, but its launcher
(launcher.py) runs in a user and mount namespace of its own, where the
worker's uid maps to itself: there the launcher mounts the same capped tmpfs
for each run (``shared_data_mount``), bwrap (nested in that namespace) binds
it, and the worker fills it and copies it back through
``/proc/<launcher>/root`` (the launcher's view of the file system), checking
each time that the path is that tmpfs and not the bare directory under it.
On a host that refuses the launcher a user namespace the bot plays without
its data directory (absent, so a bot can tell) and the worker logs why.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import itertools
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .launcher import default_launcher
from .libc import MS_NODEV, MS_NOEXEC, MS_NOSUID, mount
from .policy import SandboxConfig, SandboxError
from .slots import private_dir

#: Where the bot finds its data directory inside the sandbox.
DATA_DIR = "/home/bot/data"
#: Files and directories a data directory may hold.
DATA_INODES = 512


def _is_mount(path: Path) -> bool:
    return os.path.ismount(path)


def slot_data_mount(config: SandboxConfig, host_uid: int) -> Path:
    """The slot's data tmpfs, mounted once (root workers) and empty."""
    point = Path(config.lock_dir) / f"data-{host_uid}"
    if not point.is_dir():
        point.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not _is_mount(point):
        options = (
            f"size={config.limits.data_bytes},nr_inodes={DATA_INODES},"
            f"mode=0700,uid={host_uid},gid={host_uid}"
        ).encode()
        flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
        if mount(b"tmpfs", str(point).encode(), b"tmpfs", flags, options) != 0:
            errno = ctypes.get_errno()
            raise SandboxError(f"cannot mount the data tmpfs: {os.strerror(errno)}")
    empty(point)
    os.chown(point, host_uid, host_uid)
    os.chmod(point, 0o700)
    return point


@dataclass
class DataMount:
    """A run's data tmpfs: ``bind`` is what bwrap binds (a path of the mount
    namespace it starts in), ``access`` the same tmpfs as the worker reaches
    it. Root workers: the slot's tmpfs, both the same path, emptied after the
    run. Non-root workers: mounted by the launcher for this run and unmounted
    after it (``generation``: the launcher's)."""

    bind: Path
    access: Path
    generation: int | None = None

    @property
    def shared(self) -> bool:
        return self.generation is not None

    def alive(self) -> bool:
        """Whether ``access`` still is the tmpfs (not the bare directory
        under it, which it becomes if the launcher died meanwhile)."""
        if not self.shared:
            return True
        try:
            return os.stat(self.access).st_dev != os.stat(self.bind).st_dev
        except OSError:
            return False

    def release(self) -> None:
        if not self.shared:
            empty(self.access)
            return
        assert self.generation is not None
        default_launcher().umount(str(self.bind), self.generation)
        # Still a mount point (a launcher that did not answer): left there.
        with contextlib.suppress(OSError):
            self.bind.rmdir()


_run_numbers = itertools.count()


def data_dir_unavailable() -> str:
    """Why bots started by this worker process get no data directory ("" when
    they get one): root workers mount them themselves; others need their
    launcher's user namespace."""
    if os.geteuid() == 0:
        return ""
    try:
        return default_launcher().mount_support()
    except SandboxError as exc:
        return str(exc)


def shared_data_mount(config: SandboxConfig) -> DataMount:
    """A non-root worker's data tmpfs for one run, mounted by its launcher."""
    base = Path(tempfile.gettempdir()) / f"kungfu-arena-sandbox-{os.geteuid()}"
    private_dir(base)
    point = base / f"data-{os.getpid()}-{next(_run_numbers)}"
    shutil.rmtree(point, ignore_errors=True)
    point.mkdir(mode=0o700)
    options = (
        f"size={config.limits.data_bytes},nr_inodes={DATA_INODES},"
        f"mode=0700,uid={os.geteuid()},gid={os.getegid()}"
    )
    try:
        root, generation = default_launcher().mount_tmpfs(str(point), options)
    except SandboxError:
        point.rmdir()
        raise
    found = DataMount(bind=point, access=Path(root + str(point)), generation=generation)
    if not found.alive():
        found.release()
        raise SandboxError("the data tmpfs is not where the launcher mounted it")
    return found


def empty(point: Path) -> None:
    """Remove everything inside ``point`` (never following links)."""
    for entry in os.scandir(point):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            os.unlink(entry.path)


def load(kept: Path, point: Path, host_uid: int | None) -> None:
    """Copy the kept tree into the slot's tmpfs, owned by the slot uid (or,
    ``None``, by the worker's, which is the bot's in shared-uid mode)."""
    if not kept.is_dir():
        return
    _copy_tree(kept, point, limit=1 << 62, owner=host_uid)


@contextlib.contextmanager
def _kept_lock(kept: Path) -> Iterator[None]:
    """Hold ``kept``'s lock: one bot may end several runs at once (both seats
    of a match against itself, matches on several workers), and two swaps
    into one directory at the same time fail (the second rename finds the
    first's tree in place). ``flock`` on a file beside it, so threads and
    worker processes alike take turns."""
    fd = os.open(
        kept.with_name(f".{kept.name}.lock"),
        os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
        0o600,
    )
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def save(point: Path, kept: Path, *, limit: int) -> bool:
    """Copy the slot's tmpfs back into ``kept`` (replacing it); False, and
    the kept copy unchanged, if the tree is over ``limit`` or unreadable.
    Runs that end at once each replace the whole tree, one after the other:
    the last one's stays."""
    kept.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fresh = kept.with_name(f".{kept.name}.new.{secrets.token_hex(6)}")
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir(mode=0o700)
    try:
        _copy_tree(point, fresh, limit=limit, owner=None)
    except (OSError, SandboxError):
        shutil.rmtree(fresh, ignore_errors=True)
        return False
    old = kept.with_name(f".{kept.name}.old.{secrets.token_hex(6)}")
    with _kept_lock(kept):
        if kept.exists():
            os.rename(kept, old)
        os.rename(fresh, kept)
    shutil.rmtree(old, ignore_errors=True)
    return True


def wipe(kept: Path) -> None:
    """Forget a bot's data (a new version, unless its owner keeps it)."""
    if not kept.parent.is_dir():
        return  # the bot never kept anything
    with _kept_lock(kept):
        shutil.rmtree(kept, ignore_errors=True)


def _copy_tree(source: Path, dest: Path, *, limit: int, owner: int | None) -> None:
    """Copy regular files and directories only; never follow a link."""
    total = 0
    for dirpath, dirnames, filenames, dirfd in os.fwalk(source, follow_symlinks=False):
        relative = Path(dirpath).relative_to(source)
        target_dir = dest / relative
        for name in dirnames:
            info = os.stat(name, dir_fd=dirfd, follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode):
                (target_dir / name).mkdir(mode=0o700)
                if owner is not None:
                    os.chown(target_dir / name, owner, owner)
        for name in filenames:
            try:
                # O_NONBLOCK: opening a FIFO must not wait for a writer.
                flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                fd = os.open(name, flags, dir_fd=dirfd)
            except OSError:
                continue  # a symlink (ELOOP) or a special file: not kept
            with os.fdopen(fd, "rb") as fin:
                info = os.fstat(fin.fileno())
                if not stat.S_ISREG(info.st_mode):
                    continue
                total += info.st_size
                if total > limit:
                    raise SandboxError("the data directory is over its cap")
                data = fin.read(info.st_size)
            target = target_dir / name
            with open(target, "xb") as fout:
                fout.write(data)
            os.chmod(target, 0o600)
            if owner is not None:
                os.chown(target, owner, owner)
