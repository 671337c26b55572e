"""Errors the match services raise, each with a stable machine-readable code.

Consumers and API views turn these into error frames and 4xx responses; the code
lets clients react (resync on ``stale_version``) without parsing prose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from config.errors import ServiceError

if TYPE_CHECKING:
    from gameplay.moverule import Refusal


class MatchError(ServiceError):
    code = "match_error"
    status = 400


class MatchNotFound(MatchError):
    code = "not_found"
    status = 404


class Forbidden(MatchError):
    code = "forbidden"
    status = 403


class NotYourTurn(MatchError):
    code = "not_your_turn"
    status = 409


class StaleVersion(MatchError):
    code = "stale_version"
    status = 409


class IllegalMove(MatchError):
    code = "illegal_action"
    status = 400


class NotActive(MatchError):
    code = "not_active"
    status = 409


class BadRequest(MatchError):
    code = "malformed"
    status = 400


def refused(refusal: Refusal) -> MatchError:
    """The error for a refusal of the move rule (``gameplay.moverule``), whose
    codes are these classes' own: both writers of a move raise it alike."""
    for kind in (NotActive, Forbidden, StaleVersion, NotYourTurn, IllegalMove):
        if kind.code == refusal.code:
            return kind(refusal.message)
    raise ValueError(f"no match error has the code {refusal.code!r}")
