"""The cgroup v2 path on a fake cgroup tree: this development VM binds every
controller to v1, so the real v2 kernel interface is exercised only on v2 hosts;
this checks which files get which values, and the detection rules."""

from __future__ import annotations

import pytest

from bots.sandbox import SandboxConfig, SandboxLimits, cgroups

MIB = 1024 * 1024


@pytest.fixture
def fake_v2(tmp_path, monkeypatch):
    """A unified hierarchy at tmp_path with the worker in /system/worker."""
    root = tmp_path / "cg"
    (root / "system" / "worker").mkdir(parents=True)
    (root / "system" / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    monkeypatch.setattr(cgroups, "_own_cgroups", lambda: {"": "/system/worker"})
    monkeypatch.setattr(
        cgroups, "_mounts", lambda: [(str(root), "/", "cgroup2", {"rw"})]
    )
    monkeypatch.setattr(cgroups.os, "geteuid", lambda: 0)
    return root


def test_v2_slot_cgroups_beside_the_worker_with_every_limit(fake_v2) -> None:
    parent = fake_v2 / "system" / cgroups.GROUP_NAME
    (parent).mkdir()
    (parent / "cgroup.subtree_control").write_text("")
    config = SandboxConfig(
        limits=SandboxLimits(memory_bytes=256 * MIB, max_processes=12, cpu_cores=0.5)
    )
    layout = cgroups.detect(config)
    assert isinstance(layout, cgroups.CgroupLayout) and layout.version == 2
    assert layout.parents == {"": str(parent)}
    assert (parent / "cgroup.subtree_control").read_text() == "+memory +pids +cpu"
    slot = cgroups.create(layout, config, 60007)
    d = parent / "uid-60007"
    assert slot.dirs == [str(d)]
    assert slot.procs_files == [str(d / "cgroup.procs")]
    assert (d / "memory.max").read_text() == str(256 * MIB)
    assert (d / "memory.swap.max").read_text() == "0"
    assert (d / "pids.max").read_text() == "12"
    assert (d / "cpu.max").read_text() == "50000 100000"
    assert (d / "cpu.weight").read_text() == str(cgroups.CPU_WEIGHT)


def test_v2_missing_controllers_fall_back(fake_v2) -> None:
    (fake_v2 / "system" / "cgroup.controllers").write_text("cpu io\n")
    reason = cgroups.detect(SandboxConfig())
    assert isinstance(reason, str)
    assert "['memory', 'pids'] not delegated" in reason


def test_v2_worker_at_its_namespace_root_needs_a_delegated_cgroup(
    fake_v2, monkeypatch
) -> None:
    monkeypatch.setattr(cgroups, "_own_cgroups", lambda: {"": "/"})
    reason = cgroups.detect(SandboxConfig())
    assert isinstance(reason, str) and "BOT_SANDBOX_CGROUP" in reason
    delegated = fake_v2 / "system" / "bots"
    delegated.mkdir()
    (delegated / "cgroup.subtree_control").write_text("memory pids cpu")
    layout = cgroups.detect(SandboxConfig(cgroup_parent=str(delegated)))
    assert isinstance(layout, cgroups.CgroupLayout)
    assert layout.parents == {"": str(delegated)}


def test_no_cgroups_for_a_non_root_worker_or_when_disabled(monkeypatch) -> None:
    monkeypatch.setattr(cgroups.os, "geteuid", lambda: 0)
    assert cgroups.detect(SandboxConfig(use_cgroups=False)) == (
        "unavailable: disabled in the sandbox configuration"
    )
    monkeypatch.setattr(cgroups.os, "geteuid", lambda: 1000)
    assert cgroups.detect(SandboxConfig()) == "unavailable: the worker is not root"
