"""League, season, tournament and rankings pages.

Views parse the form, call one service and redirect with a message; a
``LeagueError`` becomes an error message and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest
from gameplay.catalog import game_catalog
from gameplay.timecontrol import CORRESPONDENCE_DAYS
from league import selectors, services
from league.divisions import selectors as division_selectors
from league.divisions import services as division_services
from league.errors import LeagueError, NotFound
from league.forms import DivisionsForm, InviteForm, SeasonDatesForm, TournamentForm
from league.live import live_version, season_live_version
from league.models import (
    League,
    Pairing,
    ParticipantKind,
    ParticipantType,
    PoolScope,
    RatingPool,
    Season,
    Tournament,
    swiss_tables_label,
)
from league.participants import bot_directory
from league.ratings import selectors as rating_selectors
from league.ratings.elo import DEFAULT_CONFIG
from league.tournaments import selectors as tournament_selectors
from league.tournaments import services as tournament_services


def _own_page(request: HttpRequest, url: str) -> bool:
    """``url`` is one of this site's pages (never another host, never a scheme
    such as ``javascript:``, never ``/\\evil.example`` that browsers read as
    ``//evil.example``)."""
    return bool(url) and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


def _back(request: HttpRequest, fallback: str) -> str:
    """Where an action returns: the form's ``next`` or ``fallback``, whichever
    is first one of the site's own pages; else the home page."""
    for target in (request.POST.get("next") or "", fallback):
        if _own_page(request, target):
            return target
    return "/"


def league_action(view: Callable) -> Callable:
    """POST-only, signed-in; service errors become messages, then redirect back."""

    @wraps(view)
    @login_required
    @require_POST
    def wrapper(request: SignedInRequest, *args, **kwargs) -> HttpResponse:
        try:
            target, message = view(request, *args, **kwargs)
        except LeagueError as exc:
            messages.error(request, exc.message)
            # Back to the page the form was on, if it is one of ours.
            return redirect(_back(request, request.META.get("HTTP_REFERER") or "/"))
        if message:
            messages.success(request, message)
        return redirect(_back(request, target))

    return wrapper


def _games() -> dict[str, str]:
    return {g.id: g.name for g in game_catalog()}


def _my_bots(user, game: str, kind: str = ParticipantKind.MIXED) -> list:
    """The user's bots of ``game`` they may enter where ``kind`` admits bots
    (none without the bots app, none in a humans-only competition)."""
    directory = bot_directory()
    if not user.is_authenticated or directory is None or kind == ParticipantKind.HUMANS:
        return []
    return directory.bots_owned_by(user.pk, game)


def _season_entries(user, season: Season) -> dict:
    """What the season's register block offers ``user``: whether people may
    register, the bots still to register, and the owner's bot registrations
    (each with a Withdraw button)."""
    kind = season.league.participants
    mine = selectors.bot_registrations_of(season=season, user=user)
    taken = {r.participant.bot_id for r in mine}
    return {
        "people_allowed": kind != ParticipantKind.BOTS,
        "my_bots": [
            b for b in _my_bots(user, season.league.game, kind) if b.bot_id not in taken
        ],
        "bot_registrations": mine,
    }


# --- Leagues and seasons --------------------------------------------------------------


def league_list(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game") or None
    return render(
        request,
        "league/league_list.html",
        {
            "leagues": selectors.league_list(game=game),
            "games": game_catalog(),
            "game_names": _games(),
            "selected_game": game,
            "tournaments": tournament_selectors.tournament_list(game=game)[:10],
        },
    )


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = selectors.league_by_slug(slug=slug)
    organiser = selectors.is_organiser(league=league, user=request.user)
    # Each season with the viewer's registration and whether it is open to them.
    season_rows = [
        {
            "season": season,
            "registration": selectors.registration_of(season=season, user=request.user),
            "window_open": selectors.registration_window_open(season),
            **_season_entries(request.user, season),
        }
        for season in league.seasons.all()
    ]
    return render(
        request,
        "league/league_detail.html",
        {
            "league": league,
            "game_name": _games().get(league.game, league.game),
            "season_rows": season_rows,
            "tournaments": league.tournaments.all(),
            "is_organiser": organiser,
            "pending": selectors.pending_registrations(league=league)
            if organiser
            else [],
            "invite_form": InviteForm(),
            "season_form": SeasonDatesForm(),
            "divisions_form": DivisionsForm(
                initial={
                    "division_size": league.division_size,
                    "promotion_count": league.promotion_count,
                    "relegation_count": league.relegation_count,
                }
            ),
            "swiss_tables_label": swiss_tables_label(league.game, generic=False),
            "correspondence_days": CORRESPONDENCE_DAYS,
        },
    )


def season_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = selectors.league_by_slug(slug=slug)
    season = selectors.season_by_number(league=league, number=number)
    pool = RatingPool.objects.filter(season=season).first()
    return render(
        request,
        "league/season_detail.html",
        {
            "league": league,
            "season": season,
            "standings": selectors.season_standings(season=season),
            "my_registration": selectors.registration_of(
                season=season, user=request.user
            ),
            "window_open": selectors.registration_window_open(season),
            **_season_entries(request.user, season),
            "provisional_games": (
                pool.elo_config if pool else DEFAULT_CONFIG
            ).provisional_games,
            "pool": pool,
            "recent": rating_selectors.recent_rated_matches(pool=pool) if pool else [],
            "tournaments": season.tournaments.all(),
            "live_version": season_live_version(season),
            **_queue_context(request, season),
            **_divisions_context(league, season, request.user),
        },
    )


def _divisions_context(league: League, season: Season, user) -> dict:
    """The season's division tables (a league with divisions only), and the
    viewer's own division."""
    if not league.has_divisions:
        return {}
    tables = division_selectors.season_division_tables(season=season)
    mine = next(
        (
            table.division
            for table in tables
            for row in table.rows
            if user.is_authenticated and row.participant.user_id == user.pk
        ),
        None,
    )
    return {
        "division_tables": tables,
        "my_division": mine,
        "unplaced": division_selectors.unplaced_participants(season=season)
        if season.status != "finished"
        else [],
        "league_has_history": season.number > 1,
    }


def _queue_context(request: HttpRequest, season: Season) -> dict:
    """The season queue block: who waits, and what this visitor may queue."""
    from gameplay.rules import get_game

    engine = get_game(season.league.game)
    registered = selectors.approved_participants(season=season)
    user = request.user
    mine = [
        p
        for p in registered
        if user.is_authenticated and p.is_bot and p.owner_id == user.pk
    ]
    return {
        "queue": list(selectors.season_queue(season=season)),
        "queued_ids": selectors.queued_participant_ids(season=season, user=user),
        "queue_sizes": list(range(engine.min_players, engine.max_players + 1)),
        "queue_me": next(
            (p for p in registered if user.is_authenticated and p.user_id == user.pk),
            None,
        ),
        "queue_my_bots": mine,
    }


@league_action
def season_queue(request: SignedInRequest, slug: str, number: int):
    """Join or leave the season queue (for oneself or one's registered bot)."""
    season = _season(slug, number)
    target = reverse("league:season", args=[slug, number])
    bot_id = _bot_id(request)
    if request.POST.get("leave"):
        services.season_queue_leave(season=season, user=request.user, bot_id=bot_id)
        return target, "You left the season queue."
    raw = request.POST.get("players") or "2"
    match = services.season_queue_join(
        season=season,
        user=request.user,
        players=int(raw) if raw.isdigit() else 0,
        bot_id=bot_id,
    )
    if match is not None:
        return reverse("gameplay:match", args=[match.public_id]), "Your game is on."
    return target, "You are in the season queue: your game opens when it is paired."


def _season(slug: str, number: int) -> Season:
    league = selectors.league_by_slug(slug=slug)
    return selectors.season_by_number(league=league, number=number)


def _bot_id(request: HttpRequest) -> int | None:
    raw = (request.POST.get("bot_id") or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 18:  # past the database's integers
        raise NotFound(_("no such bot"))
    return int(raw)


@league_action
def season_register(request: SignedInRequest, slug: str, number: int):
    season = _season(slug, number)
    registration = services.season_register(
        season=season, user=request.user, bot_id=_bot_id(request)
    )
    pending = registration.status == "pending"
    return (
        reverse("league:season", args=[slug, number]),
        f"{registration.participant.name} "
        + ("asked to join: an organiser will decide." if pending else "is registered."),
    )


@league_action
def season_withdraw(request: SignedInRequest, slug: str, number: int):
    season = _season(slug, number)
    registration = services.season_withdraw(
        season=season, user=request.user, bot_id=_bot_id(request)
    )
    return (
        reverse("league:season", args=[slug, number]),
        f"{registration.participant.name} withdrew.",
    )


@league_action
def registration_decide(request: SignedInRequest, slug: str, registration_id: int):
    approve = request.POST.get("decision") == "approve"
    registration = services.registration_decide(
        registration_id=registration_id, by=request.user, approve=approve
    )
    verb = "approved" if approve else "rejected"
    return reverse("league:detail", args=[slug]), f"{registration.participant} {verb}."


@league_action
def league_invite(request: SignedInRequest, slug: str):
    league = selectors.league_by_slug(slug=slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        raise_invalid("give a username to invite")
    invitation = services.league_invite(
        league=league, by=request.user, username=form.cleaned_data["username"]
    )
    return reverse("league:detail", args=[slug]), f"{invitation.participant} invited."


@league_action
def league_divisions(request: SignedInRequest, slug: str):
    """An organiser sets the league's divisions (size, up, down)."""
    league = selectors.league_by_slug(slug=slug)
    form = DivisionsForm(request.POST)
    if not form.is_valid():
        raise_invalid("division settings: " + form.errors.as_text())
    data = form.cleaned_data
    league = division_services.league_set_divisions(
        league=league,
        by=request.user,
        division_size=data["division_size"],
        promotion_count=data["promotion_count"],
        relegation_count=data["relegation_count"],
    )
    if league.division_size:
        message = f"Divisions of {league.division_size} from the next divisions made."
    else:
        message = "Divisions turned off."
    return reverse("league:detail", args=[slug]), message


@league_action
def league_correspondence_pool(request: SignedInRequest, slug: str):
    """An organiser keeps correspondence games on a league ladder of their own."""
    league = selectors.league_by_slug(slug=slug)
    separate = request.POST.get("separate") == "on"
    services.league_set_correspondence_pool(
        league=league, by=request.user, separate=separate
    )
    message = (
        "Correspondence games now feed a league ladder of their own."
        if separate
        else "Correspondence games now feed the league's one ladder."
    )
    return reverse("league:detail", args=[slug]), message


@league_action
def league_rollover(request: SignedInRequest, slug: str):
    league = selectors.league_by_slug(slug=slug)
    form = SeasonDatesForm(request.POST)
    if not form.is_valid():
        raise_invalid("every date is needed: " + form.errors.as_text())
    season = services.season_rollover(
        league=league, by=request.user, **form.service_kwargs()
    )
    return reverse("league:season", args=[slug, season.number]), f"{season} opened."


def raise_invalid(message: str) -> None:
    from league.errors import Invalid

    raise Invalid(message)


# --- Rankings -------------------------------------------------------------------------


def rankings(request: HttpRequest) -> HttpResponse:
    games = game_catalog()
    asked_game = request.GET.get("game") or ""
    game = asked_game or (games[0].id if games else "")
    pool_id = request.GET.get("pool") or ""
    pool = None
    if pool_id.isdigit():
        pool = RatingPool.objects.filter(pk=int(pool_id)).first()
        # Switching the game in the form wins over a pool of the previous game.
        if pool is not None and asked_game and pool.game != asked_game:
            pool = None
        if pool is not None:
            game = pool.game
    if pool is None:
        pool = RatingPool.objects.filter(scope=PoolScope.GLOBAL, game=game).first()
    search = request.GET.get("q", "")[:80]
    page = rows = None
    if pool is not None:
        page, rows = rating_selectors.ranking_page(
            pool=pool, page=request.GET.get("page", 1), search=search
        )
    return render(
        request,
        "league/rankings.html",
        {
            "games": games,
            "selected_game": game,
            "pools": rating_selectors.pools(game=game),
            "pool": pool,
            "page": page,
            "rows": rows,
            "search": search,
        },
    )


# --- Tournaments ----------------------------------------------------------------------


def tournament_list(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _tournament_create(request)
    return render(
        request,
        "league/tournament_list.html",
        {
            "tournaments": tournament_selectors.tournament_list()[:100],
            "form": TournamentForm(),
            "game_names": _games(),
        },
    )


def _tournament_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?next={request.path}")
    form = TournamentForm(request.POST)
    league = season = None
    league_slug = request.POST.get("league") or ""
    if league_slug:
        league = League.objects.filter(slug=league_slug).first()
    season_id = request.POST.get("season") or ""
    if league is not None and season_id.isdigit():
        season = league.seasons.filter(pk=int(season_id)).first()
    if form.is_valid():
        try:
            tournament = tournament_services.tournament_create(
                by=request.user, league=league, season=season, **form.service_kwargs()
            )
        except LeagueError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request,
                _("%(name)s created: now take entries.") % {"name": tournament.name},
            )
            return redirect("league:tournament", tournament.slug)
    return render(
        request,
        "league/tournament_list.html",
        {
            "tournaments": tournament_selectors.tournament_list()[:100],
            "form": form,
            "game_names": _games(),
        },
        status=400,
    )


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_selectors.tournament_by_slug(slug=slug)
    entrants = tournament_selectors.entrants(tournament=tournament)
    user = request.user
    entered = user.is_authenticated and any(
        e.participant.user_id == user.pk for e in entrants
    )
    # The owner's bots already in, each with its own Withdraw button.
    my_entered_bots = [
        e.participant
        for e in entrants
        if user.is_authenticated
        and e.participant.is_bot
        and e.participant.owner_id == user.pk
    ]
    taken = {p.bot_id for p in my_entered_bots}
    context = {
        "tournament": tournament,
        "game_name": _games().get(tournament.game, tournament.game),
        "entrants": entrants,
        "entered": entered,
        "can_organise": tournament_selectors.can_organise(
            tournament=tournament, user=user
        ),
        "rounds": tournament_selectors.rounds(tournament=tournament),
        "live_version": live_version(tournament),
        "people_allowed": tournament.participants != ParticipantKind.BOTS,
        "my_bots": [
            b
            for b in _my_bots(user, tournament.game, tournament.participants)
            if b.bot_id not in taken
        ],
        "my_entered_bots": my_entered_bots,
        **_entrant_choices(tournament),
        **_checkin_context(tournament, entrants, user),
    }
    if tournament.is_elimination:
        context["bracket"] = tournament_selectors.bracket_view(tournament=tournament)
    else:
        context["standings"] = tournament_selectors.standings(tournament=tournament)
        context["cross_table"] = tournament_selectors.cross_table(tournament=tournament)
        context["tiebreak_labels"] = [
            tournament_selectors.TIEBREAK_LABELS[t]
            for t in tournament_selectors.standings_tiebreaks(tournament)
        ]
    return render(request, "league/tournament_detail.html", context)


def _checkin_context(tournament: Tournament, entrants: list, user) -> dict:
    """The check-in block: whether it is open and the viewer's entries in it
    (their own and their bots', each checked in or not)."""
    if not tournament.checkin_minutes:
        return {}
    mine = [
        e
        for e in entrants
        if user.is_authenticated
        and (
            e.participant.user_id == user.pk
            or (e.participant.is_bot and e.participant.owner_id == user.pk)
        )
    ]
    return {
        "checkin_open": tournament_services.checkin_is_open(tournament),
        "checkin_mine": mine,
        # Built-in bots are always there: they count as checked in.
        "checked_in_count": sum(
            1
            for e in entrants
            if e.checked_in_at or e.participant.type == ParticipantType.BUILTIN
        ),
    }


def _entrant_choices(tournament: Tournament) -> dict:
    """What an organiser may add on the page: uploaded and built-in bots."""
    from gameplay.rules.bots import available_bots, bot_display_name

    directory = bot_directory()
    return {
        "addable_bots": directory.bots_for_game(tournament.game) if directory else [],
        "builtin_bots": [(n, bot_display_name(n)) for n in available_bots()],
    }


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


@league_action
def tournament_enter(request: SignedInRequest, slug: str):
    entrant = tournament_services.tournament_enter(
        tournament=_tournament(slug), user=request.user, bot_id=_bot_id(request)
    )
    return reverse("league:tournament", args=[slug]), f"{entrant} entered."


@league_action
def tournament_check_in(request: SignedInRequest, slug: str):
    entrant = tournament_services.tournament_check_in(
        tournament=_tournament(slug), user=request.user, bot_id=_bot_id(request)
    )
    return reverse("league:tournament", args=[slug]), f"{entrant} checked in."


@league_action
def tournament_withdraw(request: SignedInRequest, slug: str):
    tournament_services.tournament_withdraw(
        tournament=_tournament(slug), user=request.user, bot_id=_bot_id(request)
    )
    return reverse("league:tournament", args=[slug]), "Entry withdrawn."


@league_action
def tournament_action(request: SignedInRequest, slug: str, action: str):
    tournament = _tournament(slug)
    target = reverse("league:tournament", args=[slug])
    if action == "seed-rating":
        tournament_services.tournament_seed(
            tournament=tournament, by=request.user, method="rating"
        )
        return target, "Seeded by rating."
    if action == "seed-manual":
        seeds = []
        for entrant in tournament.entrants.all():
            raw = request.POST.get(f"seed_{entrant.pk}", "")
            if not raw.isdigit():
                raise_invalid(f"give {entrant} a seed number")
            seeds.append((int(raw), entrant.pk))
        order = [pk for _, pk in sorted(seeds)]
        if len({s for s, _ in seeds}) != len(seeds):
            raise_invalid("each seed number may be used once")
        tournament_services.tournament_seed(
            tournament=tournament, by=request.user, method="manual", order=order
        )
        return target, "Seeds saved."
    if action == "add-entrant":
        bot_raw = request.POST.get("bot_id") or ""
        entrant = tournament_services.tournament_add_named_entrant(
            tournament=tournament,
            by=request.user,
            username=(request.POST.get("username") or "").strip()[:150],
            bot_id=int(bot_raw) if bot_raw.isdigit() and len(bot_raw) < 19 else None,
            builtin=(request.POST.get("builtin") or "").strip()[:40],
        )
        return target, f"{entrant} entered."
    if action == "remove-entrant":
        raw = request.POST.get("entrant") or ""
        if not raw.isdigit() or len(raw) > 18:
            raise_invalid("choose the entrant to remove")
        tournament_services.tournament_remove_entrant(
            tournament=tournament, by=request.user, entrant_id=int(raw)
        )
        return target, "Entrant removed."
    if action == "start":
        tournament_services.tournament_start(tournament=tournament, by=request.user)
        return target, "Tournament started: round 1 is on."
    if action == "advance":
        tournament_services.tournament_advance(tournament=tournament, by=request.user)
        return target, "Open rounds closed; no-shows forfeited."
    raise_invalid(f"unknown action {action!r}")
    return target, ""


@league_action
def pairing_void(request: SignedInRequest, slug: str, pairing_id: int):
    pairing = get_object_or_404(Pairing, pk=pairing_id, tournament__slug=slug)
    tournament_services.pairing_void(
        pairing_id=pairing.pk, by=request.user, reason=request.POST.get("reason", "")
    )
    return reverse(
        "league:tournament", args=[slug]
    ), "Result voided: the game is replayed."
