"""Hostile bots that try to reach the network, the host's files, secrets or the
worker. Each action must fail inside the sandbox; the bot reports the failure and
the worker carries on (teardown also checks that no bot process survives)."""

from __future__ import annotations

import os
import signal
import socket
from pathlib import Path

import pytest

from .conftest import StartBot, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.sandbox]

PROJECT_ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("port", [6379, 5432], ids=["redis", "postgresql"])
def test_cannot_connect_to_local_services(start_bot: StartBot, port: int) -> None:
    bot = start_bot(
        """
        import socket
        port = read()["port"]
        def connect():
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return "connected"
        answer(attempt(connect))
        """
    )
    reply = bot.handshake({"port": port})
    assert reply["ok"] is False, reply
    assert "Operation not permitted" in reply["error"]


@pytest.mark.parametrize("family", ["AF_INET", "AF_INET6", "AF_NETLINK", "AF_PACKET"])
def test_cannot_create_non_unix_sockets(start_bot: StartBot, family: str) -> None:
    bot = start_bot(
        """
        import socket
        family = getattr(socket, read()["family"])
        answer(attempt(lambda: socket.socket(family, socket.SOCK_STREAM
                                             if family in (socket.AF_INET,
                                                           socket.AF_INET6)
                                             else socket.SOCK_RAW).fileno()))
        """
    )
    reply = bot.handshake({"family": family})
    assert reply["ok"] is False, reply


def test_unix_sockets_work_but_host_sockets_are_invisible(start_bot: StartBot) -> None:
    host_socket = "/var/run/postgresql/.s.PGSQL.5432"
    bot = start_bot(
        """
        import socket
        path = read()["path"]
        def connect():
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            return "connected"
        a, b = socket.socketpair()  # local AF_UNIX stays usable
        answer({"exists": os.path.exists(path),
                "run": os.path.exists("/run") or os.path.exists("/var/run"),
                "connect": attempt(connect), "pair": a.fileno() > 0})
        """
    )
    reply = bot.handshake({"path": host_socket})
    assert reply["exists"] is False and reply["run"] is False
    assert reply["connect"]["ok"] is False
    assert reply["pair"] is True


def test_host_passwd_and_shadow_do_not_leak(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        answer({"passwd": attempt(lambda: open("/etc/passwd").read()),
                "shadow": attempt(lambda: open("/etc/shadow").read()),
                "etc": os.listdir("/etc")})
        """
    )
    reply = bot.handshake({})
    host_passwd = Path("/etc/passwd").read_text()
    assert "root:" in host_passwd  # the host does have one
    assert reply["passwd"]["ok"] is True
    assert "root:" not in reply["passwd"]["result"]
    assert reply["passwd"]["result"] != host_passwd
    assert reply["shadow"]["ok"] is False
    assert set(reply["etc"]) <= {"passwd", "group", "ld.so.cache"}


def test_project_tree_settings_and_env_file_are_invisible(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        root = read()["root"]
        answer({
            "listdir": attempt(lambda: os.listdir(root)),
            "work": attempt(lambda: os.listdir("/work")),
            "root_home": attempt(lambda: os.listdir("/root")),
            "pyproject": attempt(lambda: open(root + "/pyproject.toml").read()),
            "env": attempt(lambda: open(root + "/.env").read()),
            "settings": attempt(lambda: os.listdir(root + "/config")),
            "proc_root": attempt(lambda: os.listdir("/proc/1/root/work")),
        })
        """
    )
    reply = bot.handshake({"root": str(PROJECT_ROOT)})
    assert (PROJECT_ROOT / "pyproject.toml").exists()
    for key, outcome in reply.items():
        assert outcome["ok"] is False, (key, outcome)


def test_cannot_write_outside_work_dir_or_symlink_out(
    start_bot: StartBot, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched")
    victim.chmod(0o666)  # even a world-writable host file must be out of reach
    bot = start_bot(
        """
        victim = read()["victim"]
        def write(path):
            with open(path, "w") as fh:
                fh.write("pwned")
            return path
        def symlink_out():
            os.symlink(victim, "/home/bot/link")
            return write("/home/bot/link")
        def symlink_etc():
            os.symlink("/etc/passwd", "/tmp/p")
            return write("/tmp/p")
        answer({
            "victim": attempt(lambda: write(victim)),
            "usr": attempt(lambda: write("/usr/lib/pwned")),
            "root": attempt(lambda: write("/pwned")),
            "bot_code": attempt(lambda: write("/bot/main.py")),
            "proc_sys": attempt(lambda: write("/proc/sys/kernel/hostname")),
            "symlink_out": attempt(symlink_out),
            "symlink_etc": attempt(symlink_etc),
            "chmod_root": attempt(lambda: os.chmod("/", 0o777)),
            "home_ok": attempt(lambda: write("/home/bot/fine.txt")),
        })
        """
    )
    reply = bot.handshake({"victim": str(victim)})
    assert reply.pop("home_ok")["ok"] is True
    for key, outcome in reply.items():
        assert outcome["ok"] is False, (key, outcome)
    assert victim.read_text() == "untouched"


def test_environment_secrets_do_not_reach_the_bot(
    start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUNGFU_TEST_SECRET", "s3cr3t-value")
    monkeypatch.setenv("DATABASE_URL", "postgres://user:s3cr3t-value@db/app")
    bot = start_bot(
        """
        read()
        answer({"environ": dict(os.environ),
                "self": attempt(lambda: open("/proc/self/environ", "rb").read()
                                .decode(errors="replace")),
                "init": attempt(lambda: open("/proc/1/environ", "rb").read()
                                .decode(errors="replace"))})
        """
    )
    reply = bot.handshake({})
    assert set(reply["environ"]) <= {"PATH", "HOME", "LANG", "PWD"}
    assert "s3cr3t-value" not in repr(reply)


def test_cannot_see_signal_or_trace_the_worker(start_bot: StartBot) -> None:
    worker = os.getpid()
    bot = start_bot(
        """
        import ctypes, signal
        pid = read()["worker"]
        libc = ctypes.CDLL(None, use_errno=True)
        def ptrace():
            if libc.ptrace(16, pid, 0, 0) != 0:  # PTRACE_ATTACH
                raise OSError(ctypes.get_errno(), "ptrace failed")
            return "attached"
        answer({
            "environ": attempt(lambda: open(f"/proc/{pid}/environ").read()),
            "kill": attempt(lambda: os.kill(pid, signal.SIGKILL)),
            "ptrace": attempt(ptrace),
            "visible_pids": sorted(int(p) for p in os.listdir("/proc")
                                   if p.isdigit()),
        })
        """
    )
    reply = bot.handshake({"worker": worker})
    for key in ("environ", "kill", "ptrace"):
        assert reply[key]["ok"] is False, (key, reply[key])
    assert len(reply["visible_pids"]) <= 3  # its own pid namespace only
    os.kill(worker, 0)  # the worker is alive and well
    assert signal.getsignal(signal.SIGTERM) is not None


def test_nested_user_namespace_is_refused(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        import ctypes, subprocess
        read()
        libc = ctypes.CDLL(None, use_errno=True)
        def unshare(flag):
            if libc.unshare(flag) != 0:
                raise OSError(ctypes.get_errno(), "unshare failed")
            return "unshared"
        cli = subprocess.run(["/usr/bin/unshare", "-U", "true"], capture_output=True)
        answer({"user": attempt(lambda: unshare(0x10000000)),
                "mount": attempt(lambda: unshare(0x00020000)),
                "net": attempt(lambda: unshare(0x40000000)),
                "cli_rc": cli.returncode,
                "max_userns": attempt(lambda: open(
                    "/proc/sys/user/max_user_namespaces").read())})
        """
    )
    reply = bot.handshake({})
    for key in ("user", "mount", "net"):
        assert reply[key]["ok"] is False, (key, reply[key])
    assert reply["cli_rc"] != 0


def test_host_abstract_unix_sockets_are_unreachable(start_bot: StartBot) -> None:
    """Abstract Unix sockets have no file to hide; the network namespace scopes
    them, so a listener of the host (e.g. a local agent) is out of reach."""
    name = f"\0kungfu-arena-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(name)
        listener.listen(1)
        bot = start_bot(
            """
            import socket
            name = read()["name"]
            def connect():
                with socket.socket(socket.AF_UNIX) as s:
                    s.connect("\\0" + name)
                    return "connected"
            answer(attempt(connect))
            """
        )
        reply = bot.handshake({"name": name[1:]})
    assert reply["ok"] is False
    assert "Connection refused" in reply["error"] or "No such" in reply["error"]


def test_only_the_standard_library_is_visible(start_bot: StartBot) -> None:
    """The interpreter's package directories are empty inside (in the production
    image they hold the platform itself: settings, this sandbox, the built-in
    bots); the standard library still imports."""
    bot = start_bot(
        """
        import json, site, sysconfig
        dirs = site.getsitepackages() + [sysconfig.get_path("purelib")]
        listing = {d: sorted(os.listdir(d)) for d in dirs if os.path.isdir(d)}
        import collections, decimal, itertools, random
        answer({"listing": listing, "stdlib": sysconfig.get_path("stdlib")})
        """
    )
    reply = bot.handshake({})
    assert reply["listing"], "no site directory to check"
    assert all(entries == [] for entries in reply["listing"].values()), reply
    assert reply["stdlib"].startswith("/usr/")
