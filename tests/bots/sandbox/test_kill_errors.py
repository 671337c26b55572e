"""SandboxedProcess.kill when a signal is refused: logged, and the slot is swept.

A PermissionError used to be swallowed with the process taken for exited, so
the slot uid's sweep was skipped. No sandbox needed: the process and the
sweep are stand-ins.
"""

from __future__ import annotations

import logging

from bots.sandbox import process


class _Popen:
    pid = 424242

    def __init__(self) -> None:
        self.waits = 0

    def wait(self, timeout=None) -> int:
        self.waits += 1
        return -9

    def kill(self) -> None:
        raise AssertionError("not reached: the refusal comes first")


def _refuse(pid: int) -> list[int]:
    raise PermissionError(1, "Operation not permitted")


def test_a_refused_kill_is_logged_and_the_slot_uid_swept(monkeypatch, caplog):
    swept: list[int] = []
    monkeypatch.setattr(process, "_children", _refuse)
    monkeypatch.setattr(process, "kill_uid", swept.append)
    monkeypatch.setattr(process, "wait_uid_gone", lambda uid, **kw: True)
    proc = process.SandboxedProcess(popen=_Popen(), sandboxed=True, host_uid=61401)
    with caplog.at_level(logging.WARNING, logger="bots.sandbox.process"):
        assert proc.kill() == -9
    assert swept == [61401]
    assert "could not kill pid 424242" in caplog.text


def test_a_process_already_gone_needs_no_sweep(monkeypatch, caplog):
    swept: list[int] = []

    def gone(pid: int) -> list[int]:
        raise ProcessLookupError(3, "No such process")

    monkeypatch.setattr(process, "_children", gone)
    monkeypatch.setattr(process, "kill_uid", swept.append)
    monkeypatch.setattr(process, "wait_uid_gone", lambda uid, **kw: True)
    proc = process.SandboxedProcess(popen=_Popen(), sandboxed=True, host_uid=61402)
    with caplog.at_level(logging.WARNING, logger="bots.sandbox.process"):
        proc.kill()
    assert swept == []
    assert caplog.text == ""
