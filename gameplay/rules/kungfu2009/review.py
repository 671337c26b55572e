"""Kung Fu (2009): the claim and trade review (the real-time game's analysis).

A search per tick means nothing in a game where everyone acts at once, so the
post-game analysis of this game reviews three things from the timed log
(``META.review``, called by ``gameplay.rules.analysis``):

- **missed claims**: a seat held, among the cards it had seen, the cards of a
  face-up combination (Dragons filling gaps, ``can_fit``) for at least
  ``window_s`` seconds without claiming that combination;
- **wrong claims**: every ``claim_wrong`` the table checked;
- **trades away**: a trade after which the seat was further (``distance``,
  cards missing) from *every* face-up combination than before it.

Times are the server's stamps of the steps (ms from the start), the order that
decided every race. Pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameplay.rules.base import Game
from gameplay.rules.kungfu2009.constants import HITS
from gameplay.rules.kungfu2009.hands import can_fit, distance

#: A chance open this long without a claim is a missed claim (seconds).
WINDOW_S = 5.0


def _seen(state: dict[str, Any], seat: int) -> str:
    hand: str = state["hands"][seat]
    fresh: int = state["fresh"][seat]
    return hand[: len(hand) - fresh] if fresh else hand


def _ready(state: dict[str, Any], n: int) -> set[tuple[int, str, str]]:
    """(seat, level, code) a seat in play could claim from the cards it saw."""
    out = set()
    for seat in range(n):
        if state["out"][seat]:
            continue
        seen = _seen(state, seat)
        for level, code in state["up"].items():
            if code is not None and can_fit(seen, HITS[code]):
                out.add((seat, level, code))
    return out


def _distances(state: dict[str, Any], seat: int) -> dict[str, int]:
    hand = state["hands"][seat]
    return {
        code: distance(hand, HITS[code])
        for code in state["up"].values()
        if code is not None
    }


def review(
    *,
    game: Game,
    config: dict[str, Any],
    seed: int,
    steps: Sequence[Any],
    window_s: float = WINDOW_S,
    start: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The review of a finished game: ``steps`` have ``seat``, ``action_id``,
    ``version`` and ``at_ms`` (None: the step's time is unknown, counted as
    the previous step's). ``start``: a hand-made first state (tests)."""
    state = start if start is not None else game.setup(config, seed)
    n = len(state["hands"])
    window_ms = int(window_s * 1000)
    open_since: dict[tuple[int, str, str], int] = {}
    missed: list[dict[str, Any]] = []
    wrong: list[dict[str, Any]] = []
    away: list[dict[str, Any]] = []
    now = 0

    def close(key: tuple[int, str, str], until: int, claimed: bool) -> None:
        since = open_since.pop(key)
        late = until - since
        if late >= window_ms:
            seat, level, code = key
            missed.append({"seat": seat, "level": level, "code": code,
                           "from_ms": since, "held_ms": late,
                           "claimed_late": claimed})  # fmt: skip

    for key in _ready(state, n):
        open_since[key] = 0
    for step in steps:
        if step.at_ms is not None:
            now = max(now, int(step.at_ms))
        before = state
        state, events = game.apply(state, step.seat, step.action_id)
        for e in events:
            pub = e["public"]
            if e["type"] == "claim":
                key = (pub["seat"], pub["level"], pub["code"])
                if key in open_since:
                    close(key, now, claimed=True)
            elif e["type"] == "claim_wrong":
                wrong.append({"seat": pub["seat"], "code": pub["combination"]["code"]
                              if pub.get("combination") else None,
                              "version": step.version, "at_ms": now})  # fmt: skip
            elif e["type"] == "trade":
                for seat in (pub["from"], pub["to"]):
                    old = _distances(before, seat)
                    new = _distances(state, seat)
                    if old and all(new[c] > old[c] for c in old if c in new):
                        away.append({"seat": seat, "version": step.version,
                                     "at_ms": now, "before": min(old.values()),
                                     "after": min(new.values())})  # fmt: skip
        ready = _ready(state, n)
        for key in list(open_since):
            if key not in ready:
                close(key, now, claimed=False)
        for key in ready:
            open_since.setdefault(key, now)
    for key in list(open_since):
        close(key, now, claimed=False)
    summary = {
        str(seat): {
            "missed_claims": sum(1 for m in missed if m["seat"] == seat),
            "wrong_claims": sum(1 for w in wrong if w["seat"] == seat),
            "trades_away": sum(1 for a in away if a["seat"] == seat),
        }
        for seat in range(n)
    }
    return {
        "window_s": window_s,
        "missed_claims": missed,
        "wrong_claims": wrong,
        "trades_away": away,
        "summary": summary,
    }
