"""Staging the bot's code for a slot, and the worker's private directory.

The worker copies uploads as root, so a careless copy could pull host files into
the sandbox through a symlink; these tests pin down that it never follows one.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bots.sandbox import SandboxError
from bots.sandbox.slots import private_dir, stage_bot_dir


def _upload(tmp_path: Path) -> Path:
    src = tmp_path / "upload"
    (src / "pkg").mkdir(parents=True)
    (src / "main.py").write_text("print('hi')\n")
    (src / "pkg" / "util.py").write_text("X = 1\n")
    (src / "main.py").chmod(0o600)  # unreadable to "other" as uploaded
    src.chmod(0o700)
    return src


def test_staged_copy_is_readable_by_the_slot_and_complete(tmp_path: Path) -> None:
    src = _upload(tmp_path)
    dest = tmp_path / "stage"
    stage_bot_dir(src, dest, max_bytes=1 << 20)
    assert (dest / "main.py").read_text() == "print('hi')\n"
    assert (dest / "pkg" / "util.py").read_text() == "X = 1\n"
    assert stat.S_IMODE((dest / "main.py").stat().st_mode) == 0o644
    assert stat.S_IMODE(dest.stat().st_mode) == 0o755
    assert stat.S_IMODE((dest / "pkg").stat().st_mode) == 0o755


def test_symlinks_are_copied_as_links_never_followed(tmp_path: Path) -> None:
    src = _upload(tmp_path)
    secret = tmp_path / "host-secret.txt"
    secret.write_text("do not copy me")
    os.symlink(secret, src / "leak")
    os.symlink(tmp_path, src / "leakdir")
    dest = tmp_path / "stage"
    stage_bot_dir(src, dest, max_bytes=1 << 20)
    assert (dest / "leak").is_symlink()
    assert os.readlink(dest / "leak") == str(secret)
    assert (dest / "leakdir").is_symlink()
    # Nothing of the host was copied in as data.
    copied = [p for p in dest.rglob("*") if p.is_file() and not p.is_symlink()]
    assert all("do not copy me" not in p.read_text() for p in copied)


def test_special_files_and_oversized_trees_are_refused(tmp_path: Path) -> None:
    src = _upload(tmp_path)
    os.mkfifo(src / "pipe")
    with pytest.raises(SandboxError, match="special file"):
        stage_bot_dir(src, tmp_path / "stage", max_bytes=1 << 20)
    (src / "pipe").unlink()
    (src / "big.bin").write_bytes(b"x" * 2048)
    with pytest.raises(SandboxError, match="exceeds"):
        stage_bot_dir(src, tmp_path / "stage2", max_bytes=1024)


def test_restaging_replaces_the_previous_bot(tmp_path: Path) -> None:
    src = _upload(tmp_path)
    dest = tmp_path / "stage"
    dest.mkdir()
    (dest / "stale.py").write_text("old bot")
    stage_bot_dir(src, dest, max_bytes=1 << 20)
    assert not (dest / "stale.py").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to chown")
def test_private_dir_refuses_a_directory_someone_else_owns(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    private_dir(mine)
    assert stat.S_IMODE(mine.stat().st_mode) == 0o711
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, 65534, 65534)
    with pytest.raises(SandboxError, match="owned"):
        private_dir(theirs)
