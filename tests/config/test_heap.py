"""The web process freezes what it loaded (config/heap.py), so the garbage
collector's full passes walk only what the games hold."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref
from pathlib import Path

from config import heap

ROOT = Path(__file__).resolve().parents[2]


def test_the_asgi_application_freezes_the_loaded_heap():
    code = "import gc, config.asgi; print(gc.get_threshold()[0], gc.get_freeze_count())"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    young, frozen = (int(word) for word in done.stdout.split()[-2:])
    # Django, Channels and the apps: well over a hundred thousand objects
    # here; a few thousand would mean the freeze ran before they loaded.
    assert frozen > 50_000
    assert young == heap.YOUNG_THRESHOLD


class _Node:
    """One object of a reference cycle (a plain ``object()`` takes no
    attributes)."""


def test_settle_collects_garbage_before_freezing():
    """Garbage frozen would never be freed: settle collects first."""
    threshold = gc.get_threshold()
    gc.unfreeze()
    try:
        node = _Node()
        node.self = node  # a cycle: only the collector frees it
        gone = weakref.ref(node)
        del node
        gc.disable()  # no pass of its own before settle's
        try:
            assert gone() is not None
            frozen = heap.settle()
        finally:
            gc.enable()
        assert gone() is None
        assert frozen == gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == heap.YOUNG_THRESHOLD
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
