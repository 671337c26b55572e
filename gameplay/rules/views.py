"""Cheap observations: views of unchanging state parts, built once.

``observe`` runs at every decision (a bot is handed the acting seat's
observation, the platform sends every seat its view after every step), and
most of what it shows has not changed since the last step: a pile of cards
held as a string, the history of finished rounds. Two memos let an engine
build such views once and reuse them (issue 33, section 2):

* ``PileViews(build)``: a bounded cache from an immutable key (a pile as a
  string, a tuple of a seat's public facts) to its view. A pile's view is a
  tuple that the caller unpacks into a fresh list (``[*views[pile]]``), so
  the lists of an observation stay its own while their items (ints, strings,
  the engine's read-only card dicts) may be shared; other views (a seat's
  public dict) are shared read-only.
* ``LastView(build)``: the view of the object it was last asked about, by
  identity. Only for state parts an engine replaces rather than edits (copy-on-
  write lists such as the history of finished rounds); the view it returns is
  shared by every observation made while that part is unchanged.

A ``PileViews`` also holds each engine's observation templates: per seat and
the table's fixed facts, a dict of every field in the observation's order with
the fixed ones filled in. ``observe`` copies the template and sets the other
fields (a dict copy costs about what a literal of three keys does; a literal of
twenty-odd keys several times more), so the keys keep their order and the
JSON is the same.

Both are safe across threads (a miss only builds again), and their views
are read-only: like states, observations are values that callers never edit
(docs/engine.md, "Observations").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

# A pile's view: a tuple of its cards' views, unpacked into a fresh list.
Pile = tuple[Any, ...]

# Past this many entries a ``PileViews`` starts again from empty (the piles of
# a long-running server are many, the piles of one game few).
LIMIT = 20_000


class PileViews(dict[K, V]):
    """``views[key]``: ``build(key)``, built on the first lookup."""

    __slots__ = ("_build", "_limit")

    def __init__(self, build: Callable[[K], V], limit: int = LIMIT) -> None:
        super().__init__()
        self._build = build
        self._limit = limit

    def __missing__(self, key: K) -> V:
        if len(self) >= self._limit:
            self.clear()
        view = self[key] = self._build(key)
        return view


_NOTHING = object()


class LastView(Generic[K, V]):
    """``memo(part)``: ``build(part)``, reused while ``part`` is the same object."""

    __slots__ = ("_build", "_last")

    def __init__(self, build: Callable[[K], V]) -> None:
        self._build = build
        # One tuple, replaced whole, so another thread never sees a part
        # paired with another part's view.
        self._last: tuple[Any, Any] = (_NOTHING, None)

    def __call__(self, part: K) -> V:
        last = self._last
        if last[0] is part:
            view: V = last[1]
            return view
        view = self._build(part)
        self._last = (part, view)
        return view
