"""The web process's heap, settled once it has loaded, so the garbage
collector's full passes stay short.

A full (oldest-generation) collection walks every tracked object. In a web
process most of them are the modules, classes and functions loaded at start
(Django, Channels, the apps, the rules engines), which live as long as the
process and are never garbage. At 400 live games such passes took 37-212 ms
(measured with ``gc.callbacks`` under ``bench/live_load.py``) and every socket
of the process waited for them: they were the benchmark's p99.
``gc.freeze()`` moves everything alive at start into a permanent generation
the collector no longer walks (what the CPython docs advise for pre-fork
servers; Instagram's well-known use), so a full pass walks only what the
games themselves hold.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver


def settle() -> int:
    """Load what the first request would (the URL configuration and the
    views it names), collect once, and freeze what is left. Returns the
    number of objects frozen."""
    # Imports ROOT_URLCONF and every app's urls module.
    get_resolver().url_patterns  # noqa: B018
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
