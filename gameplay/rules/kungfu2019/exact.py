"""Exact values of dice assignments in the game's last fight (analysis check).

Pure Python, no Django; used by the analysis's exactness test and benchmark
(docs/analysis.md), never in play. Independent of the assignment solver
(``solver.py``) and its kernel copy: it enumerates instead of optimising.

In a 2-player game's last fight (round 3, the last attack of the order) the
game ends when the fight is resolved, and nothing that decides it is hidden
from a fighter: the dice rolled, the cards played, the tracks and HP are all
public, and what is hidden (the cards left in hand, the deck) no longer
matters. At the start of the fight both fighters still have to assign.

* A fighter's **final assignments**: every list of sets it can build, each set
  a combination of one of its played cards with that many free dice, adjusted
  at the cheapest cost in HIT/AVO points (spending more never helps), paid in
  order from the track, the red crosses and the gains of the sets closed
  before. What decides the fight is the sum of the sets' effects in the role
  (ATK and HP attacking, DEF and yin-yangs defending), so the finals are
  enumerated by that sum, each with one witness list of sets.
* The **value** of a final assignment ``a`` for the seat: its win share (a
  shared win counts 1/2) when the opponent answers with its own best final
  assignment knowing ``a`` (max^n, as ``gameplay.rules.exact``: with two
  players the opponent's best is the seat's worst). Every pair is played
  through the engine itself (``set``, ``die``, ``up``/``down``, ``done``), so
  the witnesses are checked to be reachable and the fight is resolved by the
  rules, not by a copy of them.
* The **exact value of each action** of the menu at the start of the seat's
  assignment: ``auto`` is the value of the assignment it makes, ``done`` the
  value of no sets, and every other step (``best``, ``set:...``) the best
  value of all: after it the seat can still reach every final assignment
  (``cancel``, ``reset``).
* The **monotone value** of a step, stricter: the best final assignment it
  leads to without taking anything back (no ``cancel``, ``reset`` or
  ``drop``): ``set:s:k`` the best whose first set is that combination, paid
  from the starting budget; ``best`` the best that keeps the loaded
  assignment and adds sets to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Any

from gameplay.rules.base import Game, State
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND, Combo, satisfies

#: One set of a witness: (slot, k, die indices, final faces).
Set = tuple[int, int, tuple[int, ...], tuple[int, ...]]
#: The role's effect of a list of sets: (ATK, HP) attacking, (DEF, yin-yang)
#: defending.
Sum = tuple[int, int]


@dataclass(frozen=True)
class DiceExact:
    """Exact values at the start of ``seat``'s assignment in the last fight."""

    values: dict[str, float]  # action id -> exact win share (see the module)
    monotone: dict[str, float]  # action id -> value without taking back
    finals: int  # distinct final assignments (by effect) of the seat
    answers: int  # distinct final assignments of the opponent
    top_objective: int  # the best ATK + HP (DEF + yin-yang) of the seat's sets

    @property
    def best(self) -> str:
        return max(self.values, key=lambda a: self.values[a])


@lru_cache(maxsize=65536)
def cheapest(combo: Combo, rolled: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The fewest points that make ``rolled`` (in order) satisfy ``combo``, and
    the faces they give; ``(-1, ())`` if none do. Every face tuple is tried."""
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for faces in product(range(1, 7), repeat=len(rolled)):
        if not satisfies(combo, faces):
            continue
        cost = sum(abs(x - r) for x, r in zip(faces, rolled, strict=True))
        if best[0] < 0 or cost < best[0]:
            best = (cost, faces)
    return best


class _Finals:
    """The final assignments of one fighter, from a given start."""

    def __init__(self, state: State, seat: int) -> None:
        f = state["fight"]
        self.role = ATTACK if f["a"] == seat else DEFEND
        self.rolled: list[int] = f["dice"][seat]
        self.bud: int = f["asg"][seat]["bud"]
        played = state["played"][seat]
        self.options = [
            (slot, k, c)
            for slot, ch in enumerate(played)
            for k, c in E.USABLE[ch][self.role]
        ]
        self.options_by = {(slot, k): c for slot, k, c in self.options}
        self.memo: dict[tuple[int, int], dict[Sum, tuple[Set, ...]]] = {}

    def effect(self, c: Combo) -> Sum:
        e = c.effect
        return (e.atk, e.hp) if self.role == ATTACK else (e.def_, e.yy)

    def first_sets(self, used: int, avail: int) -> Iterable[tuple[Set, int, int]]:
        """Each set that can be closed next: (set, dice mask, budget after)."""
        free = [i for i in range(E.DICE) if not used >> i & 1]
        for slot, k, c in self.options:
            for dice in combinations(free, c.n):
                cost, faces = cheapest(c, tuple(self.rolled[i] for i in dice))
                if cost < 0 or cost > avail:
                    continue
                mask = used
                for i in dice:
                    mask |= 1 << i
                yield (
                    (slot, k, dice, faces),
                    mask,
                    avail - cost + c.effect.gain(self.role),
                )

    def reach(self, used: int, avail: int) -> dict[Sum, tuple[Set, ...]]:
        """Every effect sum the sets still to close can add, with a witness."""
        key = (used, avail)
        got = self.memo.get(key)
        if got is not None:
            return got
        out: dict[Sum, tuple[Set, ...]] = {(0, 0): ()}
        by = self.options_by
        for s, mask, after in self.first_sets(used, avail):
            a, b = self.effect(by[(s[0], s[1])])
            for (x, y), rest in self.reach(mask, after).items():
                out.setdefault((x + a, y + b), (s, *rest))
        self.memo[key] = out
        return out


def steps_of(sets: Iterable[Set], rolled: list[int]) -> list[str]:
    """The engine steps that build ``sets`` in order, then ``done``: open the
    set, put each die in and move it to its face (``die``, ``up``/``down``)."""
    out: list[str] = []
    for slot, k, dice, faces in sets:
        out.append(f"set:{slot}:{k}")
        for i, x in zip(dice, faces, strict=True):
            out.append(f"die:{i}")
            step = "up" if x > rolled[i] else "down"
            out += [f"{step}:{i}"] * abs(x - rolled[i])
    return out


def play(game: Game, state: State, seat: int, sets: Iterable[Set]) -> State:
    """``state`` after ``seat`` builds ``sets`` and finishes. A set closes as
    soon as its dice satisfy it, so the moves left for it are skipped."""
    rolled = state["fight"]["dice"][seat]
    for aid in steps_of(sets, rolled):
        asg = state["fight"]["asg"][seat]
        if aid.startswith(("up:", "down:")) and asg["open"] is None:
            continue  # closed already: the set needed fewer moves
        state, _ = game.apply(state, seat, aid)
    state, _ = game.apply(state, seat, "done")
    return state


def share(game: Game, state: State, seat: int) -> float:
    result = game.result(state)
    assert result is not None, "the last fight must end the game"
    winners = result["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def is_last_fight(state: State) -> bool:
    """A 2-player game's last fight, before either fighter has assigned."""
    f = state.get("fight")
    if state["n"] != 2 or state["phase"] != E.ASSIGN or f is None:
        return False
    if state["round"] != E.ROUNDS or state["oi"] != len(state["order"]) - 1:
        return False
    return all(
        a is None or (a["done"] or (not a["sets"] and a["open"] is None))
        for a in f["asg"]
    )


def exact_assignment_values(
    *, game: Game, state: State, seat: int, answer: str = "best"
) -> DiceExact:
    """Exact values of ``seat``'s menu at the start of its last-fight assignment.

    ``answer``: how the opponent assigns, ``"best"`` its best final assignment
    knowing the seat's (max^n), ``"auto"`` the engine's best assignment for the
    fight (``auto``: what the heuristic, the timeout and the search's opponent
    model play).
    """
    if answer not in ("best", "auto"):
        raise ValueError(f"answer must be 'best' or 'auto', got {answer!r}")
    if not is_last_fight(state):
        raise ValueError("not the start of an assignment in a 2-player last fight")
    f = state["fight"]
    asg = f["asg"][seat]
    if asg is None or asg["done"]:
        raise ValueError(f"seat {seat} has no assignment to make")
    other = 1 - seat
    mine = _Finals(state, seat)
    finals = mine.reach(0, mine.bud)
    their = f["asg"][other]
    answers: dict[Sum, tuple[Set, ...]] = (
        {(0, 0): ()} if their is None or their["done"] else {}
    )
    if not answers and answer == "auto":
        answers = {(0, 0): tuple(E.proposal(state, other))}
    elif not answers:
        theirs = _Finals(state, other)
        answers = theirs.reach(0, theirs.bud)

    def worst(sets: tuple[Set, ...]) -> float:
        after = play(game, state, seat, sets)
        if game.is_over(after):
            return share(game, after, seat)
        return min(
            share(game, play(game, after, other, reply), seat)
            for reply in answers.values()
        )

    value = {total: worst(sets) for total, sets in finals.items()}
    top = max(value.values())

    def total_of(sets: Iterable[Any]) -> Sum:
        x = y = 0
        for slot, k, *_ in sets:
            a, b = mine.effect(mine.options_by[(slot, k)])
            x, y = x + a, y + b
        return x, y

    auto_total = total_of(E.proposal(state, seat))
    values: dict[str, float] = {}
    monotone: dict[str, float] = {}
    for aid in game.legal_action_ids(state, seat):
        if aid == "auto":
            values[aid] = monotone[aid] = value[auto_total]
        elif aid == "done":
            values[aid] = monotone[aid] = value[(0, 0)]
        elif aid == "best":
            values[aid] = top
            loaded, _ = game.apply(state, seat, "best")
            a = loaded["fight"]["asg"][seat]
            used = 0
            for _slot, _k, dice in a["sets"]:
                for i in dice:
                    used |= 1 << i
            x, y = total_of(a["sets"])
            more = mine.reach(used, a["bud"] + a["gain"] - a["spent"])
            monotone[aid] = max(value[(x + dx, y + dy)] for dx, dy in more)
        elif aid.startswith("set:"):
            values[aid] = top
            slot, k = (int(p) for p in aid[4:].split(":"))
            x, y = mine.effect(mine.options_by[(slot, k)])
            reached = [
                value[(x + dx, y + dy)]
                for s, mask, after in mine.first_sets(0, mine.bud)
                if (s[0], s[1]) == (slot, k)
                for dx, dy in mine.reach(mask, after)
            ]
            # No affordable set for it: the step can only be cancelled.
            monotone[aid] = max(reached) if reached else 0.0
        else:  # pragma: no cover - the start of an assignment has no other steps
            raise ValueError(f"unexpected step {aid!r} at the start of an assignment")
    return DiceExact(
        values=values,
        monotone=monotone,
        finals=len(finals),
        answers=len(answers),
        top_objective=max(x + y for x, y in finals),
    )


def last_fight_positions(
    *,
    game: Game,
    seeds: Iterable[int],
    bots: tuple[str, str] = ("heuristic", "heuristic"),
    config: dict[str, Any] | None = None,
    after: bool = False,
) -> list[tuple[int, State, int]]:
    """The start of the last fight of seeded 2-player games (``bots`` by seat),
    once per fighter with a choice: ``(seed, state, seat)``. A game that ends
    before its last fight (an elimination) gives none."""
    from gameplay.rules.bots import decision_context, get_bot

    playing = [get_bot(name) for name in bots]
    found = []
    for seed in seeds:
        state = game.setup(config or {"players": 2}, seed)
        step = 0
        while not game.is_over(state):
            if is_last_fight(state):
                who = game.actors(state)
                for seat in who:
                    if len(game.legal_action_ids(state, seat)) > 1:
                        found.append((seed, state, seat))
                if after and len(who) == 2:
                    # The first fighter finishes as its bot plays; then the
                    # other decides, the first one's sets unseen.
                    first = who[0]
                    while first in game.actors(state):
                        ctx = decision_context(game, state, first, seed * 1000 + step)
                        state, _ = game.apply(state, first, playing[first].choose(ctx))
                        step += 1
                    if is_last_fight(state) and game.actors(state) == [who[1]]:
                        found.append((seed, state, who[1]))
                break
            seat = game.actors(state)[0]
            ctx = decision_context(game, state, seat, seed * 1000 + step)
            state, _ = game.apply(state, seat, playing[seat].choose(ctx))
            step += 1
    return found


#: The bots of the test set's seeded games, by seat.
DICE_SETS: tuple[tuple[str, str], ...] = (
    ("heuristic", "heuristic"),
    ("heuristic", "random"),
)


def dice_positions(*, game: Game, seeds: Iterable[int]) -> list[tuple[int, State, int]]:
    """The test set: ``last_fight_positions`` of the seeded games of each pair
    of ``DICE_SETS``, the second fighter's decision after the first finished
    included."""
    seeds = list(seeds)
    return [
        row
        for bots in DICE_SETS
        for row in last_fight_positions(game=game, seeds=seeds, bots=bots, after=True)
    ]
