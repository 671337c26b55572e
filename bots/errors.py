"""Errors the bot services raise, shown to the author as they are.

They extend gameplay's ``MatchError`` so the API's exception handler answers
``{"code", "detail"}`` with the right status without a bots-specific hook.
"""

from __future__ import annotations

from gameplay.errors import MatchError


class BotError(MatchError):
    code = "bot_error"
    status = 400


class BotNotFound(BotError):
    code = "not_found"
    status = 404


class BotForbidden(BotError):
    code = "forbidden"
    status = 403


class UploadRefused(BotError):
    """The upload is malformed, oversized, for the wrong game, or over a limit."""

    code = "upload_refused"


class SandboxRefused(BotError):
    """No working sandbox: uploaded bots are refused rather than run unprotected."""

    code = "sandbox_unavailable"
    status = 503
