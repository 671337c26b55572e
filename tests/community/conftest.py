import pytest

from tests.gameplay.conftest import players  # noqa: F401  (the seated players)


@pytest.fixture(autouse=True)
def _fresh_rate_limits(clean_cache):
    """Chat rate counters live in the cache: each test starts with none."""
    yield
