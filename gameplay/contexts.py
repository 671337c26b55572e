"""What a match belongs to (a tournament round, a league season, a ladder), told
by the apps that create such matches.

gameplay stores ``Match.context`` but never reads its meaning: leagues,
tournaments and bot ladders register a *describer* for their context prefix in
their ``AppConfig.ready()``, and the match page shows what it returns in a
small block (the tournament's name and link, the round and its deadline).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext_lazy

from gameplay.models import Match

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MatchContextInfo:
    """One line of "what this game is part of" for the match page."""

    title: str
    url: str = ""
    details: list[str] = field(default_factory=list)
    deadline: datetime | None = None
    # The competition's own ladder this game counts in, for a game that is
    # not rated on the global ladder (``match.rated`` false) but is rated
    # there: the page says "rated in <this>", not "casual".
    rated_in: str = ""


Describer = Callable[[Match], MatchContextInfo | None]
_describers: dict[str, Describer] = {}


def register_context_describer(prefix: str, describer: Describer) -> None:
    """``describer(match)`` explains matches whose context starts with ``prefix``."""
    _describers[prefix] = describer


_seat_keeping_prefixes: set[str] = set()


def register_seat_keeping_context(prefix: str) -> None:
    """Matches whose context starts with ``prefix`` keep an absent player's seat.

    Competitions with their own deadlines (a tournament round, a league
    season) decide no-shows themselves; the grace period that hands an absent
    seat to a bot is for casual tables whose players sat down together.
    """
    _seat_keeping_prefixes.add(prefix)


def seat_keeping_prefixes() -> list[str]:
    return sorted(_seat_keeping_prefixes)


def context_keeps_absent_seats(context: str) -> bool:
    """True when the match's competition, not the grace period, decides absences."""
    return any((context or "").startswith(p) for p in _seat_keeping_prefixes)


_tournament_prefixes: set[str] = set()


def register_tournament_context(prefix: str) -> None:
    """Matches whose context starts with ``prefix`` are tournament games.

    Apps that react to "a tournament game finished" without knowing the
    competitions (the operator's automatic post-game analysis) ask
    :func:`context_is_tournament`; each tournament kind registers its prefix.
    """
    _tournament_prefixes.add(prefix)


def context_is_tournament(context: str) -> bool:
    """True when a registered tournament kind claims the match's context."""
    return any((context or "").startswith(p) for p in _tournament_prefixes)


# Competitions that say whether a player's vacation pauses their games' clocks:
# prefix -> rule(match) -> bool. A match no rule claims allows vacation.
VacationRule = Callable[[Match], bool]
_vacation_rules: dict[str, VacationRule] = {}


def register_vacation_rule(prefix: str, rule: VacationRule) -> None:
    """``rule(match)`` says whether vacation pauses the clocks of matches whose
    context starts with ``prefix`` (a tournament or season that allows none)."""
    _vacation_rules[prefix] = rule


def context_allows_vacation(match: Match) -> bool:
    """Whether a player's vacation pauses this match's correspondence clocks:
    the longest matching prefix's rule; True when no competition says. A rule
    that fails is logged and counts as allowing (as before the rule)."""
    context = match.context or ""
    for prefix in sorted(_vacation_rules, key=len, reverse=True):
        if context.startswith(prefix):
            try:
                return bool(_vacation_rules[prefix](match))
            except Exception:
                logger.exception("vacation rule of context %r failed", context)
                return True
    return True


def describe_match_context(match: Match) -> MatchContextInfo | None:
    """The longest matching prefix's description; None when nobody claims it.

    A describer that fails is logged and ignored: the game page must open even
    when the competition's data is gone or broken.
    """
    context = match.context or ""
    for prefix in sorted(_describers, key=len, reverse=True):
        if context.startswith(prefix):
            try:
                return _describers[prefix](match)
            except Exception:
                logger.exception("describing match context %r failed", context)
                return None
    return None


SEALED_MESSAGE = gettext_lazy(
    "this game's deal is still being played at other tables: it can be "
    "watched, replayed and checked once its round is over"
)
Sealer = Callable[[Match], bool]
_sealers: dict[str, Sealer] = {}


def register_sealed_context(prefix: str, is_sealed: Sealer) -> None:
    """Matches whose context starts with ``prefix`` may be *sealed*.

    A competition that deals the same cards at several tables (a duplicate
    event) seals its matches while some table may still have a deal to play:
    ``is_sealed(match)`` true means nobody but the match's own players may
    watch it, and its seed, replay and record stay secret even once it is
    over (its players still see their own seat's view).
    """
    _sealers[prefix] = is_sealed


def sealed_context_prefixes() -> list[str]:
    """Context prefixes whose matches may be sealed (lists of games to
    watch leave their matches in play out: they would only be refused)."""
    return sorted(_sealers)


def match_is_sealed(match: Match) -> bool:
    """True while the match's competition keeps it from everyone not seated.

    A sealer that fails seals: a secret must not leak because a read broke.
    """
    context = match.context or ""
    for prefix, is_sealed in _sealers.items():
        if context.startswith(prefix):
            try:
                return bool(is_sealed(match))
            except Exception:
                logger.exception("sealing of match context %r failed", context)
                return True
    return False
