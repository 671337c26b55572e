"""Match reads: seats to act, states at a version, replays, lists of matches.

What a client receives about a match is built from the engine's
allow-listed observations and ``view_events`` (replays and records here,
live frames in ``gameplay.frames``); nothing copies the raw state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext

from accounts.http import Viewer
from accounts.models import User
from gameplay.agents import is_uploaded_bot, plays_builtin
from gameplay.contexts import match_is_sealed, sealed_context_prefixes
from gameplay.models import Match, MatchAction, MatchSnapshot, MatchStatus, Seat
from gameplay.rules import Event, get_game, view_events


def _seats_to_act(*, match: Match, plays: Callable[[Seat], bool]) -> list[Seat]:
    """Seats whose move it is and that ``plays`` picks (one read of actors)."""
    if match.status != MatchStatus.ACTIVE:
        return []
    actors = set(get_game(match.game).actors(match.state))
    return [seat for seat in match.seats.all() if seat.number in actors and plays(seat)]


def uploaded_bot_seats_to_act(*, match: Match) -> list[Seat]:
    """Seats of uploaded bots whose move it is (see ``is_uploaded_bot``)."""
    return _seats_to_act(match=match, plays=is_uploaded_bot)


def builtin_bot_seats_to_act(*, match: Match) -> list[Seat]:
    """Seats a built-in bot plays (its own or a leaver's) whose move it is."""
    return _seats_to_act(match=match, plays=plays_builtin)


def match_by_public_id(*, public_id: str) -> Match:
    return get_object_or_404(
        Match.objects.prefetch_related("seats__user"), public_id=public_id
    )


def seats_of(match: Match) -> list[Seat]:
    """The match's seats: the prefetched list itself when there is one.

    ``match.seats.all()`` builds a related manager and a queryset on every
    call, and a live move asks for the seats of the copy it holds several
    times; the prefetched rows are the same either way. Read-only.
    """
    cache = getattr(match, "_prefetched_objects_cache", None)
    if cache is not None:
        prefetched = cache.get("seats")
        if prefetched is not None and prefetched._result_cache is not None:
            return prefetched._result_cache
    return list(match.seats.all())


def stepped_since(match_id: int) -> Callable[[int, int], bool]:
    """The move rule's one question that the match row cannot answer
    (``moverule.SteppedSince``: has a seat logged a step after a version?),
    asked of ``match_id``'s log, only when a move arrives at an older version."""

    def asked(seat: int, version: int) -> bool:
        return MatchAction.objects.filter(
            match_id=match_id, version__gt=version, seat=seat
        ).exists()

    return asked


def spectator_version(*, match: Match) -> int:
    """The version spectators are shown: held back by the delay while in play."""
    return match.public_version


def state_at(*, match: Match, version: int) -> dict[str, Any]:
    """Rebuild the engine state at ``version`` from the nearest snapshot and the log."""
    if version == match.version and match.state is not None:
        return match.state
    snapshot = (
        MatchSnapshot.objects.filter(match=match, version__lte=version)
        .order_by("-version")
        .first()
    )
    if snapshot is None:
        raise ValueError(f"match {match.pk} has no snapshot at or before {version}")
    engine = get_game(match.game)
    state = snapshot.state
    for action in MatchAction.objects.filter(
        match=match, version__gt=snapshot.version, version__lte=version
    ).order_by("version"):
        state, _ = engine.apply(state, action.seat, action.action_id)
    return state


def events_since(
    *, match: Match, seat: int | None, after_version: int
) -> list[dict[str, Any]]:
    """Every logged step after ``after_version`` as ``seat`` may see it (resume)."""
    limit = match.version if seat is not None else spectator_version(match=match)
    steps = MatchAction.objects.filter(
        match=match, version__gt=after_version, version__lte=limit
    ).order_by("version")
    return [
        {
            "version": step.version,
            "seat": step.seat,
            "kind": step.kind,
            "events": view_events(step.events, seat),
        }
        for step in steps
    ]


def viewer_seat(*, match: Match, user: Viewer | None) -> int | None:
    """The seat whose private view ``user`` gets, or None for the public view.

    A seat that resigned or was left at a table of three or more (a bot plays on)
    is no longer its owner's: from then until the end they see what spectators
    see, delay included, never the private events of the seat the bot now plays.
    """
    seat = user_seat(match=match, user=user)
    if seat is None:
        return None
    if seat.forfeited and match.status == MatchStatus.ACTIVE:
        return None
    return seat.number


def user_seat(*, match: Match, user: Viewer | None) -> Seat | None:
    """The seat ``user`` holds at ``match``, forfeited or not (None: no seat,
    or not signed in); from the prefetched seats when the match has them."""
    if user is None or not user.is_authenticated:
        return None
    for seat in seats_of(match):
        if seat.user_id == user.pk:
            return seat
    return None


def play_bot_strengths(*, game: str) -> list[dict[str, str]]:
    """The built-in bots "Play a bot" offers for ``game``, weakest first:
    ``bot`` (the id to send), ``strength`` and ``name`` (as people see them).
    An unknown game is a ``BadRequest``."""
    from gameplay.errors import config_refused
    from gameplay.rules import GameError
    from gameplay.rules.bots import BOT_STRENGTHS, bot_display_name, bot_plays

    try:
        engine = get_game(game)
    except GameError as exc:
        raise config_refused(exc) from exc
    return [
        {"bot": name, "strength": label, "name": bot_display_name(name)}
        for name, label in BOT_STRENGTHS.items()
        if bot_plays(name, engine)
    ]


def open_tables(*, game: str | None = None) -> QuerySet[Match]:
    tables = Match.objects.filter(status=MatchStatus.WAITING).prefetch_related(
        "seats__user"
    )
    if game:
        tables = tables.filter(game=game)
    return tables.order_by("-created_at")


def live_matches(*, game: str | None = None) -> QuerySet[Match]:
    matches = Match.objects.filter(status=MatchStatus.ACTIVE).prefetch_related(
        "seats__user"
    )
    for prefix in sealed_context_prefixes():  # nobody may watch those yet
        matches = matches.exclude(context__startswith=prefix)
    if game:
        matches = matches.filter(game=game)
    return matches.order_by("-started_at")


def recent_matches(
    *, user: User | None = None, game: str | None = None, limit: int = 20
) -> list[Match]:
    matches = Match.objects.filter(status=MatchStatus.FINISHED)
    if user is not None:
        matches = matches.filter(seats__user=user)
    if game:
        matches = matches.filter(game=game)
    # A sealed match's result says something about a deal still played
    # elsewhere (gameplay.contexts): listed once its competition unseals it.
    return [
        m
        for m in matches.prefetch_related("seats__user").order_by("-finished_at")[
            :limit
        ]
        if not match_is_sealed(m)
    ]


def matches_for_user(*, user: User) -> QuerySet[Match]:
    return (
        Match.objects.filter(Q(seats__user=user) | Q(host=user))
        .distinct()
        .prefetch_related("seats__user")
    )


def parse_perspective(*, value: str | None, players: int) -> tuple[str, int | None]:
    """``full`` (default), ``spectator`` or ``seat:N`` -> (kind, seat)."""
    value = (value or "full").strip()
    if value in ("full", "spectator"):
        return value, None
    if value.startswith("seat:"):
        number = value.removeprefix("seat:")
        if number.isdigit() and int(number) < players:
            return "seat", int(number)
    raise ValueError(
        gettext(
            "perspective must be 'full', 'spectator' or 'seat:N' with N below "
            "%(players)s"
        )
        % {"players": players}
    )


def match_replay(*, match: Match, perspective: str | None = "full") -> dict[str, Any]:
    """Every step of a finished match, as one perspective saw it.

    Only finished matches have replays: before the end even "what seat N knew"
    would tell a spectator what seat N holds.
    """
    players = match.config.get("players") or match.seats.count()
    kind, seat = parse_perspective(value=perspective, players=players)
    engine = get_game(match.game)
    # A replay re-plays the stored actions on today's engine: under changed
    # rules it would show a different game, so it is refused (the record still
    # has the seed and every action). docs/engine.md, "State".
    played = (match.state or {}).get("rules_version")
    if played is not None and played != engine.rules_version:
        raise ValueError(
            gettext(
                "this match was played under rules version %(played)s and the "
                "site now plays %(now)s, so it cannot be replayed step by step; "
                "its record (seed and every action) is still available"
            )
            % {"played": played, "now": engine.rules_version}
        )
    assert match.seed is not None, "a match is dealt when it starts"
    state = engine.setup(match.config, match.seed)
    view_seat = seat if kind == "seat" else None

    def frame(
        version: int,
        actor: int | None,
        action_id: str | None,
        label: str | None,
        step_kind: str,
        events: list[Event],
        at_ms: int | None,
    ) -> dict[str, Any]:
        step = {
            "version": version,
            "seat": actor,
            "action_id": action_id,
            "label": label,
            "kind": step_kind,
            "at_ms": at_ms,
            "events": events if kind == "full" else view_events(events, view_seat),
            "view": engine.observe(state, view_seat),
        }
        if kind == "full":
            step["hands"] = [engine.observe(state, s)["hand"] for s in range(players)]
        return step

    started = match.started_at

    def stamp(action: MatchAction) -> int | None:
        # The timeline: when the server applied the step, in ms from the start.
        # In real time this is the arrival order that decided every race.
        if started is None or action.created_at is None:
            return None
        return max(0, round((action.created_at - started).total_seconds() * 1000))

    steps = [frame(0, None, None, None, "deal", [], 0 if started else None)]
    for action in match.actions.order_by("version"):
        labels = {
            a["id"]: a.get("label") for a in engine.legal_actions(state, action.seat)
        }
        state, events = engine.apply(state, action.seat, action.action_id)
        steps.append(
            frame(
                action.version,
                action.seat,
                action.action_id,
                labels.get(action.action_id),
                action.kind,
                events,
                stamp(action),
            )
        )
    return {
        "match": str(match.public_id),
        "game": match.game,
        "perspective": perspective or "full",
        "seed": str(match.seed),
        "seed_hash": match.seed_hash,
        "config": match.config,
        "players": [s.display_name for s in match.seats.all()],
        "result": match.result,
        "end_reason": match.end_reason,
        "steps": steps,
    }


def match_record(*, match: Match) -> dict[str, Any]:
    """The downloadable record: enough to re-derive every deal and every step."""
    return {
        "format": "kungfu-arena-match/1",
        "match": str(match.public_id),
        "game": match.game,
        "rules_version": (match.state or {}).get("rules_version"),
        "config": match.config,
        "seed": str(match.seed),
        "seed_hash": match.seed_hash,
        "seed_hash_method": 'sha256("<match>:<seed>")',
        "players": [
            {"seat": s.number, "name": s.display_name, "agent": s.agent or None}
            for s in match.seats.all()
        ],
        "actions": [
            {
                "version": a.version,
                "seat": a.seat,
                "action": a.action_id,
                "kind": a.kind,
            }
            for a in match.actions.order_by("version")
        ],
        "result": match.result,
        "end_reason": match.end_reason,
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
    }


def open_rematch_statement(match_pk: int) -> tuple[str, list[Any]]:
    """One bare SELECT (SQL and parameters) of a row when ``match_pk`` has an
    open rematch (waiting or active), none when not: to send with other
    statements in one round trip (a live socket's close sets
    ``Match.open_rematch`` from it)."""
    meta = Match._meta
    column = meta.get_field("rematch_of").column
    status = meta.get_field("status").column
    statuses = (MatchStatus.WAITING, MatchStatus.ACTIVE)
    return (
        f"SELECT 1 FROM {meta.db_table} WHERE {column} = %s "
        f"AND {status} IN ({', '.join(['%s'] * len(statuses))}) LIMIT 1",
        [match_pk, *(str(value) for value in statuses)],
    )


def _has_open_rematch(match_pk: int) -> bool:
    """Whether ``match_pk`` has an open rematch: one bare SELECT, written as
    SQL. Every socket that closes on a finished table broadcasts its frames,
    and most finished tables have no rematch: the full query (the host
    joined, the seats prefetched) was about half of such a close's Python
    calls (2,600 of 4,700), and even the ORM's ``exists()`` built for it
    cost 900."""
    sql, params = open_rematch_statement(match_pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def rematch_info(*, match: Match) -> dict[str, object] | None:
    """What a finished match's frame says about its rematch, if one is open."""
    if match.just_finished:  # none can exist yet (``Match.just_finished``)
        return None
    known = match.open_rematch  # read with the match (``Match.open_rematch``)
    if known is False or (known is None and not _has_open_rematch(match.pk)):
        return None
    open_statuses = [MatchStatus.WAITING, MatchStatus.ACTIVE]
    rematch = (
        match.rematches.filter(status__in=open_statuses)
        .select_related("host")
        .prefetch_related("seats__user")
        .order_by("created_at")
        .first()
    )
    if rematch is None:
        return None
    return {
        "match": str(rematch.public_id),
        "url": reverse("gameplay:match", args=[rematch.public_id]),
        "status": rematch.status,
        "host": rematch.host.public_name if rematch.host is not None else None,
        "seated": [s.user.username for s in rematch.seats.all() if s.user is not None],
    }
