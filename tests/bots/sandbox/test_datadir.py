"""A bot's data directory: kept between its matches, capped, private."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.protocol.transport import BotProcess, TimeControl
from tests.bots.helpers import survivors_of
from tests.bots.sandbox.conftest import needs_bwrap, write_bot

pytestmark = [pytest.mark.sandbox, needs_bwrap]

COUNTER = """
read()
path = "/home/bot/data/count"
before = int(open(path).read()) if os.path.exists(path) else 0
with open(path, "w") as fh:
    fh.write(str(before + 1))
answer({"before": before, "exists": os.path.isdir("/home/bot/data")})
read()
"""


def run_once(tmp_path: Path, source: str, data: Path, config) -> dict:
    bot_dir = write_bot(tmp_path / f"bot{len(list(tmp_path.iterdir()))}", source)
    bot = BotProcess.start(
        bot_dir,
        config=config,
        time_control=TimeControl(startup=10, per_move=5, bank=0),
        data_dir=data,
    )
    try:
        return bot.handshake({"type": "hello"})
    finally:
        bot.close()
        uid = bot.process.host_uid
        if uid is not None:
            assert survivors_of(uid, config.lock_dir) == []


@pytest.fixture
def root_only(sandbox_config):
    if not sandbox_config.per_slot_uid:
        pytest.skip("data directories need a root worker (per-slot tmpfs)")


def test_written_in_one_match_read_in_the_next(tmp_path, sandbox_config, root_only):
    data = tmp_path / "kept" / "7"
    bots = tmp_path / "bots"
    bots.mkdir()
    assert run_once(bots, COUNTER, data, sandbox_config) == {
        "before": 0,
        "exists": True,
    }
    assert (data / "count").read_text() == "1"
    assert run_once(bots, COUNTER, data, sandbox_config)["before"] == 1
    assert (data / "count").read_text() == "2"
    # Another bot's directory is another directory: it starts empty.
    other = tmp_path / "kept" / "8"
    assert run_once(bots, COUNTER, other, sandbox_config)["before"] == 0
    assert (data / "count").read_text() == "2"


FILL = """
read()
written = 0
try:
    with open("/home/bot/data/big", "wb") as fh:
        for _ in range(40):
            fh.write(b"x" * (1 << 20))
            fh.flush()
            written += 1
except OSError as exc:
    error = exc.errno
else:
    error = 0
answer({"mib": written, "errno": error})
read()
"""


def test_size_cap_is_the_file_systems(tmp_path, sandbox_config, root_only):
    import errno

    data = tmp_path / "kept"
    bots = tmp_path / "bots"
    bots.mkdir()
    report = run_once(bots, FILL, data, sandbox_config)
    assert report["errno"] in (errno.ENOSPC, errno.EFBIG)
    assert report["mib"] <= 10
    total = sum(f.stat().st_size for f in data.rglob("*") if f.is_file())
    assert total <= 10 * 2**20


LINKS = """
read()
os.symlink("/etc/shadow", "/home/bot/data/shadow")
os.symlink("/", "/home/bot/data/root")
os.mkdir("/home/bot/data/sub")
open("/home/bot/data/sub/ok", "w").write("fine")
os.mkfifo("/home/bot/data/fifo")
answer({"done": True})
read()
"""


def test_links_and_special_files_are_never_followed(
    tmp_path, sandbox_config, root_only
):
    data = tmp_path / "kept"
    bots = tmp_path / "bots"
    bots.mkdir()
    assert run_once(bots, LINKS, data, sandbox_config) == {"done": True}
    kept = sorted(str(p.relative_to(data)) for p in data.rglob("*"))
    assert kept == ["sub", "sub/ok"]  # no link, no fifo, nothing from the host
    assert (data / "sub" / "ok").read_text() == "fine"


ESCAPE = """
read()
found = {}
for path in ("/work", "/run/kungfu-arena-sandbox", "/var", "/media"):
    found[path] = os.path.exists(path)
answer(found)
read()
"""


def test_kept_copies_are_not_visible_inside(tmp_path, sandbox_config, root_only):
    bots = tmp_path / "bots"
    bots.mkdir()
    report = run_once(bots, ESCAPE, tmp_path / "kept", sandbox_config)
    assert not any(report.values())


def test_a_worker_that_cannot_mount_plays_without_data(
    tmp_path, sandbox_config, root_only, monkeypatch
):
    from bots.sandbox import SandboxError, datadir

    def refuse(config, host_uid):
        raise SandboxError("cannot mount the data tmpfs: Operation not permitted")

    monkeypatch.setattr(datadir, "slot_data_mount", refuse)
    bots = tmp_path / "bots"
    bots.mkdir()
    probe = 'read()\nanswer({"exists": os.path.exists("/home/bot/data")})\nread()\n'
    report = run_once(bots, probe, tmp_path / "kept", sandbox_config)
    assert report == {"exists": False}


def test_runs_that_end_at_once_replace_the_kept_copy_in_turn(tmp_path):
    """Both seats of a match against itself (or two workers' matches) end
    with one kept directory: a save waits while another one swaps its tree
    in, instead of failing on the tree the other put in place."""
    import threading

    from bots.sandbox import datadir

    run = tmp_path / "run"
    run.mkdir()
    (run / "book").write_text("second")
    kept = tmp_path / "kept" / "7"
    kept.mkdir(parents=True)
    (kept / "book").write_text("first")
    saved: list[bool] = []
    with datadir._kept_lock(kept):  # another run's save is swapping
        saving = threading.Thread(
            target=lambda: saved.append(datadir.save(run, kept, limit=1 << 20))
        )
        saving.start()
        saving.join(timeout=0.2)
        assert saving.is_alive() and (kept / "book").read_text() == "first"
    saving.join()
    assert saved == [True] and (kept / "book").read_text() == "second"
    assert sorted(p.name for p in kept.parent.iterdir()) == [".7.lock", "7"]
