"""Errors league services raise, each with a stable code and an HTTP status.

Pages turn them into messages and the API into ``{"code", "detail"}`` answers;
a refused request always leaves the database as it was (services check first,
then write inside one transaction).
"""

from __future__ import annotations

from config.errors import ServiceError


class LeagueError(ServiceError):
    code = "league_error"
    status = 400


class NotFound(LeagueError):
    code = "not_found"
    status = 404


class PermissionDenied(LeagueError):
    code = "forbidden"
    status = 403


class Conflict(LeagueError):
    """The request is well formed but the current state does not allow it."""

    code = "conflict"
    status = 409


class Invalid(LeagueError):
    code = "invalid"
    status = 400
