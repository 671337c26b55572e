"""The shared bounded wait (``tests.waiting``)."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from tests.waiting import wait_until, wait_until_async


def test_returns_the_first_truthy_answer():
    answers = iter([0, None, "", "here", "later"])
    assert wait_until(lambda: next(answers), interval=0) == "here"


def test_runs_out_naming_what_it_waited_for_and_runs_between_each_miss():
    misses = itertools.count()
    with pytest.raises(AssertionError, match="waiting for the moon"):
        wait_until(
            lambda: False,
            timeout=0.05,
            interval=0.01,
            message="the moon",
            between=lambda: next(misses),
        )
    assert next(misses) >= 2
    with pytest.raises(AssertionError, match="waiting for a log's tail"):
        wait_until(lambda: False, timeout=0, message=lambda: "a log's tail")


def test_between_may_stop_the_wait():
    def died() -> None:
        raise RuntimeError("the server died")

    with pytest.raises(RuntimeError, match="died"):
        wait_until(lambda: False, timeout=60, between=died)


def test_the_async_wait_awaits_a_coroutine_predicate_and_runs_out():
    answers = iter([False, False, 7])

    async def probe() -> int | bool:
        await asyncio.sleep(0)
        return next(answers)

    async def main() -> None:
        assert await wait_until_async(probe, interval=0) == 7
        with pytest.raises(AssertionError, match="waiting for nothing"):
            await wait_until_async(lambda: 0, timeout=0.02, message="nothing")

    asyncio.run(main())
