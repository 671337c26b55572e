"""C and C++ bots: compiled by the ziglang wheel's zig inside the sandbox."""

from __future__ import annotations

import json
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from bots.protocol.transport import BotFault, BotProcess, TimeControl
from bots.runtimes import BUILD_DIR, BuildError, build_bot, native, runtime_for_dir
from bots.storage import write_bot_tree
from bots.uploads import UploadError, inspect_upload
from tests.bots.sandbox.conftest import needs_bwrap

pytestmark = [pytest.mark.sandbox, needs_bwrap]

EXAMPLES = Path(__file__).resolve().parents[3] / "bots" / "examples"
HELLO = {"type": "hello", "protocol": 1, "game": "duelo", "seat": 0, "players": 2}


def native_bot(tmp_path: Path, name: str, source: str) -> Path:
    target = tmp_path / "native"
    write_bot_tree({name: source.encode()}, target, read_only=True)
    return target


def test_cpp_example_builds_and_plays_duelo():
    out = StringIO()
    call_command(
        "botmatch",
        str(EXAMPLES / "duelo_random.cpp"),
        "--vs",
        "random",
        "--games",
        "2",
        "--json",
        stdout=out,
    )
    summary = json.loads(out.getvalue())
    assert summary["game"] == "duelo" and summary["sandboxed"]
    row = summary["results"][0]
    assert row["games"] == 2 and row["faults"] == {}


def test_c_bot_builds_into_a_static_binary(tmp_path, sandbox_config):
    source = (EXAMPLES / "duelo_random_wasm.c").read_text()  # plain C11 too
    bot_dir = native_bot(tmp_path, "main.c", source)
    assert runtime_for_dir(bot_dir).name == "c"
    log = build_bot(bot_dir, config=sandbox_config, allow_unsandboxed=False)
    assert "zig cc" in log
    binary = bot_dir / BUILD_DIR / "bot"
    assert binary.read_bytes()[:4] == b"\x7fELF"
    with BotProcess.start(bot_dir, config=sandbox_config) as bot:
        assert bot.handshake(HELLO) == {"ready": True}
        legal = [{"id": "a"}, {"id": "b"}]
        answer = bot.request({"type": "act", "step": 1, "legal": legal})
        assert answer["action"] in {"a", "b"}


def test_compiler_errors_come_back_for_the_owner(tmp_path, sandbox_config):
    bot_dir = native_bot(tmp_path, "main.cpp", "int main() { return undefined_x; }\n")
    with pytest.raises(BuildError) as failed:
        build_bot(bot_dir, config=sandbox_config, allow_unsandboxed=False)
    assert "main.cpp does not compile" in str(failed.value)
    assert "undefined_x" in failed.value.output  # clang's own message
    assert not (bot_dir / BUILD_DIR / "bot").exists()


def test_botmatch_reports_a_compile_error(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text('#define GAME "duelo"\nint main(void) { syntax error }\n')
    with pytest.raises(CommandError, match="does not compile"):
        call_command("botmatch", str(bad), "--vs", "random", "--games", "1")


def test_compiler_bomb_is_stopped(tmp_path, sandbox_config, monkeypatch):
    # 2**40 empty statements from 41 lines of macros: the compiler would run
    # for hours. The build's deadline stops it (shortened here to 5 s), or on a
    # quick machine the compile's memory cap first (zig aborts).
    lines = ["#define A0 ;"]
    lines += [f"#define A{n} A{n - 1} A{n - 1}" for n in range(1, 41)]
    bomb = "\n".join(lines) + "\nint main(void) { A40 return 0; }\n"
    monkeypatch.setattr(native, "COMPILE_TIMEOUT_S", 5.0)
    bot_dir = native_bot(tmp_path, "main.c", bomb)
    started = time.monotonic()
    with pytest.raises(BuildError, match=r"longer than 5 s|killed by signal"):
        build_bot(bot_dir, config=sandbox_config, allow_unsandboxed=False)
    assert time.monotonic() - started < 30


def test_output_bomb_is_stopped(tmp_path, sandbox_config):
    # A huge static array: an executable of gigabytes if it were allowed.
    bomb = "char big[1L << 31] = {1};\nint main(void) { return big[5]; }\n"
    bot_dir = native_bot(tmp_path, "main.c", bomb)
    with pytest.raises(BuildError) as failed:
        build_bot(bot_dir, config=sandbox_config, allow_unsandboxed=False)
    # The compile's scratch space (tmpfs) or the output cap ends it.
    assert "does not compile" in str(failed.value) or "MiB" in str(failed.value)
    assert not (bot_dir / BUILD_DIR / "bot").exists()


HOSTILE_C = r"""
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>
#include <signal.h>
#include <stdlib.h>
static int ok(int r) { return r >= 0; }
int main(void) {
    char line[4096];
    if (!fgets(line, sizeof line, stdin)) return 1;
    int shadow = ok(open("/etc/shadow", O_RDONLY));
    int project = ok(open("/work", O_RDONLY));
    int write_bot = ok(open("/bot/x", O_WRONLY | O_CREAT, 0644));
    int write_tmp = ok(open("/home/bot/x", O_WRONLY | O_CREAT, 0644));
    int inet = ok(socket(AF_INET, SOCK_STREAM, 0));
    int forks = 0;
    for (int i = 0; i < 100; i++) {
        pid_t pid = fork();
        if (pid == 0) { pause(); _exit(0); }
        if (pid > 0) forks++;
    }
    size_t big = (size_t)1 << 30;
    /* volatile: clang would drop an allocation nobody reads. */
    char *volatile hog = malloc(big);
    int hogged = hog != NULL;
    if (hog) { memset(hog, 1, big); hogged += hog[big - 1]; }
    printf("{\"shadow\":%d,\"project\":%d,\"write_bot\":%d,\"write_home\":%d,"
           "\"inet\":%d,\"forks\":%d,\"hog\":%d}\n",
           shadow, project, write_bot, write_tmp, inet, forks, hogged);
    fflush(stdout);
    pause();
    return 0;
}
"""


def test_hostile_c_bot_stays_inside(tmp_path, sandbox_config):
    bot_dir = native_bot(tmp_path, "main.c", HOSTILE_C)
    build_bot(bot_dir, config=sandbox_config, allow_unsandboxed=False)
    with BotProcess.start(
        bot_dir,
        config=sandbox_config,
        time_control=TimeControl(startup=15, per_move=1, bank=0),
    ) as bot:
        report = bot.handshake(HELLO)
    assert report["shadow"] == 0 and report["project"] == 0
    assert report["write_bot"] == 0 and report["write_home"] == 1
    assert report["inet"] == 0
    assert report["forks"] < 16  # RLIMIT_NPROC / the cgroup's pids cap
    assert report["hog"] == 0  # RLIMIT_AS: a 1 GiB allocation fails


def test_crash_of_a_native_bot_is_a_fault(tmp_path, sandbox_config):
    bot_dir = native_bot(tmp_path, "main.c", "int main(void) { return *(int *)0; }\n")
    build_bot(bot_dir, config=sandbox_config, allow_unsandboxed=False)
    with (
        BotProcess.start(bot_dir, config=sandbox_config) as bot,
        pytest.raises(BotFault) as fault,
    ):
        bot.handshake(HELLO)
    assert fault.value.reason == "crash"


def test_uploads_of_each_native_runtime():
    cpp = inspect_upload(
        filename="bot.cpp",
        data=(EXAMPLES / "duelo_random.cpp").read_bytes(),
        game="duelo",
    )
    assert cpp.runtime == "cpp" and set(cpp.files) == {"main.cpp"}
    with pytest.raises(UploadError, match='declares GAME = "duelo"'):
        inspect_upload(
            filename="bot.cpp",
            data=(EXAMPLES / "duelo_random.cpp").read_bytes(),
            game="kungfu2013",
        )
    with pytest.raises(UploadError, match=r"\.build"):
        inspect_upload(
            filename="bot.zip",
            data=_zip({"main.c": b"int main(void){}", ".build/bot": b"x"}),
            game="duelo",
        )


def _zip(files: dict[str, bytes]) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()
