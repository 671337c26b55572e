"""Unfinished matches of an earlier rules version: called off, said so.

An engine implements only its current rules version (``Game.rules_version``;
a state of another version is refused with ``GameError``). When a game's
rules change (a new card list, a new reading), a match started under the old
version cannot go on: its state, its deal and its remaining actions belong to
rules the engine no longer plays, and going on under the new ones would be a
different game. Such a match is called off without a result (``ABORTED``,
``end_reason`` ``rules_changed``, no rating change); a tournament game called
off before its round's deadline is set up again by the tournament's own tick,
under the current rules. Every unfinished match is checked after each
``migrate`` (the gameplay app's ``post_migrate``), and a move that meets one
anyway calls it off and answers with the reason instead of an error page.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from gameplay import broadcast
from gameplay.models import Match, MatchStatus
from gameplay.rules import GameError, available_games, get_game
from gameplay.services.locking import locked_match

logger = logging.getLogger(__name__)

END_REASON = "rules_changed"
#: What a person is told when their move meets such a match.
#: The refusal's English text (a message: ``MatchError.worded`` words it
#: in the reader's language, on the socket too).
CALLED_OFF_MESSAGE = N_(
    "This game was started under an earlier version of the rules, which the "
    "site no longer plays: it was called off without a result."
)


def played_rules_version(match: Match) -> str | None:
    """The rules version ``match`` was started under, when the engine now
    plays another one (None: current, not started, or an unknown game)."""
    if not isinstance(match.state, dict):
        return None
    try:
        current = get_game(match.game).rules_version
    except GameError:
        return None
    played = match.state.get("rules_version")
    return None if played is None or played == current else str(played)


def match_call_off_outdated(*, match_id: int) -> bool:
    """Call ``match_id`` off if it is unfinished and of an earlier rules
    version; True if it was (now or before, by this rule)."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.is_over:
            return match.end_reason == END_REASON
        played = played_rules_version(match)
        if played is None:
            return False
        match.status = MatchStatus.ABORTED
        match.end_reason = END_REASON
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "end_reason", "finished_at"])
        logger.info(
            "match %s of %s rules version %s called off (the engine plays %s)",
            match.public_id,
            match.game,
            played,
            get_game(match.game).rules_version,
        )
        transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
        return True


def matches_call_off_outdated() -> int:
    """Call off every unfinished match of an earlier rules version; returns
    how many. Only the matches whose state names another version are read."""
    called_off = 0
    for game in available_games():
        current = get_game(game).rules_version
        outdated = (
            Match.objects.filter(game=game, status=MatchStatus.ACTIVE)
            .exclude(state__rules_version=current)
            .exclude(state__isnull=True)
            .values_list("pk", flat=True)
        )
        for match_id in list(outdated):
            called_off += match_call_off_outdated(match_id=match_id)
    return called_off
