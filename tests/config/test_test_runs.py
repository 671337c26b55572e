"""Two pytest runs side by side on one Redis and one PostgreSQL never share a
database: ``make test`` runs the browser tests (``KFA_TEST_RUN=e2e``) beside the
other tests, each run on pytest-xdist workers (config/settings/test.py,
tests/conftest.py; docs/testing.md)."""

from __future__ import annotations

import pytest

from config.settings import test as test_settings


def _worker_url(monkeypatch, url: str, worker: str, run: str = "") -> str:
    # Set, so that undo puts back what was there: the function writes both.
    monkeypatch.setenv("REDIS_URL", url)
    monkeypatch.setenv("KFA_REDIS_WORKER_URL", "")
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    monkeypatch.setenv("KFA_TEST_RUN", run)
    return test_settings._xdist_worker_redis_url(url)


def _database(url: str) -> int:
    return int(url.rsplit("/", 1)[1])


def test_workers_count_down_from_the_urls_database(monkeypatch):
    base = "redis://127.0.0.1:6379/15"
    assert _worker_url(monkeypatch, base, "gw0") == "redis://127.0.0.1:6379/14"
    assert _worker_url(monkeypatch, base, "gw1") == "redis://127.0.0.1:6379/13"


def test_the_browser_runs_workers_count_down_below_the_others(monkeypatch):
    base = "redis://127.0.0.1:6379/15"
    assert _worker_url(monkeypatch, base, "gw0", "e2e") == "redis://127.0.0.1:6379/6"
    assert _worker_url(monkeypatch, base, "gw1", "e2e") == "redis://127.0.0.1:6379/5"


@pytest.mark.parametrize("base", range(16))
def test_the_two_runs_never_meet(monkeypatch, base):
    """With up to eight workers beside the browser run's two, on any base."""
    url = f"redis://127.0.0.1:6379/{base}"
    others = {_database(_worker_url(monkeypatch, url, f"gw{n}")) for n in range(8)}
    browsers = {
        _database(_worker_url(monkeypatch, url, f"gw{n}", "e2e")) for n in range(2)
    }
    assert len(others) == 8 and len(browsers) == 2
    assert not others & browsers
    assert base not in others | browsers  # a session without xdist keeps it


def test_a_process_a_worker_started_keeps_the_url_it_was_given(monkeypatch):
    """The server of a browser test inherits PYTEST_XDIST_WORKER and the URL
    already counted down; it must not count down again."""
    given = _worker_url(monkeypatch, "redis://127.0.0.1:6379/15", "gw1", "e2e")
    assert test_settings._xdist_worker_redis_url(given) == given


def test_without_xdist_the_url_stays(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    url = "redis://127.0.0.1:6379/15"
    assert test_settings._xdist_worker_redis_url(url) == url


def test_each_redis_database_has_its_own_channel_prefix():
    """The channel layer is pub/sub, whose channels span the whole server:
    sessions on other databases of one Redis must not hear each other."""
    prefix = test_settings._channel_prefix
    assert prefix("redis://127.0.0.1:6379/6") == "kfa-test-6"
    assert prefix("redis://127.0.0.1:6379/5") == "kfa-test-5"
    assert prefix("unix:///tmp/redis.sock") == "kfa-test"  # a server of its own


def test_the_sessions_channel_layer_uses_its_prefix(settings):
    layer = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    assert layer["prefix"] == test_settings._channel_prefix(settings.REDIS_URL)


def test_the_assert_cache_writes_what_pytest_reads(tmp_path):
    """``make test`` rewrites the test modules once (tests/assert_cache.py):
    pytest must take the file as its own and the asserts must still explain."""
    from _pytest.assertion import rewrite

    from tests import assert_cache

    module = tmp_path / "test_sample.py"
    module.write_text("def test_it():\n    x = 2\n    assert x == 3\n")
    assert assert_cache._modules([tmp_path]) == [module]
    assert assert_cache._cache([module]) == 1
    pyc = rewrite.get_cache_dir(module) / ("test_sample" + rewrite.PYC_TAIL)
    code = rewrite._read_pyc(module, pyc, lambda *args: None)
    assert code is not None
    namespace: dict = {}
    exec(code, namespace)
    with pytest.raises(AssertionError, match=r"assert 2 == 3"):
        namespace["test_it"]()
    assert assert_cache._cache([module]) == 0  # current: left alone
    module.write_text("def test_it():\n    assert True\n")
    assert assert_cache._cache([module]) == 1  # changed: rewritten
