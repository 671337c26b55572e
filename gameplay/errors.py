"""Errors the match services raise, each with a stable machine-readable code.

Consumers and API views turn these into error frames and 4xx responses; the code
lets clients react (resync on ``stale_version``) without parsing prose.

The words are chosen by whoever reads them: an error keeps its English text
(``N_``-marked, ``%(name)s`` placeholders) and params, and :meth:`MatchError.worded`
words it in the active language. ``message`` is worded when the error is made
(a page's request has its language active then); a socket words it again in
its reader's language (``gameplay.consumers``), since a move may be refused in
a thread that has none. An engine's refusal also keeps the engine's English
detail (``str(exc)``, for bots and logs) and its code (``reason``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext

from config.errors import ServiceError
from gameplay.rules import CONFIG_TEXTS, SEAT_PARAMS, GameError

if TYPE_CHECKING:
    from gameplay.moverule import Refusal
    from gameplay.options import OptionError


class MatchError(ServiceError):
    """A refusal. ``message``: its English text (a template when ``params``
    are given and ``text`` is not); ``text``: the player-facing English text
    when it differs from the detail in ``message`` (an engine's refusal);
    ``reason``: the engine's refusal code; ``names``: the players' names by
    seat, for params that name a seat (``gameplay.rules.SEAT_PARAMS``)."""

    code = "match_error"
    status = 400

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        text: str = "",
        params: Mapping[str, Any] | None = None,
        reason: str | None = None,
        names: Iterable[str] = (),
    ) -> None:
        self.text = text or message
        self.params = dict(params or {})
        self.reason = reason
        self.names = list(names)
        if self.params and not text:
            message = _filled(message, self.params, message)
        super().__init__(message, code=code)
        self.english = message
        self.message = self.worded()

    def worded(self) -> str:
        """The player-facing text in the active language."""
        params = {
            key: self._seat(value) if key in SEAT_PARAMS else value
            for key, value in self.params.items()
        }
        if not params:
            return gettext(self.text)
        return _filled(gettext(self.text), params, self.english)

    def extra(self) -> dict[str, object]:
        """An engine's refusal code and params, for programs (the API body and
        the socket's error frame carry them beside the worded message)."""
        if self.reason is None:
            return {}
        return {"reason": self.reason, "params": dict(self.params)}

    def _seat(self, seat: Any) -> Any:
        if type(seat) is int and 0 <= seat < len(self.names):
            return self.names[seat]
        return gettext("seat %(number)s") % {"number": seat}


def _filled(template: str, params: Mapping[str, Any], fallback: str) -> str:
    try:
        return template % params
    except (KeyError, TypeError, ValueError):  # a placeholder the params lack
        return fallback


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


def refused(refusal: Refusal, *, seats: Iterable[Any] = ()) -> MatchError:
    """The error for a refusal of the move rule (``gameplay.moverule``), whose
    codes are these classes' own: both writers of a move raise it alike.
    ``seats`` (with ``number`` and ``display_name``) name the seats an
    engine's refusal mentions."""
    names: list[str] = []
    if refusal.params:
        for seat in sorted(seats, key=lambda seat: seat.number):
            names.append(seat.display_name)
    for kind in (NotActive, Forbidden, StaleVersion, NotYourTurn, IllegalMove):
        if kind.code == refusal.code:
            return kind(
                refusal.message,
                text=refusal.text,
                params=refusal.params,
                reason=refusal.reason,
                names=names,
            )
    raise ValueError(f"no match error has the code {refusal.code!r}")


def config_refused(exc: GameError | OptionError) -> MatchError:
    """The error for a refused configuration: an engine's (``InvalidConfig``,
    an unknown game), worded for the reader from its code's text with the
    code as ``reason`` and the engine's English detail as ``str()``, like a
    refused move; or a table option the platform refuses (``OptionError``).
    A ``GameError`` without a code (a program's mistake) keeps its English
    detail."""
    if not isinstance(exc, GameError):
        return BadRequest(exc.text, params=exc.params)
    text = CONFIG_TEXTS.get(exc.code or "")
    if text is None:
        return BadRequest(str(exc))
    return BadRequest(str(exc), text=text, params=exc.params, reason=exc.code)


def refusal_text(exc: ServiceError | GameError | OptionError) -> str:
    """A refusal in the active language, for the errors that are worded once,
    where they are raised (league and tournament forms, the admin)."""
    if isinstance(exc, ServiceError):
        return exc.worded()
    return config_refused(exc).worded()
