"""The one base class for errors that services raise on purpose.

Every app's service errors (matches, leagues, bots) carry a stable
machine-readable ``code`` and an HTTP ``status``; the API's exception handler
answers any of them as ``{"code", "detail"}`` and pages show ``message``. A
refused request always leaves the database as it was.
"""

from __future__ import annotations


class ServiceError(Exception):
    code = "error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
