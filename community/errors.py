"""Refusals of the community services: a code and a sentence for the person."""


class CommunityError(Exception):
    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ChatRefused(CommunityError):
    code = "chat_refused"


class RateLimited(CommunityError):
    code = "chat_rate_limited"


class NotAvailable(CommunityError):
    """A block, told only as "not available" (never which side blocked)."""

    code = "not_available"
