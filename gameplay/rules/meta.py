"""What each game's package says about itself beyond the rules.

Shared platform code (the catalogue, the lobby, the built-in bots) reads these
records through :func:`gameplay.rules.game_meta` instead of naming games, so adding
a game means adding its package and one line in the registry
(``gameplay/rules/__init__.py``), nothing else. Plain dataclasses: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def N_(text: str) -> str:
    """Mark ``text`` as a message the platform translates where it shows it
    (docs/i18n.md): the rules stay free of Django, ``makemessages`` and the
    completeness test know ``N_`` as a keyword, and templates and forms pass the
    English text through ``gettext``."""
    return text


@dataclass(frozen=True)
class TableOption:
    """One option a host may set on a public table (a safe subset of the engine's).

    Engine options such as a stacked deck exist for tests and puzzles; public tables
    expose only the options a game lists here, so nobody can set up a rated game
    with a known deal.
    """

    key: str
    label: str
    kind: str  # "choice", "bool" or "int"
    default: object
    choices: tuple[tuple[str, str], ...] = ()
    min_value: int = 0
    max_value: int = 0
    help_text: str = ""
    #: True: this "int" option is the match's time limit in minutes (a
    #: real-time game's own clock, not a per-move one); pages show it as the
    #: table's clock.
    match_minutes: bool = False


@dataclass(frozen=True)
class GameMeta:
    """A game's page metadata and where its built-in bot helpers live.

    ``heuristic`` names a module with ``choose(ctx, rng) -> action id`` (the
    heuristic bot's strategy); ``rollout`` a module with ``policy(state, seat, ids,
    rng) -> action id`` (ISMCTS playouts); ``evaluate`` a module with
    ``evaluate(state) -> {seat: share}``, the estimate ISMCTS backs up when a
    playout is cut off after ``max_rollout_steps``. ``playout`` names a module
    with ``playout(state, seed, max_steps) -> decisions``: the game's policy
    played on a state in place for a whole playout per call (natively when the
    game's kernel is built), its choices drawn from a stream seeded ``seed``;
    when set, ISMCTS plays the policy part of its playouts through it instead
    of calling ``rollout``'s ``policy`` per decision. ``ismcts`` holds the game's
    defaults for the ISMCTS options a caller leaves unset (``max_rollout_steps``,
    ``heuristic_plies``). Modules are named, not imported, so a game's bot code
    loads only when a bot plays it. ``tables`` is (smallest, largest,
    preferred) table of the game's multiplayer Swiss tournaments, within the
    engine's player range; None: the game has no such tables (two players).
    ``catalogue`` names a module with ``catalogue()`` (the public card data the
    board module imports) and ``rules_rows()`` (the rules page's card table
    rows), both written to files by ``manage.py build_board_data``; None: the
    board needs no card data. ``anchors`` holds the fixed ratings of the
    built-in bots in the game's bot pools (bot name -> rating), set from how
    they fare against each other in this game (docs/ratings.md, "Anchors");
    empty: the game's pools have no anchors. ``exhibition`` is the config of
    the bots-only game the demo (``manage.py seed_demo``, ``make run``) shows
    live, with its league games and cup; the demo takes the first registered
    game that has one; None: not a demo game. ``private_messages``: the rules
    make talk between players part of play (Kung Fu 2009's negotiation), so
    two seats may message each other privately at the table. ``review``
    names a module with ``review(*, game, config, seed, steps) -> dict``:
    the post-game analysis
    of a game where a search per decision means nothing (real time: claims
    and trades reviewed from the timed log, docs/analysis.md); None: the
    analysis searches every decision.
    """

    publisher: str
    summary: str
    table_options: tuple[TableOption, ...] = ()
    heuristic: str | None = None
    rollout: str | None = None
    playout: str | None = None
    evaluate: str | None = None
    ismcts: dict[str, int] = field(default_factory=dict)
    tables: tuple[int, int, int] | None = None
    catalogue: str | None = None
    anchors: dict[str, float] = field(default_factory=dict)
    exhibition: dict[str, object] | None = None
    private_messages: bool = False
    review: str | None = None
