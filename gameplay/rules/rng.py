"""Counter-based random numbers whose whole state is one string in the game state.

SplitMix64 advances a 64-bit counter by a fixed odd constant and scrambles it, so
the generator state is just the counter. Storing it as 16 hex digits keeps the game
state JSON-safe everywhere (JavaScript and some JSON columns lose precision on
64-bit integers) and makes ``(config, seed, actions)`` replay identically on any
machine and Python version, which the global ``random`` module does not promise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

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


def below_stream(seed: int) -> Callable[[int], int]:
    """``below(n)``: successive ``randbelow`` draws of the stream seeded
    ``seed_state(seed)``, with the counter kept as an int.

    The Python side of a native policy playout's choice stream: a policy that
    draws through it makes exactly the kernel's choices, and playouts call it
    a few times per decision, where the hex-string state would cost more than
    the policy itself."""
    c = _mix(seed & MASK64)

    def below(n: int) -> int:
        nonlocal c
        c = (c + GAMMA) & MASK64
        z = c
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return (z ^ (z >> 31)) % n

    return below


def policy_chooser(
    choose: Callable[[Any, Sequence[str], Callable[[int], int]], str], seed: int
) -> Callable[[Any, int, Sequence[str]], str]:
    """A ``playout`` chooser playing a game's playout policy ``choose(state,
    ids, below)`` on the stream seeded ``seed`` (:func:`below_stream`): the
    Python twin of a native policy playout.

    A forced move (one legal id) takes no draw, as in ISMCTS's own playout
    loop, so the stream is spent only on real choices, as in the kernels.
    """
    below = below_stream(seed)

    def chooser(state: Any, seat: int, ids: Sequence[str]) -> str:
        return ids[0] if len(ids) == 1 else choose(state, ids, below)

    return chooser


def uniform_chooser(seed: int) -> Callable[[Any, int, Sequence[str]], str]:
    """A ``playout`` chooser picking ``ids[randbelow(stream, len(ids))]``, the
    stream seeded ``seed_state(seed)``: the choice stream the native playout
    kernels (``gameplay/rules/<game>/_fastplay.c``) reproduce exactly."""
    stream = [seed_state(seed)]

    def choose(state: Any, seat: int, ids: Sequence[str]) -> str:
        stream[0], j = randbelow(stream[0], len(ids))
        return ids[j]

    return choose


def _words_for(n: int) -> int:
    """64-bit words whose product space exceeds n! by at least 2**64."""
    perms = math.factorial(n)
    return (perms.bit_length() + 63) // 64 + 1


# Up to 128 cards (the largest deck has 74): a setup's shuffle then skips
# computing a factorial of the deck (3 us of a 40 us setup).
_WORDS = [_words_for(n) for n in range(128)]


def shuffled(state: str, items: str) -> tuple[str, str]:
    """A uniformly random permutation of a string of card characters.

    One big random number (a few 64-bit outputs) is read in the mixed radix
    n, n-1, ..., 2 to drive a Fisher-Yates shuffle: a handful of generator calls
    instead of one per card, with a bias below 2**-64.
    """
    n = len(items)
    if n < 2:
        return state, items
    words = _WORDS[n] if n < len(_WORDS) else _words_for(n)
    state, raw = draw(state, words)
    r = 0
    for x in raw:
        r = (r << 64) | x
    cards = list(items)
    for i in range(n - 1, 0, -1):
        r, j = divmod(r, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return state, "".join(cards)
