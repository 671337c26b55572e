"""Counter-based random numbers whose whole state is one string in the game state.

SplitMix64 advances a 64-bit counter by a fixed odd constant and scrambles it, so
the generator state is just the counter. Storing it as 16 hex digits keeps the game
state JSON-safe everywhere (JavaScript and some JSON columns lose precision on
64-bit integers) and makes ``(config, seed, actions)`` replay identically on any
machine and Python version, which the global ``random`` module does not promise.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    """The SplitMix64 output function (a bijective scramble of the counter)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def seed_state(seed: int) -> str:
    """Turn any integer seed into a generator state.

    The seed is scrambled first so that nearby seeds (1, 2, 3...) start far apart.
    """
    return format(_mix(seed & MASK64), "016x")


def draw(state: str, n: int) -> tuple[str, list[int]]:
    """Return the next state and ``n`` raw 64-bit outputs."""
    c = int(state, 16)
    out = []
    for _ in range(n):
        c = (c + GAMMA) & MASK64
        out.append(_mix(c))
    return format(c, "016x"), out


def randbelow(state: str, bound: int) -> tuple[str, int]:
    """A number in ``range(bound)``; modulo bias is below 2**-50 for our bounds."""
    state, (x,) = draw(state, 1)
    return state, x % bound


def shuffled(state: str, items: str) -> tuple[str, str]:
    """Fisher-Yates shuffle of a string of card characters."""
    cards = list(items)
    n = len(cards)
    if n < 2:
        return state, items
    state, raw = draw(state, n - 1)
    for k, i in enumerate(range(n - 1, 0, -1)):
        j = raw[k] % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return state, "".join(cards)
