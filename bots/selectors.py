"""Bot reads for pages and the API: lists, a bot's record, its owner's logs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from accounts.http import Viewer
from accounts.models import User
from bots import conf
from bots.models import Bot, BotMatchLog, BotStatus, BotVersion
from bots.runtimes import RUNTIMES, runtime_for_dir
from bots.sandbox import SandboxError
from bots.storage import list_files, read_source, version_dir
from gameplay.agents import builtin_agent, uploaded_agent, uploaded_version_id
from gameplay.errors import MatchError
from gameplay.models import Match, MatchStatus, Seat
from gameplay.rules import error_text


@dataclass(frozen=True)
class BuiltinBot:
    name: str
    agent: str
    strength: str

    @property
    def label(self) -> str:
        return _BUILTIN_LABELS.get(self.name, self.name.title())

    @property
    def display_name(self) -> str:
        """What a table, a log or a ladder shows for it (never ``agent``'s raw id)."""
        from gameplay.rules.bots import bot_display_name

        return bot_display_name(self.name)


_BUILTIN_LABELS = {"ismcts": "ISMCTS (Monte Carlo tree search)"}


def builtin_bots() -> list[BuiltinBot]:
    """The built-in bots every game offers, weakest first, with their labels."""
    from gameplay.rules.bots import BOT_STRENGTHS, available_bots

    names = [name for name in BOT_STRENGTHS if name in available_bots()]
    names += [name for name in available_bots() if name not in BOT_STRENGTHS]
    return [
        BuiltinBot(
            name=name, agent=builtin_agent(name), strength=BOT_STRENGTHS.get(name, "")
        )
        for name in names
    ]


def bot_list(
    *, game: str | None = None, owner: User | None = None, include_retired: bool = False
) -> QuerySet[Bot]:
    bots = Bot.objects.select_related("owner", "active_version")
    if game:
        bots = bots.filter(game=game)
    if owner is not None:
        bots = bots.filter(owner=owner)
    if not include_retired:
        bots = bots.exclude(status=BotStatus.RETIRED)
    return bots.order_by("game", "name", "pk")


def bot_get(*, bot_id: int) -> Bot:
    return get_object_or_404(
        Bot.objects.select_related("owner", "active_version"), pk=bot_id
    )


def bot_versions(*, bot: Bot) -> list[BotVersion]:
    return list(bot.versions.order_by("-number"))


def _agents(bot: Bot) -> list[str]:
    return [uploaded_agent(pk) for pk in bot.versions.values_list("pk", flat=True)]


@dataclass(frozen=True)
class BotMatchRow:
    match: Match
    seat: Seat
    opponents: list[str]
    fault: str


def bot_recent_matches(*, bot: Bot, limit: int = 20) -> list[BotMatchRow]:
    """The bot's latest finished matches with its seat, opponents and any fault."""
    seats = list(
        Seat.objects.filter(agent__in=_agents(bot), match__status=MatchStatus.FINISHED)
        .select_related("match")
        .prefetch_related("match__seats")
        .order_by("-match__finished_at")[:limit]
    )
    faults = dict(
        BotMatchLog.objects.filter(
            match_id__in=[seat.match_id for seat in seats]
        ).values_list("match_id", "fault")
    )
    names = seat_names(seats=[o for s in seats for o in s.match.seats.all()])
    return [
        BotMatchRow(
            match=seat.match,
            seat=seat,
            opponents=[
                names.get(other.pk, other.display_name)
                for other in seat.match.seats.all()
                if other.number != seat.number
            ],
            fault=faults.get(seat.match_id, ""),
        )
        for seat in seats
    ]


def seat_names(*, seats: list[Seat]) -> dict[int, str]:
    """Readable names for uploaded-bot seats without a label ("greedy v3").

    Matches made elsewhere (tournaments) seat ``bot:<version id>`` with no
    label, which gameplay can only show as the raw agent.
    """
    unlabelled = {
        seat.pk: vid
        for seat in seats
        if not seat.label and (vid := uploaded_version_id(seat.agent)) is not None
    }
    versions = BotVersion.objects.select_related("bot").in_bulk(
        set(unlabelled.values())
    )
    names: dict[int, str] = {}
    for seat_pk, version_id in unlabelled.items():
        version = versions.get(version_id)
        if version is not None:
            names[seat_pk] = f"{version.bot.name} v{version.number}"
    return names


@dataclass(frozen=True)
class BotRecord:
    matches: int
    wins: int
    faults: dict[str, int]
    mean_decision_ms: float | None

    @property
    def crashes(self) -> int:
        return self.faults.get("crash", 0)

    @property
    def timeouts(self) -> int:
        return self.faults.get("timeout", 0)


def bot_record(*, bot: Bot) -> BotRecord:
    """Totals over every logged match: played, won, faults by reason, speed."""
    logs = BotMatchLog.objects.filter(version__bot=bot)
    faults = Counter(logs.exclude(fault="").values_list("fault", flat=True))
    totals = list(logs.values_list("decisions", "think_ms"))
    decisions = sum(d for d, _ in totals)
    think = sum(t for _, t in totals)
    wins = Seat.objects.filter(
        agent__in=_agents(bot), match__status=MatchStatus.FINISHED, placement=1
    ).count()
    return BotRecord(
        matches=len(totals),
        wins=wins,
        faults=dict(faults),
        mean_decision_ms=(think / decisions) if decisions else None,
    )


def bot_logs(*, bot: Bot, limit: int = 50) -> list[BotMatchLog]:
    """Per-match logs with stderr, newest first: for the owner only."""
    return list(
        BotMatchLog.objects.filter(version__bot=bot)
        .select_related("version", "match")
        .order_by("-created_at")[:limit]
    )


def refused_lines(*, log: BotMatchLog) -> list[tuple[int, str, str]]:
    """The refused intents a match log kept, as (tick, action, why) with the
    why worded in the reader's language from the engine's code and params,
    like a person's refused move. Rows kept before the code (or, for a text
    that names something, the params) were stored keep the engine's English
    detail."""
    lines = []
    for tick, action, reason, *rest in log.refused or []:
        code = rest[0] if rest else None
        params = rest[1] if len(rest) > 1 else {}
        text = error_text(log.match.game, code) if code else None
        if text and (params or "%(" not in text):
            reason = MatchError(reason, text=text, params=params, reason=code).worded()
        lines.append((tick, action, reason))
    return lines


def can_see_logs(*, user: Viewer | None, bot: Bot) -> bool:
    """Logs and stderr belong to the owner (they may contain the bot's secrets)."""
    return user is not None and user.is_authenticated and user.pk == bot.owner_id


def can_read_source(*, user: Viewer | None, bot: Bot) -> bool:
    return bot.source_public or can_see_logs(user=user, bot=bot)


def version_files(*, version: BotVersion) -> list[str]:
    return list_files(version_dir(version))


def version_source(*, version: BotVersion, path: str) -> str:
    return read_source(version_dir(version), path)


def bot_summary(*, bot: Bot) -> dict[str, Any]:
    """The public facts about a bot (API and pages share it)."""
    from bots.ratings import bot_rating

    record = bot_record(bot=bot)
    rating = bot_rating(bot=bot)
    return {
        "id": bot.pk,
        "name": bot.name,
        "game": bot.game,
        "owner": bot.owner.username,
        "description": bot.description,
        "status": bot.status,
        "disabled": bot.disabled,
        "disabled_reason": bot.disabled_reason,
        "source_public": bot.source_public,
        "active_version": bot.active_version.number if bot.active_version else None,
        "rating": round(rating) if rating is not None else None,
        "matches": record.matches,
        "wins": record.wins,
        "faults": record.faults,
        "mean_decision_ms": (
            round(record.mean_decision_ms, 2)
            if record.mean_decision_ms is not None
            else None
        ),
    }


#: How many of a bot's latest finished matches the head-to-head table reads.
HEAD_TO_HEAD_MATCHES = 2000
#: Replay links per opponent (the latest ones).
HEAD_TO_HEAD_REPLAYS = 5


@dataclass
class HeadToHead:
    """The bot's record against one opponent: an uploaded bot (any of its
    versions), a built-in bot, or a person (or connected bot)."""

    key: str  # "bot:<bot id>", "builtin:<name>" or "user:<user id>"
    name: str
    bot_id: int | None = None
    won: int = 0
    drawn: int = 0
    lost: int = 0
    replays: list[Match] | None = None

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost


def _opponent(
    seat: Seat, versions: dict[int, BotVersion]
) -> tuple[str, str, int | None]:
    from gameplay.rules.bots import bot_display_name

    version_id = uploaded_version_id(seat.agent)
    if version_id is not None:
        version = versions.get(version_id)
        if version is None:
            return seat.agent, seat.display_name, None
        return f"bot:{version.bot_id}", version.bot.name, version.bot_id
    if seat.agent:
        name = seat.agent.removeprefix("builtin:")
        return seat.agent, bot_display_name(name), None
    if seat.user_id is not None:
        return f"user:{seat.user_id}", seat.display_name, None
    return "open", seat.display_name, None


def bot_head_to_head(*, bot: Bot) -> list[HeadToHead]:
    """Won, drawn and lost against each opponent, most played first.

    At a table of more than two, the bot is compared with each other seat by
    placement (ahead: won; level: drawn; behind: lost). Other seats of the
    same bot (a scrimmage against itself) are not opponents.
    """
    seats = list(
        Seat.objects.filter(
            agent__in=_agents(bot),
            match__status=MatchStatus.FINISHED,
            placement__isnull=False,
        )
        .select_related("match")
        .prefetch_related("match__seats__user")
        .order_by("-match__finished_at")[:HEAD_TO_HEAD_MATCHES]
    )
    others = [o for s in seats for o in s.match.seats.all() if o.number != s.number]
    version_ids = {
        vid for o in others if (vid := uploaded_version_id(o.agent)) is not None
    }
    versions = BotVersion.objects.select_related("bot").in_bulk(version_ids)
    rows: dict[str, HeadToHead] = {}
    for seat in seats:
        for other in seat.match.seats.all():
            if other.number == seat.number or other.placement is None:
                continue
            key, name, bot_id = _opponent(other, versions)
            if bot_id == bot.pk:
                continue
            row = rows.setdefault(key, HeadToHead(key, name, bot_id, replays=[]))
            assert seat.placement is not None and row.replays is not None
            if seat.placement < other.placement:
                row.won += 1
            elif seat.placement == other.placement:
                row.drawn += 1
            else:
                row.lost += 1
            if (
                len(row.replays) < HEAD_TO_HEAD_REPLAYS
                and seat.match not in row.replays
            ):
                row.replays.append(seat.match)
    return sorted(rows.values(), key=lambda r: (-r.games, r.name))


@dataclass(frozen=True)
class VersionRecord:
    games: int
    wins: int


def version_records(*, bot: Bot) -> dict[int, VersionRecord]:
    """Finished games and wins per version id of the bot."""
    from django.db.models import Count, Q

    rows = (
        Seat.objects.filter(agent__in=_agents(bot), match__status=MatchStatus.FINISHED)
        .values("agent")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(placement=1)))
    )
    records = {}
    for row in rows:
        version_id = uploaded_version_id(row["agent"])
        if version_id is not None:
            records[version_id] = VersionRecord(games=row["games"], wins=row["wins"])
    return records


@dataclass(frozen=True)
class RuntimeInfo:
    """A runtime as an author meets it: name, entry point and its limits."""

    name: str
    label: str
    entrypoint: str
    limits: list[str]


def runtime_infos() -> list[RuntimeInfo]:
    """Every runtime an upload may use, with the limits its bots run under."""
    config = conf.sandbox_config()
    per_move = conf.time_control().per_move
    infos = []
    for runtime in RUNTIMES.values():
        try:
            limits = runtime.limits(config, per_move_s=per_move)
        except SandboxError as exc:  # its wheel is missing on this server
            limits = [f"not available here: {exc}"]
        infos.append(
            RuntimeInfo(
                name=runtime.name,
                label=runtime.label,
                entrypoint=runtime.entrypoint,
                limits=limits,
            )
        )
    return infos


def version_runtime(*, version: BotVersion, label: bool = True) -> str:
    """The runtime of a stored version (told by its entry point): its label
    for people, or its registry name (``label=False``) for the API."""
    directory = version_dir(version)
    if not directory.is_dir():
        return ""
    runtime = runtime_for_dir(directory)
    return runtime.label if label else runtime.name
