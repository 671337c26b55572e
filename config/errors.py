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

    def worded(self) -> str:
        """The message in the active language (a subclass that keeps its
        English text and params words it again; by default the message as it
        was made)."""
        return self.message

    def extra(self) -> dict[str, object]:
        """More for programs in an API error body (an engine's refusal code)."""
        return {}
