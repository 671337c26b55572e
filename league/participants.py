"""Participant identities: a person, an uploaded bot or a built-in bot.

League must not import the bots app (it is built separately and may not be
installed), yet it has to rate bots and let their owners enter them. The bots
app therefore registers a *bot directory* in its ``AppConfig.ready()``::

    from league.participants import BotInfo, register_bot_directory

    class Directory:
        def bot_for_version(self, version_id: int) -> BotInfo | None: ...
        def bot(self, bot_id: int) -> BotInfo | None: ...
        def bots_for_game(self, game: str) -> list[BotInfo]: ...
        def bots_owned_by(self, owner_id: int, game: str) -> list[BotInfo]: ...

    register_bot_directory(Directory())

A seat whose agent is ``bot:<version id>`` is then rated as the bot that owns
that version (all versions of a bot share one rating), and tournaments seat a
bot entrant with its current version. Without a directory such seats are not
rated (logged), and bots cannot be registered.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

from gameplay.agents import AgentNameError, parse_agent, uploaded_agent
from league.errors import Invalid, NotFound
from league.models import Participant, ParticipantKind, ParticipantType

if TYPE_CHECKING:
    from accounts.models import User
    from gameplay.models import Seat

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BotInfo:
    """What league needs to know about an uploaded bot."""

    bot_id: int
    name: str
    owner_id: int | None
    game: str
    # The version a new match seats ("bot:<version id>"); None = not playable.
    version_id: int | None


@runtime_checkable
class BotDirectory(Protocol):
    """What league asks the bots app; every method is required (a test checks
    the registered directory has them all, so none is silently missing)."""

    def bot_for_version(self, version_id: int) -> BotInfo | None: ...

    def bot(self, bot_id: int) -> BotInfo | None: ...

    def bots_for_game(self, game: str) -> list[BotInfo]:
        """Bots of ``game`` an organiser may enter (those that play)."""
        ...

    def bots_owned_by(self, owner_id: int, game: str) -> list[BotInfo]:
        """The owner's bots of ``game`` they may enter or register."""
        ...


_directory: BotDirectory | None = None


def register_bot_directory(directory: BotDirectory | None) -> None:
    """Called by the bots app (``None`` unregisters, for tests)."""
    global _directory
    _directory = directory


def bot_directory() -> BotDirectory | None:
    return _directory


def participant_for_user(user: User) -> Participant:
    participant, created = Participant.objects.get_or_create(
        key=Participant.user_key(user.pk),
        defaults={
            "type": ParticipantType.USER,
            "user": user,
            "name": user.public_name,
        },
    )
    if not created and participant.name != user.public_name:
        participant.name = user.public_name
        participant.save(update_fields=["name"])
    return participant


def participant_for_bot(info: BotInfo) -> Participant:
    participant, created = Participant.objects.get_or_create(
        key=Participant.bot_key(info.bot_id),
        defaults={
            "type": ParticipantType.BOT,
            "bot_id": info.bot_id,
            "owner_id": info.owner_id,
            "name": info.name,
        },
    )
    if not created and (
        participant.name != info.name or participant.owner_id != info.owner_id
    ):
        participant.name, participant.owner_id = info.name, info.owner_id
        participant.save(update_fields=["name", "owner"])
    return participant


def participant_for_builtin(name: str) -> Participant:
    from gameplay.rules.bots import bot_display_name

    display = bot_display_name(name)
    participant, created = Participant.objects.get_or_create(
        key=Participant.builtin_key(name),
        defaults={"type": ParticipantType.BUILTIN, "name": display},
    )
    if not created and participant.name != display:
        # Rows made before the bots had display names showed the raw id.
        participant.name = display
        participant.save(update_fields=["name"])
    return participant


def bot_info(*, bot_id: int) -> BotInfo:
    """Directory lookup for registration and entry; a clear error otherwise."""
    if _directory is None:
        raise Invalid(_("bots cannot be entered: the bots app is not available"))
    info = _directory.bot(bot_id)
    if info is None:
        raise NotFound(_("no bot with id %(bot_id)s") % {"bot_id": bot_id})
    return info


def participants_for_seats(seats: list[Seat]) -> list[Participant | None]:
    """``participant_for_seat`` for a whole match without a query per seat.

    Rating updates run for every finished match; callers fetch the seats with
    ``select_related("user__participant")`` so the people's participants come
    with them, and only a first-time player costs a write.
    """
    out: list[Participant | None] = []
    for seat in seats:
        user = seat.user  # no query when the seat has none
        if user is None:
            out.append(participant_for_seat(seat))
            continue
        try:
            participant = user.participant
        except ObjectDoesNotExist:
            participant = None
        if participant is None or participant.name != user.public_name:
            participant = participant_for_user(user)
        out.append(participant)
    return out


def participant_for_seat(seat: Seat) -> Participant | None:
    """Who a seat stands for in ratings; None when it cannot be told.

    A person replaced by the takeover bot is still that person (they lose). A
    ``bot:<version>`` seat is its bot, via the directory.
    """
    if seat.user is not None:
        return participant_for_user(seat.user)
    agent = seat.agent or ""
    try:
        parsed = parse_agent(agent)
    except AgentNameError:
        logger.warning("cannot rate seat agent %r: not an agent name", agent)
        return None
    if parsed is None:
        return None
    if parsed.is_builtin:
        return participant_for_builtin(parsed.bot)
    if _directory is None:
        logger.warning("cannot rate seat agent %r: no bot directory", agent)
        return None
    info = _directory.bot_for_version(parsed.version_id)
    if info is None:
        logger.warning("cannot rate seat agent %r: unknown bot version", agent)
        return None
    return participant_for_bot(info)


def kind_allows(kind: str, participant: Participant) -> bool:
    """Whether a pool or league of ``kind`` accepts ``participant``."""
    if kind == ParticipantKind.HUMANS:
        return not participant.is_bot
    if kind == ParticipantKind.BOTS:
        return participant.is_bot
    return True


def seat_agent_for(participant: Participant) -> tuple[User | None, str]:
    """(user, agent) to seat ``participant`` in a new match."""
    if participant.type == ParticipantType.USER:
        return participant.user, ""
    if participant.type == ParticipantType.BUILTIN:
        return None, participant.key
    assert participant.bot_id is not None  # the one type left: a bot
    info = bot_info(bot_id=participant.bot_id)
    if info.version_id is None:
        raise Invalid(
            _("%(name)s has no playable version") % {"name": participant.name}
        )
    return None, uploaded_agent(info.version_id)


def can_manage(user: User, participant: Participant) -> bool:
    """A person manages themselves; a bot is managed by its owner."""
    if participant.type == ParticipantType.USER:
        return participant.user_id == user.pk
    if participant.type == ParticipantType.BOT:
        return participant.owner_id == user.pk
    return bool(user.is_staff)
