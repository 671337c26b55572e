"""Kung Fu (2019): the native playout kernel (``_fastplay.c``) plays exactly the
engine's rules: for thousands of seeds at 2, 3, 4 and 5 players, ``random_playout``
in C and the Python ``playout`` fed the same choices (``uniform_chooser``) leave
identical states (result with placements and winners, HP, eliminations, tracks,
hands, deck, discard, the RNG, the fight in progress, the step count), from
``setup`` and from every kind of mid-game state, with ``max_steps`` cuts. The
kernel's copy of the exact dice solver is compared with ``solver.py`` on
thousands of random hands, rolls and budgets, and the engine, which asks that
copy for its "auto" and "best" proposals, plays the same games with the Python
solver. Skipped only when the optional
extension is not built; the fallback test runs either way."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from gameplay.rules.errors import IllegalAction
from gameplay.rules.kungfu2019 import assignment as A
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import solver as S
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND
from gameplay.rules.rng import uniform_chooser
from tests.rules.kungfu2019_helpers import GAME, deal
from tests.rules.properties import native_matches_python

native = pytest.mark.skipif(not E.NATIVE, reason="the C kernel _fastplay is not built")


def _kernel() -> Any:
    """The C kernel the engine imported (its private ``_native``), or None."""
    return vars(E)["_native"]


def _config(players: int, seed: int) -> dict:
    """Mostly plain games; some first-game (no draft), stacked dice or deck."""
    kind = seed % 5
    if kind == 1:
        return {"players": players, "draft": False}
    if kind == 2:
        rnd = random.Random(seed)
        rolls = [
            [rnd.randint(1, 6) for _ in range(7)] for _ in range(rnd.randint(1, 9))
        ]
        return {"players": players, "dice": rolls}
    if kind == 3:
        return {
            "players": players,
            "deck": [E.CODES[(seed * 7 + i) % 74] for i in range(5)],
        }
    return {"players": players}


def _both(state: dict, seed: int, max_steps: int | None = None) -> tuple[dict, int]:
    return native_matches_python(GAME, state, seed, max_steps)


@native
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize(
    "block",
    # 500 seeded games per block: the first (2,000 over the table sizes) in
    # the default suite, the next 2,000 with the slow set.
    [0, pytest.param(1, marks=pytest.mark.slow)],
)
def test_native_games_end_exactly_as_python_ones(players: int, block: int) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(block * 500, (block + 1) * 500):
        state = GAME.setup(_config(players, seed), seed)
        final, steps = _both(state, seed ^ 0x5EED)
        assert GAME.is_over(final)
        assert steps > 0
        result = final["result"]
        reasons[result["reason"]] += 1
        assert sorted(result["placements"])[0] == 1
    assert reasons["rounds"] > 0
    if players == 2:
        assert reasons["last_standing"] + reasons["all_eliminated"] > 0


@native
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_native_playout_from_every_kind_of_mid_game_state(players: int) -> None:
    """Entry at decision points of every phase (draft, commits, a fight with open
    and closed sets, adjusted dice, some fighters done), cut after ``max_steps``."""
    phases: Counter[str] = Counter()
    open_sets = 0
    rnd = random.Random(players)
    for game in range(40):
        state = GAME.setup(_config(players, game), 20_000 + game)
        while GAME.actors(state):
            phases[state["phase"]] += 1
            f = state["fight"]
            if f is not None and any(a and a["open"] for a in f["asg"]):
                open_sets += 1
            if rnd.random() < 0.08:
                cut = rnd.choice([None, 1, 2, 5, 30])
                out, steps = _both(state, rnd.getrandbits(64), cut)
                if cut is not None and not GAME.is_over(out):
                    assert steps == cut
            seat = GAME.actors(state)[0]
            ids = GAME.legal_action_ids(state, seat)
            state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])
        _both(state, 1)  # a finished game: nothing to play
    assert set(phases) == {E.DRAFT, E.PLAYING, E.ASSIGN}
    assert open_sets > 0


@native
def test_native_stacked_positions_match() -> None:
    """Hand-made corners: the 2-player dummy, equal initiative totals (the
    tie-break shuffle), stacked rolls that knock players out."""
    positions = [
        deal([["c70", "c71", "c72"], ["c01", "c02", "c03"]], dice=[[6] * 7] * 6),
        deal([["c01", "c02", "c03"], ["c04", "c05", "c06"], ["c07", "c08", "c09"]]),
        deal(
            [["c60"], ["c61"], ["c62"], ["c63"], ["c64"]], dice=[[1, 2, 3, 4, 5, 6, 6]]
        ),
        deal([["c10", "c11"], ["c12", "c13"]], dummy=["c72", "c73", "c74"]),
    ]
    for i, state in enumerate(positions):
        for seed in range(150):
            _both(state, seed * 31 + i)


@native
@pytest.mark.parametrize("block", range(3))
def test_native_solver_is_solver_py(block: int) -> None:
    """The kernel's solver gives ``best_assignment``'s sets (same sets, same die
    ids, same faces, same order) for random hands, rolls, roles and budgets."""
    rnd = random.Random(block)
    for _ in range(2000):
        played = "".join(rnd.sample(E.ALPHABET, 3))
        role = rnd.choice([ATTACK, DEFEND])
        rolled = [rnd.randint(1, 6) for _ in range(7)]
        track = rnd.choice([0, 0, 1, 2, 3, 5, 8, 12])
        bud = track + sum(E.CROSS[c][role][1] for c in played)
        want = S.best_assignment(list(rolled), A._options(played), track, role)
        got = _kernel().solve(played, 0 if role == ATTACK else 1, bytes(rolled), bud)
        assert got == [(s, k, tuple(d), tuple(f)) for s, k, d, f in want]


@native
def test_native_solve_checked_is_the_engines_check_of_solve() -> None:
    """``solve_checked`` (what "auto", "best" and ``determinize`` load) is the
    engine's ``_check_assignment`` of the kernel's ``solve``: same die values,
    closed sets, gain and spent, as lists like the state keeps them."""
    rnd = random.Random(7)
    kernel = _kernel()
    for _ in range(3000):
        played = "".join(rnd.sample(E.ALPHABET, 3))
        role = rnd.choice([ATTACK, DEFEND])
        rolled = [rnd.randint(1, 6) for _ in range(7)]
        bud = rnd.choice([0, 0, 1, 2, 3, 5, 8, 12])
        r = 0 if role == ATTACK else 1
        sets = kernel.solve(played, r, bytes(rolled), bud)
        want = A._check_assignment(played, role, rolled, bud, sets)
        got = kernel.solve_checked(played, r, bytes(rolled), bud)
        assert want is not None and got == want
        assert type(got[0]) is list and all(type(st[2]) is list for st in got[1])


@native
@pytest.mark.parametrize("players", [2, 4])
def test_games_are_the_same_with_a_kernel_without_solve_checked(
    players: int, monkeypatch
) -> None:
    """A kernel built before ``solve_checked`` (the engine checks ``solve``'s
    sets itself then) plays the same games."""
    for seed in range(30):
        config = _config(players, seed)
        new = GAME.setup(config, seed)
        steps = GAME.playout(new, uniform_chooser(seed))
        monkeypatch.setattr(A, "_solve_checked", None)
        old = GAME.setup(config, seed)
        assert GAME.playout(old, uniform_chooser(seed)) == steps
        monkeypatch.undo()
        assert new == old


@native
def test_native_refuses_a_foreign_state_like_playout() -> None:
    with pytest.raises(Exception) as slow:
        GAME.playout({"rules_version": "x"}, uniform_chooser(0))
    with pytest.raises(type(slow.value)):
        GAME.random_playout({"rules_version": "x"}, 0)
    state = GAME.setup({"players": 3}, 1)
    broken = copy.deepcopy(state)
    broken["packs"][0] += "~"
    with pytest.raises(ValueError):
        GAME.random_playout(broken, 0)


def test_playout_refuses_an_illegal_choice() -> None:
    state = GAME.setup({"players": 2}, 3)
    with pytest.raises(IllegalAction):
        GAME.playout(state, lambda s, seat, ids: "pick:nope")


def test_python_fallback_is_the_uniform_chooser(monkeypatch) -> None:
    """Without the kernel ``random_playout`` is ``playout(uniform_chooser)``."""
    monkeypatch.setattr(E, "_native", None)
    for seed in range(12):
        a = GAME.setup(_config(2 + seed % 4, seed), seed)
        b = copy.deepcopy(a)
        assert GAME.random_playout(a, seed) == GAME.playout(b, uniform_chooser(seed))
        assert a == b and GAME.is_over(a)


@native
@pytest.mark.parametrize("players", [2, 3, 5])
def test_engine_dice_proposals_are_the_same_with_and_without_the_kernel(
    players: int, monkeypatch
) -> None:
    """The engine asks the kernel's solver for "auto" and "best" when it is built;
    whole games chosen by the same stream end identically with the Python solver
    (the kernel switched off), so the shortcut changes no game."""
    kernel = _kernel()
    for seed in range(60):
        config = _config(players, seed)
        with_kernel = GAME.setup(config, seed)
        steps = GAME.playout(with_kernel, uniform_chooser(seed))
        monkeypatch.setattr(A, "_native", None)
        without = GAME.setup(config, seed)
        assert GAME.playout(without, uniform_chooser(seed)) == steps
        monkeypatch.setattr(A, "_native", kernel)
        assert with_kernel == without
