"""The Kung Fu (2019) state as the playout kernel's flat tuple of fields, and
the kernel's fields written back into a state.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import State
from gameplay.rules.kungfu2019 import phases as _phases
from gameplay.rules.kungfu2019.rounds import _finish

# Assigned, not imported: CPython 3.11 compiles ``NAME.method(...)`` on a name
# the module imports as an attribute load and a call (a bound method made per
# call), and on any other name as a method call; ``_native_fields`` runs
# ``PHASES.index`` at every native playout.
PHASES = _phases.PHASES

# The kernel's numbers for how a game ended (0: it goes on).
_REASONS = {1: "rounds", 2: "last_standing", 3: "all_eliminated"}


def _set_bytes(slot: int, k: int, dice: list[int]) -> bytes:
    return bytes((slot, k, len(dice), *dice))


def _native_fields(s: State) -> tuple[Any, ...]:
    """The state as the kernel's flat tuple of fields (see _fastplay.c)."""
    f = s["fight"]
    if f is None:
        fight: tuple[Any, ...] = (None, (), (), ())
    else:
        fight = (
            f["a"],
            tuple(f["f"]),
            tuple(None if d is None else bytes(d) for d in f["dice"]),
            tuple(
                None
                if a is None
                else (
                    bytes(a["v"]),
                    b"".join(_set_bytes(*st) for st in a["sets"]),
                    None if a["open"] is None else _set_bytes(*a["open"]),
                    a["bud"],
                    a["gain"],
                    a["spent"],
                    a["done"],
                )
                for a in f["asg"]
            ),
        )
    return (
        int(s["rng"], 16),
        (s["n"], PHASES.index(s["phase"]), s["round"], s["turn"]),
        s["deck"],
        s["discard"],
        s["dummy"],
        tuple(s["packs"]),
        tuple(s["picks"]),
        tuple(s["hands"]),
        tuple(s["commit"]),
        tuple(s["played"]),
        bytes(x for t in s["tracks"] for x in t),
        tuple(s["hp"]),
        tuple(s["elim"]),
        (s["nfight"], s["oi"], s["di"]),
        tuple(s["order"]),
        b"".join(bytes(r) for r in s["cfg"]["dice"]),
        *fight,
    )


def _sets_of(b: bytes) -> list[list[Any]]:
    out = []
    i = 0
    while i < len(b):
        m = b[i + 2]
        out.append([b[i], b[i + 1], list(b[i + 3 : i + 3 + m])])
        i += 3 + m
    return out


def _native_store(s: State, f: tuple[Any, ...], reason: int) -> None:
    """Write the kernel's fields back into ``s`` (in place, like ``playout``)."""
    s["rng"] = format(f[0], "016x")
    n, ph, s["round"], s["turn"] = f[1]
    s["phase"] = PHASES[ph]
    s["deck"], s["discard"], s["dummy"] = f[2], f[3], f[4]
    s["packs"], s["picks"], s["hands"] = list(f[5]), list(f[6]), list(f[7])
    s["commit"], s["played"] = list(f[8]), list(f[9])
    s["tracks"] = [list(f[10][5 * i : 5 * i + 5]) for i in range(n)]
    s["hp"], s["elim"] = list(f[11]), list(f[12])
    s["nfight"], s["oi"], s["di"] = f[13]
    s["order"] = list(f[14])
    if f[16] is None:
        s["fight"] = None
    else:
        s["fight"] = {
            "a": f[16],
            "f": list(f[17]),
            "dice": [None if d is None else list(d) for d in f[18]],
            "asg": [
                None
                if a is None
                else {
                    "v": list(a[0]),
                    "sets": _sets_of(a[1]),
                    "open": None if a[2] is None else _sets_of(a[2])[0],
                    "bud": a[3],
                    "gain": a[4],
                    "spent": a[5],
                    "done": bool(a[6]),
                }
                for a in f[19]
            ],
        }
    if reason:
        _finish(s, [], _REASONS[reason])
