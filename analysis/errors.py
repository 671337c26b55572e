"""Refusals of the analysis services, answered as ``{"code", "detail"}``."""

from __future__ import annotations

from gameplay.errors import MatchError


class NotFinished(MatchError):
    """No analysis, hint or probability exists for a match still in play."""

    code = "not_finished"
    status = 403


class NotAnalysable(MatchError):
    code = "not_analysable"
    status = 409
