"""The embedded Redis starts, answers, and stops leaving no process behind."""

from __future__ import annotations

import os

import redis

from config.embedded_redis import EmbeddedRedis


def test_start_ping_stop_leaves_no_process(tmp_path) -> None:
    server = EmbeddedRedis(tmp_path / "r")
    assert server.start() is True
    pid = server.pid()
    assert pid is not None
    client = redis.Redis.from_url(server.url)
    assert client.ping() is True
    client.set("k", "v")
    assert client.get("k") == b"v"
    client.close()

    assert server.start() is False  # already running: reused, not duplicated

    server.stop()
    assert server.pid() is None
    assert not os.path.exists(f"/proc/{pid}")
    assert not server.socket_path.exists()


def test_stop_without_server_is_harmless(tmp_path) -> None:
    EmbeddedRedis(tmp_path / "none").stop()
