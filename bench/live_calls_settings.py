"""Python calls per live intent in each web process: a settings module for
the live benchmarks' servers.

``LIVE_LOAD_SETTINGS=live_calls_settings PYTHONPATH=bench python
bench/live_realtime.py`` (or ``bench/live_load.py``). The production settings,
plus a count, in each web process's event loop thread, of every Python and C
function call (``sys.setprofile``: a call, and a coroutine's resumption,
counts once) over ``LIVE_CALLS_SPAN_S`` seconds (default 20) that start
``LIVE_CALLS_DELAY_S`` seconds (default 45: inside the benchmark's window)
after the process's first live move. Each process writes one JSON object to
``<LIVE_CALLS_OUT>-<pid>.json`` (default ``live-calls-<pid>.json`` in the
working directory): the calls, the moves (``gameplay.live.owner.act``), calls per
move, and the ``LIVE_CALLS_TOP`` (default 60) functions called most, per
move.

Why: the server's CPU per intent moves by a tenth from one run to the next on
a shared machine (docs/performance.md), while a call count moves by about a
hundredth; an A/B of a change to the live path reads clearly in calls. The
profile hook slows the server several times over: read the calls, not that
run's CPU or latencies.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from config.settings.production import *  # noqa: F403

_counting = threading.Event()
_calls: Counter[tuple[str, int, str]] = Counter()
_moves = [0]


def _profile(frame: Any, event: str, arg: Any) -> None:
    if not _counting.is_set():
        return
    if event == "call":
        code = frame.f_code
        _calls[(code.co_filename, code.co_firstlineno, code.co_name)] += 1
    elif event == "c_call":
        _calls[("C", 0, getattr(arg, "__qualname__", repr(arg)))] += 1


def _report() -> None:
    time.sleep(float(os.environ.get("LIVE_CALLS_DELAY_S", "45")))
    _counting.set()
    time.sleep(float(os.environ.get("LIVE_CALLS_SPAN_S", "20")))
    _counting.clear()
    moves = max(_moves[0], 1)
    calls = sum(_calls.values())
    top = _calls.most_common(int(os.environ.get("LIVE_CALLS_TOP", "60")))
    prefix = os.environ.get("LIVE_CALLS_OUT", "live-calls")
    out = Path(f"{prefix}-{os.getpid()}.json")
    out.write_text(
        json.dumps(
            {
                "pid": os.getpid(),
                "calls": calls,
                "moves": _moves[0],
                "calls_per_move": round(calls / moves, 1),
                "top_per_move": [
                    [f"{path}:{line}:{name}", round(count / moves, 2)]
                    for (path, line, name), count in top
                ],
            }
        )
    )


def _install() -> None:
    """Count from the first live move on, in the thread that runs it (the
    event loop's): the hook is per thread."""
    from gameplay.live import owner

    act = owner.act

    async def counted(**kwargs: Any) -> int:
        if not _counting.is_set() and sys.getprofile() is None:
            sys.setprofile(_profile)
            threading.Thread(target=_report, daemon=True).start()
        if _counting.is_set():
            _moves[0] += 1
        return await act(**kwargs)

    owner.act = counted


class _CountOnReady:
    """Installs the count once the apps are loaded (settings import first)."""

    def __init__(self) -> None:
        threading.Thread(target=self._wait, daemon=True).start()

    def _wait(self) -> None:
        from django.apps import apps

        while not apps.ready:
            time.sleep(0.1)
        _install()


_CountOnReady()
