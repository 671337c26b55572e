"""The player-socket set during a Redis outage: everyone counts as listening,
and the outage is logged when it starts and when it ends, not per broadcast."""

from __future__ import annotations

import logging
import os

from notifications import sockets


class FlakyRedis:
    def __init__(self) -> None:
        self.down = True

    def zrangebyscore(self, *args):
        if self.down:
            raise ConnectionError("Redis is away")
        return [b"7:some-process"]


def test_an_outage_is_logged_once_and_its_end_once(monkeypatch, caplog):
    redis = FlakyRedis()
    monkeypatch.setattr(sockets, "_sync_client", {os.getpid(): redis})
    monkeypatch.setattr(sockets, "_local", {})
    monkeypatch.setattr(sockets, "SNAPSHOT_S", 0.0)  # every call reads the set
    monkeypatch.setattr(sockets, "_unreadable", False)
    sockets.forget_snapshot()
    with caplog.at_level(logging.WARNING, logger="notifications.sockets"):
        for _ in range(5):
            assert sockets.is_listening(3)  # in doubt: told
        redis.down = False
        assert sockets.is_listening(7) and not sockets.is_listening(3)
        assert sockets.is_listening(7)
    messages = [record.getMessage() for record in caplog.records]
    assert messages == [
        "player sockets unknown (Redis)",
        "player sockets readable again",
    ]
    assert caplog.records[0].exc_info is not None
    sockets.forget_snapshot()
