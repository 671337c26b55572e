"""Bounded waits for tests: wait for the thing itself, never a fixed sleep.

A test that waits for something to happen (a process to die, a row to
appear, a port to answer) polls it with ``wait_until`` instead of a loop of
its own: the deadline, the pause between polls and the failure's words are
the same everywhere, and a wait that runs out fails with what it waited for
(docs/testing.md, "Never time.sleep to wait for something to happen").
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, overload

T = TypeVar("T")


def wait_until(
    predicate: Callable[[], T],
    *,
    timeout: float = 10.0,
    interval: float = 0.2,
    message: str | Callable[[], str] = "the condition",
    between: Callable[[], object] | None = None,
) -> T:
    """Call ``predicate`` until it returns something truthy, and return that.

    It is called at once, then every ``interval`` seconds, and once more at
    the deadline; after ``timeout`` seconds the wait fails with an
    ``AssertionError`` naming ``message`` (or what ``message()`` says then:
    a log's tail). ``between`` runs after each miss, before the pause: it may
    raise to stop waiting (a server that died).
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if between is not None:
            between()
        left = deadline - time.monotonic()
        if left <= 0:
            raise _timed_out(timeout, message)
        time.sleep(min(interval, left))


@overload
async def wait_until_async(
    predicate: Callable[[], Awaitable[T]],
    *,
    timeout: float = ...,
    interval: float = ...,
    message: str | Callable[[], str] = ...,
) -> T: ...


@overload
async def wait_until_async(
    predicate: Callable[[], T],
    *,
    timeout: float = ...,
    interval: float = ...,
    message: str | Callable[[], str] = ...,
) -> T: ...


async def wait_until_async(
    predicate: Callable[[], Any],
    *,
    timeout: float = 10.0,
    interval: float = 0.05,
    message: str | Callable[[], str] = "the condition",
) -> Any:
    """``wait_until`` on the event loop: ``predicate`` may be a coroutine
    function, and the pauses are ``asyncio.sleep`` (the loop keeps running)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
            value = await value
        if value:
            return value
        left = deadline - loop.time()
        if left <= 0:
            raise _timed_out(timeout, message)
        await asyncio.sleep(min(interval, left))


def _timed_out(timeout: float, message: str | Callable[[], str]) -> AssertionError:
    what = message() if callable(message) else message
    return AssertionError(f"timed out after {timeout} s waiting for {what}")
