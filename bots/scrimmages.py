"""Scrimmages: unrated games on demand against an opponent the owner picks.

The owner of an uploaded bot picks one of its validated versions, an
opponent (a built-in bot, or a validated version of any bot of the game,
their own included) and a number of games (at most ``MAX_GAMES``). The games
are played on duplicate deals (each deal once per rotation of the seats, so
the luck of the deal cancels out) by the bots workers, exactly like ladder
games but unrated; the owner reads the results, replays and logs on the
scrimmage's page. A per-owner daily budget of games
(``BOT_SCRIMMAGE_DAILY_GAMES``) keeps one author from filling the queue.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from bots import enqueue
from bots.errors import BotError, BotForbidden, BotNotFound, SandboxRefused
from bots.models import (
    Bot,
    BotMatchLog,
    BotStatus,
    BotVersion,
    Scrimmage,
    VersionStatus,
)
from gameplay.agents import AgentNameError, builtin_agent, parse_agent
from gameplay.models import Match
from gameplay.rules import get_game
from gameplay.services import SeatSpec, match_create, match_start

MAX_GAMES = 50
#: Versions that passed validation (a failed one never plays).
PLAYABLE = (VersionStatus.ACTIVE, VersionStatus.RETIRED)


def daily_games() -> int:
    """Scrimmage games one owner may ask for in 24 hours (a worker plays some
    6-11 Duelo matches a second, so 200 is a minute of one worker's time)."""
    return int(getattr(settings, "BOT_SCRIMMAGE_DAILY_GAMES", 200))


def table_size(game: str) -> int:
    return max(2, get_game(game).min_players)


@dataclass(frozen=True)
class Opponent:
    agent: str
    label: str


def scrimmage_opponents(*, bot: Bot) -> list[Opponent]:
    """Who the bot may meet: the game's built-in bots, the active version of
    every other bot of the game that plays, and the bot's own validated
    versions."""
    from gameplay.rules.bots import available_bots, bot_display_name, bot_plays

    engine = get_game(bot.game)
    options = [
        Opponent(builtin_agent(name), bot_display_name(name))
        for name in available_bots()
        if bot_plays(name, engine)
    ]
    others = (
        Bot.objects.filter(
            game=bot.game,
            status=BotStatus.ACTIVE,
            disabled=False,
            active_version__status=VersionStatus.ACTIVE,
        )
        .exclude(pk=bot.pk)
        .select_related("active_version", "owner")
        .order_by("name", "pk")
    )
    for other in others:
        version = other.active_version
        assert version is not None  # the filter on its status
        options.append(
            Opponent(
                version.agent,
                f"{other.name} v{version.number} ({other.owner.public_name})",
            )
        )
    for version in bot.versions.filter(status__in=PLAYABLE).order_by("-number"):
        options.append(Opponent(version.agent, f"{bot.name} v{version.number}"))
    return options


def _opponent(bot: Bot, agent: str) -> Opponent:
    try:
        parsed = parse_agent(agent)
    except AgentNameError:
        parsed = None
    if parsed is None:
        raise BotError(_("Choose an opponent: a built-in bot or a bot's version."))
    if parsed.is_builtin:
        for option in scrimmage_opponents(bot=bot):
            if option.agent == agent:
                return option
        raise BotError(
            _("No built-in bot %(bot)s plays this game.") % {"bot": repr(parsed.bot)}
        )
    version = (
        BotVersion.objects.select_related("bot__owner")
        .filter(pk=parsed.version_id)
        .first()
    )
    if (
        version is None
        or version.bot.game != bot.game
        or version.status not in PLAYABLE
        or version.bot.disabled
    ):
        raise BotError(
            _("That version cannot play: it must be validated, of this game.")
        )
    label = f"{version.bot.name} v{version.number}"
    if version.bot_id != bot.pk:
        label += f" ({version.bot.owner.public_name})"
    return Opponent(agent, label)


def scrimmage_create(
    *,
    user: User,
    bot_id: int,
    opponent: str,
    games: int,
    version_number: int | None = None,
) -> Scrimmage:
    """Start ``games`` unrated games of the owner's bot against ``opponent``.

    ``games`` is rounded up to whole duplicate deals (a multiple of the
    table's seats) within ``MAX_GAMES``. Every refusal changes nothing.
    """
    from bots.services import sandbox_gate

    bot = Bot.objects.select_related("active_version").filter(pk=bot_id).first()
    if bot is None:
        raise BotNotFound(_("No such bot."))
    if bot.owner_id != user.pk:
        raise BotForbidden(_("Only the bot's owner can run scrimmages."))
    if bot.disabled:
        raise BotError(_("A disabled bot plays nothing."))
    if isinstance(games, bool) or not isinstance(games, int):
        raise BotError(_("games must be a whole number."))
    if not 1 <= games <= MAX_GAMES:
        raise BotError(
            _("A scrimmage has 1 to %(max_games)s games.") % {"max_games": MAX_GAMES}
        )
    if version_number is None:
        version = bot.active_version
    else:
        version = bot.versions.filter(number=version_number).first()
    if version is None or version.status not in PLAYABLE:
        raise BotError(_("Only a validated version plays scrimmages."))
    rival = _opponent(bot, opponent)
    gate_ok, reason = sandbox_gate()
    if not gate_ok:
        raise SandboxRefused(
            _("Scrimmages cannot be played now: %(reason)s.") % {"reason": reason}
        )
    size = table_size(bot.game)
    deals = min(math.ceil(games / size), MAX_GAMES // size)
    total = deals * size
    with transaction.atomic():
        # One owner's requests are counted one at a time.
        User.objects.select_for_update().filter(pk=user.pk).first()
        since = timezone.now() - timedelta(days=1)
        used = (
            Scrimmage.objects.filter(created_by=user, created_at__gte=since).aggregate(
                n=Sum("games")
            )["n"]
            or 0
        )
        if used + total > daily_games():
            raise BotError(
                _(
                    "That would be %(games)s scrimmage games in 24 hours; "
                    "the limit is %(limit)s (%(left)s left)."
                )
                % {
                    "games": used + total,
                    "limit": daily_games(),
                    "left": max(0, daily_games() - used),
                }
            )
        scrimmage = Scrimmage.objects.create(
            bot=bot,
            version=version,
            opponent=rival.agent,
            opponent_label=rival.label,
            games=total,
            created_by=user,
        )
        me = SeatSpec(agent=version.agent, label=f"{bot.name} v{version.number}")
        them = SeatSpec(agent=rival.agent, label=rival.label)
        first = [me] + [them] * (size - 1)
        match_ids = []
        for deal in range(deals):
            seed = secrets.randbits(62)
            for rotation in range(size):
                match = match_create(
                    game=bot.game,
                    seats=first[rotation:] + first[:rotation],
                    config={},
                    rated=False,
                    context=f"{scrimmage.context}:{deal}:{rotation}",
                )
                match_start(match_id=match.pk, seed=seed)
                match_ids.append(match.pk)
        transaction.on_commit(lambda: enqueue.play_matches(match_ids))
    return scrimmage


# --- Reads ---------------------------------------------------------------------


@dataclass(frozen=True)
class ScrimmageGame:
    match: Match
    deal: int
    seat: int  # the scrimmaging version's seat
    placement: int | None
    best_other: int | None
    fault: str

    @property
    def outcome(self) -> str:
        """won, drawn, lost, or "" while it is being played."""
        if self.placement is None or self.best_other is None:
            return ""
        if self.placement < self.best_other:
            return "won"
        return "drawn" if self.placement == self.best_other else "lost"


def scrimmage_get(*, bot: Bot, scrimmage_id: int) -> Scrimmage:
    scrimmage = bot.scrimmages.select_related("version").filter(pk=scrimmage_id).first()
    if scrimmage is None:
        raise BotNotFound(_("No such scrimmage."))
    return scrimmage


def scrimmages_of(*, bot: Bot, limit: int = 20) -> list[Scrimmage]:
    return list(bot.scrimmages.select_related("version")[:limit])


def scrimmage_games(*, scrimmage: Scrimmage) -> list[ScrimmageGame]:
    """Every game of the scrimmage, in deal order, with the version's result."""
    matches = (
        Match.objects.filter(context__startswith=f"{scrimmage.context}:")
        .prefetch_related("seats")
        .order_by("pk")
    )
    size = table_size(scrimmage.bot.game)
    faults = {
        (log.match_id, log.seat): log.fault
        for log in BotMatchLog.objects.filter(
            match__context__startswith=f"{scrimmage.context}:"
        )
    }
    rows = []
    for match in matches:
        _, deal, rotation = match.context.rsplit(":", 2)
        seat = (size - int(rotation)) % size
        seats = {s.number: s for s in match.seats.all()}
        own = seats[seat].placement
        others = [s.placement for n, s in seats.items() if n != seat]
        placed = [p for p in others if p is not None]
        rows.append(
            ScrimmageGame(
                match=match,
                deal=int(deal),
                seat=seat,
                placement=own,
                best_other=min(placed)
                if placed and len(placed) == len(others)
                else None,
                fault=faults.get((match.pk, seat), ""),
            )
        )
    return rows


def scrimmage_summary(games: list[ScrimmageGame]) -> dict[str, int]:
    outcomes = [g.outcome for g in games]
    return {
        "games": len(games),
        "won": outcomes.count("won"),
        "drawn": outcomes.count("drawn"),
        "lost": outcomes.count("lost"),
        "pending": outcomes.count(""),
        "faults": sum(1 for g in games if g.fault),
    }
