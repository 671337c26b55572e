"""Bot writes: uploads, validation, staff actions, bot matches, challenges.

The ladder's rounds and debut games are :mod:`bots.ladder`'s.

Uploaded code is untrusted: it is checked in memory before anything is stored
(:mod:`bots.uploads`), stored read-only, and only ever run in the sandbox (or
under the development-only override). Matches between bots go through
gameplay's match services like every other match, so results, replays and
ratings need nothing bot-specific.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.core.cache import cache
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from bots import conf, enqueue
from bots.errors import (
    BotError,
    BotForbidden,
    BotNotFound,
    SandboxRefused,
    UploadRefused,
)
from bots.match_host import DatabaseHost
from bots.models import (
    Bot,
    BotMatchLog,
    BotStatus,
    BotVersion,
    VersionStatus,
)
from bots.protocol.match import (
    Agent,
    BuiltinAgent,
    MatchOutcome,
    MatchPlayer,
    ProcessAgent,
    play_local_match,
)
from bots.protocol.transport import storable_text
from bots.runtimes import BuildError, build_bot
from bots.sandbox import SandboxError, SandboxUnavailable, datadir, sandbox_available
from bots.seats import seat_agent, unplayable_reason
from bots.storage import bot_data_dir, remove_tree, version_dir, write_bot_tree
from bots.uploads import UploadError, inspect_upload
from gameplay.agents import (
    UPLOADED_PREFIX,
    builtin_agent,
    builtin_name,
    is_builtin,
    uploaded_version_id,
)
from gameplay.errors import NotActive
from gameplay.models import Match, MatchStatus, Seat
from gameplay.moverule import is_realtime
from gameplay.rules import available_games, get_game
from gameplay.services import (
    SeatSpec,
    match_abort,
    match_create,
    match_forfeit,
    match_start,
)

logger = logging.getLogger(__name__)

#: Cache key of the last sandbox verdict a bots worker reported (see
#: :func:`sandbox_report`); the web process may not be able to run bwrap itself.
SANDBOX_VERDICT_KEY = "bots:sandbox-verdict"
SANDBOX_VERDICT_TTL = 30 * 60
#: Match.context prefix of every match the bots app creates.
CONTEXT_PREFIX = "bots:"


# --- The sandbox gate ------------------------------------------------------------


def sandbox_report(*, ok: bool, reason: str, data_dir: str = "") -> None:
    """A bots worker says whether its sandbox passed the self-test, and
    (``data_dir``) why its bots get no data directory, if they get none.

    Web processes run no bots and (in the production containers) cannot create
    the namespaces bwrap needs, so they take the workers' word for it.
    """
    cache.set(
        SANDBOX_VERDICT_KEY,
        {
            "ok": ok,
            "reason": reason,
            "data_dir": data_dir,
            "at": timezone.now().isoformat(),
        },
        SANDBOX_VERDICT_TTL,
    )


def data_dir_gate() -> str:
    """Why the workers' bots get no data directory ("" when they get one, or
    when no worker has said): shown to bot owners on their bot's page."""
    verdict = cache.get(SANDBOX_VERDICT_KEY)
    return str(verdict.get("data_dir", "")) if verdict else ""


def sandbox_gate() -> tuple[bool, str]:
    """(uploads accepted, why): the override, else a worker's report, else local."""
    if conf.allow_unsandboxed():
        return True, (
            "development override BOT_SANDBOX_ALLOW_UNSANDBOXED is on: bots run "
            "WITHOUT the sandbox"
        )
    verdict = cache.get(SANDBOX_VERDICT_KEY)
    if verdict is not None:
        return bool(verdict["ok"]), str(verdict["reason"])
    status = sandbox_available(conf.sandbox_config())
    return status.ok, status.reason


def _require_sandbox() -> None:
    ok, reason = sandbox_gate()
    if not ok:
        raise SandboxRefused(
            _(
                "Bot uploads are refused: the sandbox that runs uploaded bots is not "
                "available on this server (%(reason)s). Nothing was stored."
            )
            % {"reason": reason}
        )


# --- Uploads ---------------------------------------------------------------------


def _check_game(game: str) -> None:
    if game not in available_games():
        raise UploadRefused(
            _("There is no game %(game)s to write bots for; choose one of %(games)s.")
            % {"game": repr(game), "games": ", ".join(available_games())}
        )


def _store_version(
    *, bot: Bot, filename: str, data: bytes, keep_data: bool = False
) -> BotVersion:
    """Check ``data`` for ``bot``'s game and store it as its next version."""
    try:
        unpacked = inspect_upload(filename=filename, data=data, game=bot.game)
    except UploadError as exc:
        raise UploadRefused(str(exc)) from exc
    last = bot.versions.order_by("-number").values_list("number", flat=True).first()
    version = BotVersion.objects.create(
        bot=bot,
        number=(last or 0) + 1,
        sha256=unpacked.sha256,
        filename=unpacked.filename,
        upload_bytes=unpacked.upload_bytes,
        unpacked_bytes=unpacked.unpacked_bytes,
        file_count=len(unpacked.files),
        status_detail="Waiting for its validation games against the random bot.",
        keep_data=keep_data,
    )
    target = version_dir(version)
    # The row's id names the directory. SQLite may hand a rolled-back id out
    # again, so whatever an aborted upload left there is cleared first.
    remove_tree(target)
    try:
        write_bot_tree(unpacked.files, target, read_only=True)
    except OSError as exc:
        # The row rolls back with the refusal; the files must not outlive it.
        remove_tree(target)
        raise UploadRefused(
            _("The bot's files could not be stored: %(exc)s.") % {"exc": exc}
        ) from exc
    transaction.on_commit(lambda: enqueue.validation(version.pk))
    return version


@transaction.atomic
def bot_create(
    *,
    owner: User,
    game: str,
    name: str,
    filename: str,
    data: bytes,
    source_public: bool = False,
    description: str = "",
) -> BotVersion:
    """Create a bot with its first version; validation starts after commit."""
    _check_game(game)
    name = name.strip()
    if not name:
        raise UploadRefused(_("Give the bot a name."))
    if len(name) > 40:
        raise UploadRefused(_("A bot name has at most 40 characters."))
    limit = conf.max_bots_per_owner()
    # Lock the owner's row: two parallel uploads cannot both take the last place.
    User.objects.select_for_update().filter(pk=owner.pk).first()
    owned = Bot.objects.filter(owner=owner).exclude(status=BotStatus.RETIRED).count()
    if owned >= limit:
        raise UploadRefused(
            _(
                "You already have %(owned)s bots; the limit is %(limit)s. Retire one "
                "or upload a new version of an existing bot instead."
            )
            % {"owned": owned, "limit": limit}
        )
    if Bot.objects.filter(owner=owner, game=game, name__iexact=name).exists():
        raise UploadRefused(
            _("You already have a %(game)s bot called %(name)s.")
            % {"game": game, "name": repr(name)}
        )
    _require_sandbox()
    try:
        with transaction.atomic():
            bot = Bot.objects.create(
                owner=owner,
                game=game,
                name=name,
                source_public=source_public,
                description=description[:200],
            )
    except IntegrityError as exc:
        raise UploadRefused(
            _("You already have a %(game)s bot called %(name)s.")
            % {"game": game, "name": repr(name)}
        ) from exc
    return _store_version(bot=bot, filename=filename, data=data)


def _bot_for_owner(bot_id: int, user: User) -> Bot:
    try:
        bot = Bot.objects.select_for_update().get(pk=bot_id)
    except Bot.DoesNotExist as exc:
        raise BotNotFound(_("No such bot.")) from exc
    if bot.owner_id != user.pk:
        raise BotForbidden(_("Only the bot's owner can do that."))
    return bot


@transaction.atomic
def bot_version_upload(
    *,
    bot_id: int,
    user: User,
    filename: str,
    data: bytes,
    game: str | None = None,
    keep_data: bool = False,
) -> BotVersion:
    """A new version of an existing bot; ``game``, when given, must be the bot's.

    ``keep_data``: when it becomes active, the bot's data directory (kept
    between matches) stays; otherwise the new version starts with none.
    """
    bot = _bot_for_owner(bot_id, user)
    if bot.status == BotStatus.RETIRED:
        raise UploadRefused(_("This bot is retired; create a new bot instead."))
    if game is not None and game != bot.game:
        raise UploadRefused(
            _("This is a %(game)s bot; a version for %(game2)s cannot be added to it.")
            % {"game": bot.game, "game2": repr(game)}
        )
    _require_sandbox()
    return _store_version(bot=bot, filename=filename, data=data, keep_data=keep_data)


@transaction.atomic
def bot_update(
    *,
    bot_id: int,
    user: User,
    source_public: bool | None = None,
    description: str | None = None,
    retired: bool | None = None,
) -> Bot:
    """Owner settings: source visibility, description, retiring the bot."""
    bot = _bot_for_owner(bot_id, user)
    if source_public is not None:
        bot.source_public = source_public
    if description is not None:
        bot.description = description[:200]
    if retired:
        bot.status = BotStatus.RETIRED
    bot.save()
    return bot


@transaction.atomic
def bot_set_disabled(
    *, bot_id: int, staff: User, disabled: bool, reason: str = ""
) -> Bot:
    """Staff switch a bot off (or back on); a disabled bot is scheduled nowhere."""
    if not staff.is_staff:
        raise BotForbidden(_("Only staff can disable or enable bots."))
    try:
        bot = Bot.objects.select_for_update().get(pk=bot_id)
    except Bot.DoesNotExist as exc:
        raise BotNotFound(_("No such bot.")) from exc
    bot.disabled = disabled
    bot.disabled_reason = reason.strip()[:200] if disabled else ""
    bot.save(update_fields=["disabled", "disabled_reason"])
    logger.info(
        "bot %s %s by %s: %s",
        bot.pk,
        "disabled" if disabled else "enabled",
        staff,
        reason,
    )
    return bot


# --- Validation ------------------------------------------------------------------


def _validation_seed(version: BotVersion, game_number: int) -> int:
    """Deterministic per version, so a re-run validation plays the same deals."""
    return int(version.sha256[:15], 16) + game_number


def bot_version_validate(*, version_id: int) -> str:
    """Play the validation games of a new version; returns its status.

    Idempotent: a version that is no longer validating is left alone. Without a
    working sandbox (and no override) the version stays validating with the
    reason in its detail; a later run (beat retries pending versions) finishes
    the job once a sandboxed worker is available.
    """
    version = BotVersion.objects.select_related("bot").filter(pk=version_id).first()
    if version is None or version.status != VersionStatus.VALIDATING:
        return version.status if version else "missing"
    config = conf.sandbox_config()
    status = sandbox_available(config)
    sandbox_report(
        ok=status.ok,
        reason=status.reason,
        data_dir=datadir.data_dir_unavailable() if status.ok else "",
    )
    if not status.ok and not conf.allow_unsandboxed():
        BotVersion.objects.filter(pk=version.pk).update(
            status_detail=(
                "Waiting for a bot worker with a working sandbox "
                f"({status.reason[:200]}); validation runs as soon as one is up."
            )[:300]
        )
        return VersionStatus.VALIDATING
    try:
        report, stderr, failure = _play_validation_games(version, config)
    except (SandboxUnavailable, SandboxError) as exc:
        BotVersion.objects.filter(pk=version.pk).update(
            status_detail=f"Waiting for a working sandbox: {exc}"[:300]
        )
        return VersionStatus.VALIDATING
    except DatabaseError:
        raise  # the database is away: the heartbeat's retry is the right thing
    except Exception as exc:
        # A failure that would repeat on every retry must not leave the version
        # "validating" for the heartbeat to re-queue forever.
        logger.exception("validation of version %s could not finish", version.pk)
        BotVersion.objects.filter(
            pk=version.pk, status=VersionStatus.VALIDATING
        ).update(
            status=VersionStatus.FAILED,
            status_detail=(
                f"Validation could not finish ({type(exc).__name__}); upload the "
                "version again, or ask staff if it keeps happening."
            ),
            validated_at=timezone.now(),
        )
        return VersionStatus.FAILED
    try:
        return _store_validation(version, report, stderr, failure)
    except DatabaseError as exc:
        # Never leave the version "validating" for the heartbeat to re-queue
        # forever: whatever the database refused, the version fails with why.
        logger.exception("validation of version %s could not be stored", version.pk)
        BotVersion.objects.filter(
            pk=version.pk, status=VersionStatus.VALIDATING
        ).update(
            status=VersionStatus.FAILED,
            status_detail=(
                "The validation games were played but their results could not be "
                f"stored ({type(exc).__name__}); upload the version again."
            ),
            validated_at=timezone.now(),
        )
        return VersionStatus.FAILED


def _storable_json(value: Any) -> Any:
    """``value`` with every string made storable (jsonb refuses NUL too)."""
    if isinstance(value, str):
        return storable_text(value)
    if isinstance(value, dict):
        return {storable_text(str(k)): _storable_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_storable_json(v) for v in value]
    return value


def _play_validation_games(
    version: BotVersion, config: Any
) -> tuple[dict[str, Any], str, str]:
    """Play the validation games; return (report, stderr tail, failure or "")."""
    game = get_game(version.bot.game)
    report: dict[str, Any] = {"games": [], "opponent": builtin_agent("random")}
    stderr_parts: list[str] = []
    failure = ""
    # Compiled runtimes (C, C++, WebAssembly) build once, in the sandbox; a
    # compiler error fails the version with the compiler's messages.
    try:
        build_log = build_bot(
            version_dir(version),
            config=config,
            allow_unsandboxed=conf.allow_unsandboxed(),
        )
    except BuildError as exc:
        report["build"] = {"ok": False, "message": str(exc), "output": exc.output}
        return (
            report,
            f"--- build ---\n{exc.output}",
            f"Compile error: {exc}. The compiler's messages are below.",
        )
    if build_log:
        report["build"] = {"ok": True, "output": build_log[-16 * 1024 :]}
    # Two seats, or the game's smallest table; the others are random bots.
    players = max(2, game.min_players)
    for number in range(conf.validation_games()):
        seat = number % players
        seed = _validation_seed(version, number)
        agents: dict[int, Agent] = {
            other: BuiltinAgent("random", seat=other, match_seed=seed)
            for other in range(players)
            if other != seat
        }
        agents[seat] = ProcessAgent(
            version_dir(version),
            seat=seat,
            label=str(version),
            config=config,
            time_control=conf.time_control(),
            allow_unsandboxed=conf.allow_unsandboxed(),
        )
        outcome = play_local_match(game=game, config={}, seed=seed, agents=agents)
        log = next(log for log in outcome.logs if log.seat == seat)
        report["games"].append(
            {
                "seat": seat,
                "seed": seed,
                "placement": outcome.result["placements"][seat],
                "decisions": log.decisions,
                "think_ms": log.think_ms,
                "fault": log.fault,
                "fault_detail": log.fault_detail,
            }
        )
        if log.stderr:
            stderr_parts.append(f"--- game {number + 1} (seat {seat}) ---\n")
            stderr_parts.append(log.stderr)
        if log.fault:
            failure = (
                f"Game {number + 1} (seat {seat}) was forfeited: "
                f"{log.fault.replace('_', ' ')} - {log.fault_detail}"
            )
            break
    return report, "".join(stderr_parts)[-64 * 1024 :], failure


def _store_validation(
    version: BotVersion, report: dict[str, Any], stderr: str, failure: str
) -> str:
    """Record the validation's outcome: active (retiring the previous) or failed."""
    with transaction.atomic():
        version = BotVersion.objects.select_for_update().get(pk=version.pk)
        if version.status != VersionStatus.VALIDATING:
            return version.status
        version.validation_report = _storable_json(report)
        version.validation_stderr = storable_text(stderr)
        failure = storable_text(failure)
        version.validated_at = timezone.now()
        if failure:
            version.status = VersionStatus.FAILED
            version.status_detail = failure[:300]
            version.save()
            return version.status
        games = report["games"]
        wins = sum(1 for g in games if g["placement"] == 1)
        version.status = VersionStatus.ACTIVE
        version.status_detail = (
            f"Passed: {len(games)} games against the random bot, {wins} won."
        )
        version.save()
        bot = Bot.objects.select_for_update().get(pk=version.bot_id)
        BotVersion.objects.filter(bot=bot, status=VersionStatus.ACTIVE).exclude(
            pk=version.pk
        ).update(status=VersionStatus.RETIRED, status_detail="Replaced by a newer one.")
        bot.active_version = version
        if bot.status != BotStatus.RETIRED:
            bot.status = BotStatus.ACTIVE
        bot.save(update_fields=["active_version", "status"])
        if not version.keep_data:
            # A new version starts with an empty data directory unless its
            # owner chose to keep what the previous one learned.
            transaction.on_commit(lambda: datadir.wipe(bot_data_dir(bot.pk)))
        transaction.on_commit(lambda: enqueue.debut_games(version.pk))
    return VersionStatus.ACTIVE


# --- Bot matches -----------------------------------------------------------------


def bot_match_play(*, match_id: int) -> MatchOutcome | None:
    """Play a match whose seats are all bots, in this process, and record it.

    For the ladder, validation-free friendlies and league tournaments alike: a
    waiting match is started, an active one is played on from its stored state
    (so a task redelivered after a worker died resumes), a finished one is left
    alone. Uploaded bots run in the sandbox; built-in seats are played by
    gameplay's built-in bot service. A bot whose version is gone or whose bot
    staff disabled forfeits before the first move. Raises
    :class:`~bots.sandbox.SandboxUnavailable` when bots cannot be run here.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.is_over:
        return None
    seats = list(match.seats.all())
    if any(not seat.is_bot for seat in seats):
        raise BotError("bot_match_play plays only matches whose seats are all bots")
    if match.status == MatchStatus.WAITING:
        with contextlib.suppress(NotActive):
            match_start(match_id=match_id)
    version_ids = {
        seat.number: vid
        for seat in seats
        if (vid := uploaded_version_id(seat.agent)) is not None
    }
    versions = BotVersion.objects.select_related("bot").in_bulk(version_ids.values())
    for number, vid in version_ids.items():
        why = unplayable_reason(versions.get(vid))
        if not why:
            continue
        try:
            match_forfeit(match_id=match_id, seat_number=number, reason=why)
        except NotActive:
            return None
    match.refresh_from_db()
    if match.is_over:
        return None
    forfeited_now = {seat.number for seat in match.seats.all() if seat.forfeited}
    game = get_game(match.game)
    agents: dict[int, Agent] = {}
    for number, vid in version_ids.items():
        version = versions.get(vid)
        if number in forfeited_now or version is None:
            continue
        agents[number] = seat_agent(version, number)
    if is_realtime(game):
        # Real time: the virtual clock asks every seat at each tick, so the
        # built-in seats are played here too, next to the uploaded bots (a
        # forfeited seat by the player's takeover bot).
        for seat in seats:
            if is_builtin(seat.agent) and seat.number not in agents:
                agents[seat.number] = BuiltinAgent(
                    builtin_name(seat.agent),
                    seat=seat.number,
                    match_seed=match.seed or 0,
                )
    host = DatabaseHost(match_id=match.pk, version=match.version)
    player = MatchPlayer(
        game=game,
        state=match.state,
        agents=agents,
        host=host,
        config=match.config,
        version=match.version,
        match_seed=match.seed or 0,
    )
    player.forfeited |= forfeited_now
    outcome = player.play()
    BotMatchLog.objects.bulk_create(
        [
            BotMatchLog(
                version_id=version_ids[log.seat],
                match_id=match.pk,
                seat=log.seat,
                decisions=log.decisions,
                think_ms=log.think_ms,
                fault=log.fault,
                fault_detail=storable_text(log.fault_detail)[:300],
                stderr=storable_text(log.stderr[-64 * 1024 :]),
                refused_count=log.refused_count,
                refused=_storable_json(log.refused),
            )
            for log in outcome.logs
            if log.seat in version_ids
        ],
        ignore_conflicts=True,
    )
    return outcome


def bot_matches_waiting_for_a_runner() -> list[int]:
    """Ids of matches in play whose seats are all bots, one at least uploaded.

    Oldest first. Such a match moves only when the bots runner plays it.
    """
    uploaded = Seat.objects.filter(agent__startswith=UPLOADED_PREFIX).values("match_id")
    people = Seat.objects.filter(agent="").values("match_id")
    return list(
        Match.objects.filter(status=MatchStatus.ACTIVE, pk__in=uploaded)
        .exclude(pk__in=people)
        .order_by("started_at", "pk")
        .values_list("pk", flat=True)
    )


def bot_match_abandon(*, match_id: int, reason: str) -> None:
    """Call off a bots-app match that cannot be played here (no sandbox)."""
    with contextlib.suppress(NotActive):
        match_abort(match_id=match_id, user=None, reason=reason[:40])


# --- Playing people: tables and challenges ---------------------------------------


def live_seat(*, bot: Bot) -> tuple[str, str] | None:
    """(seat agent, label) to seat ``bot`` against people now; None if it cannot.

    A bot plays only with a validated active version, not disabled, and while
    the sandbox gate is open (a worker can run it). Bots of a real-time game
    are held for the match by a bots worker (:mod:`bots.realtime_tables`),
    those of turn-based games are asked one decision at a time
    (:mod:`bots.live_turns`).
    """
    if not bot.plays or not sandbox_gate()[0]:
        return None
    version = bot.active_version
    assert version is not None  # bot.plays: it has an active version
    return version.agent, f"{bot.name} v{version.number}"


#: Who fills the seats of a challenge when the game needs more than two players.
CHALLENGE_FILLER = builtin_agent("heuristic")


def bot_challenge(
    *,
    user: User,
    bot_id: int,
    rated: bool = False,
    time_control: dict[str, Any] | None = None,
) -> Match:
    """A person challenges an uploaded bot: the bot always accepts, at once.

    The match is made and started through gameplay's services like an
    accepted challenge, so the person is taken to it and the bot is driven
    move by move (:mod:`bots.live_turns`), or held for the match in a
    real-time game (:mod:`bots.realtime_tables`). A game that needs more than
    two players (Kung Fu (2009) seats 3 at least) gets built-in bots in the
    other seats.
    """
    bot = Bot.objects.select_related("active_version").filter(pk=bot_id).first()
    if bot is None:
        raise BotNotFound(_("No such bot."))
    seat = live_seat(bot=bot)
    if seat is None:
        raise BotError(
            _(
                "This bot cannot play now: it needs a validated version, must not be "
                "disabled, and the bot sandbox must be available."
            )
        )
    fillers = max(0, get_game(bot.game).min_players - 2)
    agent, label = seat
    with transaction.atomic():
        match = match_create(
            game=bot.game,
            seats=[
                SeatSpec(user=user),
                SeatSpec(agent=agent, label=label),
                *[SeatSpec(agent=CHALLENGE_FILLER) for _ in range(fillers)],
            ],
            rated=rated,
            time_control=time_control,
            host=user,
        )
        return match_start(match_id=match.pk)
