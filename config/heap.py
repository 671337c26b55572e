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

The youngest generation's threshold is raised too (``YOUNG_THRESHOLD``).
A collection starts when allocations outnumber deallocations by the
threshold, but a live process mostly replaces what it holds (each move's
new match state, frames and menus; the one before freed), so that
difference grows slowly while every object made since the last pass is
still walked: at 400 live games a young pass came about three times a
second and walked the match states made since the one before, which live
until their match's next move (a second or two) and so were walked again
in the middle generation. With the threshold at 20,000 a pass comes every
ten seconds or so and walks mostly each match's latest state, once: a
pause of about 30 ms there, against the default's 3 ms three times a
second (docs/performance.md, "Where a move's CPU goes at 400 games").
"""

from __future__ import annotations

import gc

from django.urls import get_resolver

# The youngest generation's threshold (CPython's default 700); the older
# generations keep theirs.
YOUNG_THRESHOLD = 20_000


def settle() -> int:
    """Load what the first request would (the URL configuration and the
    views it names), collect once, freeze what is left and raise the young
    generation's threshold. Returns the number of objects frozen."""
    # Imports ROOT_URLCONF and every app's urls module.
    get_resolver().url_patterns  # noqa: B018
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    return gc.get_freeze_count()
