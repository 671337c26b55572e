"""Dice combinations of the Kung Fu dice game (2019) and what they do.

A card shows one or more combinations at its bottom, each with an effect. A
player activates a combination by assigning a *set* of its rolled dice to it (a
red cross needs no dice); several disjoint sets may go onto the same card, each
activating its effect once (rulebook, Fighting Phase 4-3).

The data model is two frozen, hashable dataclasses with a JSON form, so card
lists stay data, the solver can cache by combination, and the engine can put
them into states and events as plain dicts:

* :class:`Effect`: what one activation adds. Attack fields (``atk``, ``hit``,
  ``hp``) count only when the owner attacks, defence fields (``def_``, ``avo``,
  ``yy``) only when it defends (rulebook, "Effects"). ``hp`` may be negative (a
  strong technique that costs HP); ``yy`` is the yin-yang, 1 damage to the
  attacker per activation. ``hit``/``avo`` add adjustment points for this fight.
* :class:`Combo`: the dice a set needs (``kind``, ``n``, ``faces``, ``total``)
  plus its :class:`Effect`.

Kinds (``n`` is always the exact number of dice in the set, except where noted):

============  ==============================================================
``cross``     the red cross: no dice (``n`` = 0); active once, automatically
``faces``     ``n`` dice, each showing one of ``faces`` ("4/5/6": n=1,
              faces=(4, 5, 6); "two sixes": n=2, faces=(6,))
``kind``      ``n`` dice showing the same value (pair n=2, three of a kind
              n=3 ...); ``faces`` non-empty restricts the value
``straight``  ``n`` dice showing consecutive values (1-2-3, 3-4-5-6 ...)
``sum_over``  dice whose sum is greater than ``total`` ("sum > 11"); ``n`` = 0
              means a set of any size (at least one die)
``sum_under`` ``n`` dice (``n`` >= 1) whose sum is less than ``total``
============  ==============================================================

JSON: ``{"kind": "sum_over", "n": 0, "total": 11, "effect": {"atk": 6}}``; the
effect lists its non-zero fields, the defence field is spelled ``"def"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ATTACK = "atk"
DEFEND = "def"
ROLES = (ATTACK, DEFEND)

KINDS = ("cross", "faces", "kind", "straight", "sum_over", "sum_under")
FACES = (1, 2, 3, 4, 5, 6)
MAX_DICE = 7

# Effect field -> JSON key; and which fields each role uses.
_JSON_KEYS = {
    "atk": "atk",
    "hit": "hit",
    "hp": "hp",
    "def_": "def",
    "avo": "avo",
    "yy": "yy",
}
_FROM_JSON = {v: k for k, v in _JSON_KEYS.items()}
ROLE_FIELDS = {ATTACK: ("atk", "hit", "hp"), DEFEND: ("def_", "avo", "yy")}


@dataclass(frozen=True, slots=True)
class Effect:
    """What one activation of a combination adds (see the module docstring)."""

    atk: int = 0
    hit: int = 0
    hp: int = 0
    def_: int = 0
    avo: int = 0
    yy: int = 0

    @classmethod
    def of(cls, kind: str, amount: int) -> Effect:
        """One effect field by its JSON name: ``Effect.of("atk", 6)``, ``("yy", 1)``."""
        if kind not in _FROM_JSON:
            raise ValueError(f"unknown effect kind {kind!r}; kinds: {list(_FROM_JSON)}")
        return cls(**{_FROM_JSON[kind]: amount})

    def for_role(self, role: str) -> Effect:
        """The part of this effect that works in ``role`` (the rest is zeroed)."""
        if role == ATTACK:
            return Effect(atk=self.atk, hit=self.hit, hp=self.hp)
        if role == DEFEND:
            return Effect(def_=self.def_, avo=self.avo, yy=self.yy)
        raise ValueError(f"role must be {ATTACK!r} or {DEFEND!r}, got {role!r}")

    def gain(self, role: str) -> int:
        """Adjustment points one activation adds in ``role`` (HIT or AVO)."""
        return self.hit if role == ATTACK else self.avo

    def active_in(self, role: str) -> bool:
        """Whether the effect does anything in ``role``."""
        return any(getattr(self, f) for f in ROLE_FIELDS[role])

    def __add__(self, other: Effect) -> Effect:
        return Effect(
            self.atk + other.atk,
            self.hit + other.hit,
            self.hp + other.hp,
            self.def_ + other.def_,
            self.avo + other.avo,
            self.yy + other.yy,
        )

    def to_json(self) -> dict[str, int]:
        return {j: getattr(self, f) for f, j in _JSON_KEYS.items() if getattr(self, f)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Effect:
        unknown = set(data) - set(_FROM_JSON)
        if unknown:
            raise ValueError(f"unknown effect field(s): {sorted(unknown)}")
        values = {}
        for key, value in data.items():
            if type(value) is not int:
                raise ValueError(f"effect {key} must be an integer, got {value!r}")
            values[_FROM_JSON[key]] = value
        return cls(**values)

    def label(self) -> str:
        """Short text such as "+6 ATK" or "+2 DEF, 1 yin-yang"."""
        names = {
            "atk": "ATK",
            "hit": "HIT",
            "hp": "HP",
            "def_": "DEF",
            "avo": "AVO",
        }
        parts = [
            f"{getattr(self, f):+d} {n}" for f, n in names.items() if getattr(self, f)
        ]
        if self.yy:
            parts.append(f"{self.yy} yin-yang")
        return ", ".join(parts) or "nothing"


NO_EFFECT = Effect()


@dataclass(frozen=True, slots=True)
class Combo:
    """One combination on a card: the dice it needs and its effect."""

    kind: str
    n: int = 0
    faces: tuple[int, ...] = ()
    total: int = 0
    effect: Effect = NO_EFFECT
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        # Combinations key the solver's caches on every call: hash them once.
        return self._hash

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "_hash",
            hash((self.kind, self.n, self.faces, self.total, self.effect)),
        )
        k, n = self.kind, self.n
        if k not in KINDS:
            raise ValueError(f"unknown combination kind {k!r}; kinds: {KINDS}")
        if type(n) is not int or not 0 <= n <= MAX_DICE:
            raise ValueError(f"{k}: n must be 0-{MAX_DICE}, got {n!r}")
        if any(f not in FACES for f in self.faces) or list(self.faces) != sorted(
            set(self.faces)
        ):
            raise ValueError(
                f"{k}: faces must be distinct 1-6, ascending: {self.faces}"
            )
        if k == "cross" and (n or self.faces or self.total):
            raise ValueError("cross takes no dice, faces or total")
        if k == "faces" and (n < 1 or not self.faces):
            raise ValueError("faces needs n >= 1 and at least one face")
        if k == "kind" and n < 2:
            raise ValueError("kind needs n >= 2")
        if k == "straight" and not 2 <= n <= 6:
            raise ValueError("straight needs 2 <= n <= 6")
        if k in ("straight", "sum_over", "sum_under") and self.faces:
            raise ValueError(f"{k} takes no faces")
        if k == "sum_under" and n < 1:
            raise ValueError("sum_under needs n >= 1")
        if k in ("faces", "kind", "straight", "cross") and self.total:
            raise ValueError(f"{k} takes no total")

    @property
    def pattern(self) -> tuple[str, int, tuple[int, ...], int]:
        """The dice requirement alone (the effect left out): the solver's cache key."""
        return (self.kind, self.n, self.faces, self.total)

    @property
    def needs_dice(self) -> bool:
        return self.kind != "cross"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.n:
            out["n"] = self.n
        if self.faces:
            out["faces"] = list(self.faces)
        if self.total:
            out["total"] = self.total
        out["effect"] = self.effect.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Combo:
        unknown = set(data) - {"kind", "n", "faces", "total", "effect"}
        if unknown:
            raise ValueError(f"unknown combination field(s): {sorted(unknown)}")
        return cls(
            kind=data["kind"],
            n=data.get("n", 0),
            faces=tuple(data.get("faces", ())),
            total=data.get("total", 0),
            effect=Effect.from_json(data.get("effect", {})),
        )

    def label(self) -> str:
        """The requirement as printed: "sum > 11", "4/5/6", "pair", "straight of 4"."""
        k, n = self.kind, self.n
        if k == "cross":
            return "red cross"
        if k == "faces":
            one = "/".join(str(f) for f in self.faces)
            return one if n == 1 else f"{n} x {one}"
        if k == "kind":
            name = {2: "pair", 3: "three of a kind", 4: "four of a kind"}.get(
                n, f"{n} of a kind"
            )
            if self.faces:
                name += " of " + "/".join(str(f) for f in self.faces)
            return name
        if k == "straight":
            return f"straight of {n}"
        if k == "sum_over":
            return f"sum > {self.total}" if not n else f"{n} dice, sum > {self.total}"
        return f"{n} dice, sum < {self.total}"


def size(combo: Combo) -> int:
    """Dice in one set of ``combo`` (0 for the red cross; 0 = any for ``sum_over``)."""
    return combo.n


def side(kind: str) -> str:
    """The role an effect field works in: ``side("hp") == "atk"``."""
    for role, fields in ROLE_FIELDS.items():
        if _FROM_JSON.get(kind, kind) in fields:
            return role
    raise ValueError(f"unknown effect kind {kind!r}")


def label(combo: Combo) -> str:
    return combo.label()


_CODE_KINDS = {"pair": ("kind", 2), "three": ("kind", 3), "four": ("kind", 4)}


def parse(code: str, effect: Effect = NO_EFFECT) -> Combo:
    """A combination from a short code, for compact card lists.

    ``cross``; ``pair`` / ``three`` / ``four`` (optionally ``pair6``: a pair of
    sixes); ``straight3`` .. ``straight6``; ``face456`` (one die showing 4, 5 or
    6), ``2face6`` (two dice each showing 6); ``sum3>11`` (three dice summing to
    more than 11), ``sum>11`` (any number of dice); ``sum2<5``.
    """
    c = code.strip()
    try:
        if c == "cross":
            return Combo("cross", effect=effect)
        for name, (kind, n) in _CODE_KINDS.items():
            if c.startswith(name):
                vals = tuple(sorted({int(x) for x in c[len(name) :]}))
                return Combo(kind, n=n, faces=vals, effect=effect)
        if c.startswith("straight"):
            return Combo("straight", n=int(c[8:]), effect=effect)
        if "face" in c:
            count, _, digits = c.partition("face")
            n = int(count) if count else 1
            return Combo(
                "faces", n=n, faces=tuple(int(x) for x in digits), effect=effect
            )
        if c.startswith("sum") and ">" in c:
            count, _, total = c[3:].partition(">")
            return Combo(
                "sum_over",
                n=int(count) if count else 0,
                total=int(total),
                effect=effect,
            )
        if c.startswith("sum") and "<" in c:
            count, _, total = c[3:].partition("<")
            return Combo("sum_under", n=int(count), total=int(total), effect=effect)
    except ValueError as exc:
        raise ValueError(f"bad combination code {code!r}: {exc}") from None
    raise ValueError(f"bad combination code {code!r}")


def code(combo: Combo) -> str:
    """The short code of ``combo`` (the inverse of :func:`parse`, effect left out)."""
    k, n = combo.kind, combo.n
    vals = "".join(str(f) for f in combo.faces)
    if k == "cross":
        return "cross"
    if k == "kind":
        name = {2: "pair", 3: "three", 4: "four"}.get(n)
        if name is None:
            raise ValueError(f"no code for {n} of a kind")
        return name + vals
    if k == "straight":
        return f"straight{n}"
    if k == "faces":
        return ("" if n == 1 else str(n)) + "face" + vals
    if k == "sum_over":
        return f"sum{n or ''}>{combo.total}"
    return f"sum{n}<{combo.total}"


def satisfies(combo: Combo, dice: Sequence[int] | Iterable[int]) -> bool:
    """Whether the set ``dice`` (face values, any order) activates ``combo`` once.

    The set must have exactly the dice the combination asks for (no spare dice):
    a spare die could otherwise be counted twice, once here and once elsewhere.
    """
    d = dice if isinstance(dice, tuple | list) else tuple(dice)
    k, n = combo.kind, combo.n
    size = len(d)
    if k == "cross":
        return size == 0
    if k == "sum_over":
        if size == 0 or (n and size != n):
            return False
        return sum(d) > combo.total
    if size != n:
        return False
    if k == "faces":
        allowed = combo.faces
        return all(x in allowed for x in d)
    if k == "kind":
        first = d[0]
        if any(x != first for x in d):
            return False
        return not combo.faces or first in combo.faces
    if k == "straight":
        s = sorted(d)
        return all(s[i + 1] == s[i] + 1 for i in range(size - 1))
    # sum_under
    return sum(d) < combo.total


def cross(effect: Effect) -> Combo:
    return Combo("cross", effect=effect)


def faces(faces_: Iterable[int], effect: Effect, n: int = 1) -> Combo:
    return Combo("faces", n=n, faces=tuple(sorted(set(faces_))), effect=effect)


def straight(n: int, effect: Effect) -> Combo:
    return Combo("straight", n=n, effect=effect)


def sum_over(total: int, effect: Effect, n: int = 0) -> Combo:
    return Combo("sum_over", n=n, total=total, effect=effect)


def sum_under(total: int, n: int, effect: Effect) -> Combo:
    return Combo("sum_under", n=n, total=total, effect=effect)
