"""A game's time control: one value read and written the same way everywhere.

Tables, challenges, quick play, league seasons, tournaments and the API all
store a time control as the JSON ``TimeControl.to_json`` writes, and every
reader (the clocks, the move services, the pages, the labels) goes through
``TimeControl.from_json``. Three kinds (docs/time-controls.md):

- live, per move: ``{"per_move": 30}``, seconds for each decision;
- live, total: ``{"total": 300, "increment": 5}``, minutes of thinking time per
  player with a Fischer increment added after each of the player's moves
  (``per_move`` may be combined with it: the nearer limit ends a decision);
- correspondence: ``{"days": 3}``, whole days for each decision, chosen among
  ``CORRESPONDENCE_DAYS``; a player's vacation pauses it (``gameplay.vacation``).

An empty value is an untimed game. Real-time games (``realtime`` engines)
take none of these: their time limit is a table option of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

#: The days per move a correspondence game may give (issue 30; lichess and
#: Board Game Arena offer the same steps).
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 14)
PER_MOVE_RANGE = (5, 3600)  # seconds: a live decision
TOTAL_RANGE = (30, 7 * 86400)  # seconds per player
INCREMENT_RANGE = (0, 180)  # seconds added after each move (Fischer)

LIVE = "live"
CORRESPONDENCE = "correspondence"
UNTIMED = "untimed"
KINDS = (LIVE, CORRESPONDENCE)
UNTIMED_LABEL = gettext_lazy("untimed")  # what the label says (the kind: UNTIMED)
FIELDS = ("per_move", "total", "increment", "days")


class TimeControlError(ValueError):
    """A time control that cannot be used; the message says why, to a person."""


def _whole(value: object, name: str) -> int | None:
    if value in (None, "", 0):
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TimeControlError(
            _("time control %(name)s must be a whole number") % {"name": name}
        )
    return value


def _in(value: int | None, bounds: tuple[int, int], name: str, unit: str) -> None:
    low, high = bounds
    if value is not None and not low <= value <= high:
        raise TimeControlError(
            _("time control %(name)s must be between %(low)s and %(high)s %(unit)s")
            % {"name": name, "low": low, "high": high, "unit": unit}
        )


def _duration(seconds: int) -> str:
    if seconds % 3600 == 0:
        return _("%(hours)s h") % {"hours": seconds // 3600}
    if seconds % 60 == 0:
        return _("%(minutes)s min") % {"minutes": seconds // 60}
    return _("%(seconds)s s") % {"seconds": seconds}


@dataclass(frozen=True)
class TimeControl:
    """How long a seat may think; see the module docstring for the kinds."""

    per_move: int | None = None  # seconds per decision (live)
    total: int | None = None  # seconds per player for the whole game (live)
    increment: int = 0  # seconds added to ``total`` after each move
    days: int | None = None  # days per decision (correspondence)

    # --- reading and writing ---------------------------------------------------

    @classmethod
    def parse(cls, data: object) -> TimeControl:
        """A time control people sent (API, forms), checked; ``TimeControlError``
        with a message a person can act on otherwise."""
        if data is None:
            return cls()
        if isinstance(data, TimeControl):
            data = data.to_json()
        if not isinstance(data, Mapping):
            raise TimeControlError(_("time control must be a JSON object"))
        unknown = sorted(str(key) for key in data if key not in FIELDS)
        if unknown:
            raise TimeControlError(
                _("unknown time-control field(s): %(fields)s")
                % {"fields": ", ".join(unknown)}
            )
        per_move = _whole(data.get("per_move"), "per_move")
        total = _whole(data.get("total"), "total")
        increment = _whole(data.get("increment"), "increment") or 0
        days = _whole(data.get("days"), "days")
        _in(per_move, PER_MOVE_RANGE, "per_move", "s")
        _in(total, TOTAL_RANGE, "total", "s")
        _in(increment, INCREMENT_RANGE, "increment", "s")
        if days is not None:
            if days not in CORRESPONDENCE_DAYS:
                allowed = ", ".join(map(str, CORRESPONDENCE_DAYS))
                raise TimeControlError(
                    _("correspondence days per move must be one of %(allowed)s")
                    % {"allowed": allowed}
                )
            if per_move or total or increment:
                raise TimeControlError(
                    _(
                        "a correspondence time control is days per move only: "
                        "no seconds per move, total or increment with it"
                    )
                )
        if increment and not total:
            raise TimeControlError(_("an increment needs a total time per player"))
        return cls(per_move=per_move, total=total, increment=increment, days=days)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TimeControl:
        """A stored time control (checked when it was stored): no checks."""
        if not data:
            return cls()
        return cls(
            per_move=data.get("per_move") or None,
            total=data.get("total") or None,
            increment=data.get("increment") or 0,
            days=data.get("days") or None,
        )

    def to_json(self) -> dict[str, int]:
        """The stored form: only the fields in use (``{}`` untimed)."""
        out: dict[str, int] = {}
        if self.days:
            out["days"] = self.days
        if self.per_move:
            out["per_move"] = self.per_move
        if self.total:
            out["total"] = self.total
        if self.increment:
            out["increment"] = self.increment
        return out

    # --- what it means ---------------------------------------------------------

    def __bool__(self) -> bool:
        return bool(self.per_move or self.total or self.days)

    @property
    def kind(self) -> str:
        if self.days:
            return CORRESPONDENCE
        return LIVE if self else UNTIMED

    @property
    def is_correspondence(self) -> bool:
        return bool(self.days)

    @property
    def is_live(self) -> bool:
        return self.kind == LIVE

    @property
    def move_limit(self) -> timedelta | None:
        """The most one decision may take (per move or days per move); None:
        only the total clock, or nothing, limits it."""
        if self.days:
            return timedelta(days=self.days)
        if self.per_move:
            return timedelta(seconds=self.per_move)
        return None

    @property
    def total_ms(self) -> int | None:
        return self.total * 1000 if self.total else None

    @property
    def increment_ms(self) -> int:
        return self.increment * 1000 if self.total else 0

    @property
    def label(self) -> str:
        """As people read it: "3 days/move", "5 min + 5 s", "30 s/move",
        "10 min + 2 s, 60 s/move"; "untimed" when nothing times the game."""
        if self.days:
            return ngettext("%(days)s day/move", "%(days)s days/move", self.days) % {
                "days": self.days
            }
        parts = []
        if self.total:
            total = _duration(self.total)
            parts.append(
                _("%(total)s + %(increment)s s")
                % {"total": total, "increment": self.increment}
                if self.increment
                else total
            )
        if self.per_move:
            parts.append(_("%(seconds)s s/move") % {"seconds": self.per_move})
        return ", ".join(parts) or str(UNTIMED_LABEL)

    @property
    def pool_suffix(self) -> str:
        """Which rating pool family the game belongs to when an organiser
        keeps correspondence apart ("correspondence"; "" for live and
        untimed games, which share the ordinary pool)."""
        return CORRESPONDENCE if self.is_correspondence else ""


def time_control_of(data: Mapping[str, Any] | None) -> TimeControl:
    """Shorthand for reading a stored value (``Match.time_control`` ...)."""
    return TimeControl.from_json(data)


# Labels worded so far, by language and time control: every live frame carries
# its match's label, and wording one (the lazy "untimed", the catalogue's
# lookup) was about 45 Python calls of each move's frames. Bounded: cleared
# when full (time controls are few; a miss only words the label again).
LABELS_KEPT = 1024
_labels: dict[tuple[Any, ...], str] = {}


def time_control_label(data: Mapping[str, Any] | None) -> str:
    language = get_language()
    key = (
        (
            language,
            data.get("per_move"),
            data.get("total"),
            data.get("increment"),
            data.get("days"),
        )
        if data
        else (language,)
    )
    try:
        label = _labels.get(key)
    except TypeError:  # a value that is no number: worded, not kept
        return TimeControl.from_json(data).label
    if label is None:
        label = _labels[key] = TimeControl.from_json(data).label
    if len(_labels) > LABELS_KEPT:
        _labels.clear()
    return label
