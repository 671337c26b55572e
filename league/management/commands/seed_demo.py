"""Demo data for `make run`: an admin, a few players, one league per game,
rated league games, a tournament bracket and a bots-only game playing live.

Idempotent: running it again changes nothing and prints the same admin password,
which is kept under var/ (ignored by git) so a re-run can show it again.

The games are real: played through the gameplay services, the demo players
choosing random legal moves and built-in bots thinking for themselves, with
Celery in eager mode so ratings and the bracket are updated before the command
returns (the worker may not be running yet).
"""

from __future__ import annotations

import logging
import random
import secrets
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from gameplay.catalog import game_catalog, game_name
from gameplay.rules import available_games, game_meta
from league.models import League, ParticipantKind, Season, SeasonStatus

DEMO_PLAYERS = [
    ("mei", "Mei Lin"),
    ("jukai", "Jukai"),
    ("quan", "Quan Jing"),
    ("ning", "Ning Long"),
]
DEMO_PASSWORD = "kungfu-demo-2026"


def _password_file() -> Path:
    """Beside the SQLite database it belongs to (var/ by default), else in var/."""
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        return Path(database["NAME"]).parent / "admin-password.txt"
    return settings.VAR_DIR / "admin-password.txt"


def admin_password() -> str:
    """The demo admin's password as first generated (make run prints it last)."""
    try:
        return _password_file().read_text().strip()
    except FileNotFoundError:
        return "(not recorded; set one with 'python manage.py changepassword admin')"


class Command(BaseCommand):
    help = "Create the demo admin, players and leagues (safe to run repeatedly)."

    def handle(self, *args, **options) -> None:
        self._accounts_and_leagues()
        demo_league_play(stdout=self.stdout)

    @transaction.atomic
    def _accounts_and_leagues(self) -> None:
        password_file = _password_file()
        admin = User.objects.filter(username="admin").first()
        if admin is None:
            password = secrets.token_urlsafe(12)
            User.objects.create_superuser(
                username="admin",
                email="admin@localhost",
                password=password,
                display_name="Arena admin",
            )
            password_file.parent.mkdir(parents=True, exist_ok=True)
            password_file.write_text(password + "\n")
            password_file.chmod(0o600)
        else:
            password = admin_password()

        for username, display_name in DEMO_PLAYERS:
            if not User.objects.filter(username=username).exists():
                User.objects.create_user(
                    username=username,
                    email=f"{username}@example.com",
                    password=DEMO_PASSWORD,
                    display_name=display_name,
                )
        # Nobody reads the demo players' mail: round e-mails for them would only
        # fill `make run`'s terminal (the console mail backend) at every start.
        User.objects.filter(username__in=[name for name, _ in DEMO_PLAYERS]).update(
            email_tournament_rounds=False
        )

        now = timezone.now()
        for game in game_catalog():
            league, _ = League.objects.get_or_create(
                slug=f"{game.id}-open",
                defaults={
                    "name": f"{game.name} Open League",
                    "game": game.id,
                    "description": f"The open ladder for {game.name}: people and "
                    "bots welcome, rated every game.",
                    "participants": ParticipantKind.MIXED,
                },
            )
            Season.objects.get_or_create(
                league=league,
                number=1,
                defaults={
                    "name": f"{game.name} Open — season 1",
                    "registration_opens_at": now - timedelta(days=1),
                    "registration_closes_at": now + timedelta(days=14),
                    "starts_at": now,
                    "ends_at": now + timedelta(days=60),
                    "status": SeasonStatus.OPEN,
                },
            )

        self.stdout.write(self.style.SUCCESS("Demo data ready."))
        self.stdout.write(f"  admin password: {password}")
        players = ", ".join(name for name, _ in DEMO_PLAYERS)
        self.stdout.write(f"  demo players ({players}) password: {DEMO_PASSWORD}")


DEMO_GAMES = 14


def demo_game() -> str:
    """The game the demo plays (league games, cup, live exhibition): the
    first registered game whose metadata gives an exhibition config."""
    for game in available_games():
        if game_meta(game).exhibition is not None:
            return game
    raise RuntimeError("no registered game gives the demo an exhibition config")


def demo_league_slug(game: str) -> str:
    return f"{game}-open"  # the open league ``_accounts_and_leagues`` makes


def demo_cup_slug(game: str) -> str:
    return f"{game}-demo-cup"


def _play_out(match_id: int, rng: random.Random) -> None:
    """Finish a started match: people pick random legal moves, bots their own."""
    from gameplay import services
    from gameplay.models import Match
    from gameplay.rules import get_game

    for _ in range(5000):
        match = Match.objects.get(pk=match_id)
        if match.is_over:
            return
        engine = get_game(match.game)
        seat = match.seats.get(number=engine.actors(match.state)[0])
        if seat.is_bot:
            services.match_play_builtin_bots(match_id=match_id)
            continue
        services.match_act(
            match_id=match_id,
            user=seat.user,
            action_id=rng.choice(engine.legal_action_ids(match.state, seat.number)),
            expected_version=match.version,
        )
    raise RuntimeError(f"demo match {match_id} did not finish")


@contextmanager
def _eager_celery():
    from config.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    # Eager tasks log a line each ("Task ... succeeded"): hundreds while the
    # demo games are played. Failures still raise.
    trace_logger = logging.getLogger("celery.app.trace")
    level = trace_logger.level
    trace_logger.setLevel(max(logging.WARNING, level))
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved
        trace_logger.setLevel(level)


def demo_league_play(*, stdout) -> None:
    """Season registrations, rated league games and a tournament (once)."""
    from league import services as league_services
    from league.models import Registration, Tournament
    from league.participants import participant_for_builtin
    from league.tournaments import services as tournament_services

    game = demo_game()
    league = League.objects.filter(slug=demo_league_slug(game)).first()
    if league is None:
        return
    admin = User.objects.get(username="admin")
    league.organisers.add(admin)
    season = league.seasons.order_by("-number").first()
    if season is None:
        return
    league_services.season_update_statuses()
    season.refresh_from_db()
    players = [User.objects.get(username=name) for name, _ in DEMO_PLAYERS]
    rng = random.Random(2026)
    with _eager_celery():
        if not Registration.objects.filter(season=season).exists():
            registrations = [
                league_services.season_register(season=season, user=user)
                for user in players
            ]
            if season.status == SeasonStatus.RUNNING:
                for _ in range(DEMO_GAMES):
                    table = rng.sample(registrations, rng.choice([2, 2, 3, 4]))
                    match = league_services.league_match_create(
                        season=season,
                        by=admin,
                        participant_ids=[r.participant_id for r in table],
                        rated=True,
                    )
                    _play_out(match.pk, rng)
            stdout.write(f"  {DEMO_GAMES} rated league games played")
        if not Tournament.objects.filter(slug=demo_cup_slug(game)).exists():
            cup = tournament_services.tournament_create(
                by=admin,
                name=f"{game_name(game)} demo cup",
                game=game,
                format="double_elim",
                league=league,
                round_hours=72,
            )
            Tournament.objects.filter(pk=cup.pk).update(slug=demo_cup_slug(game))
            cup.refresh_from_db()
            for user in players:
                tournament_services.tournament_enter(tournament=cup, user=user)
            for name in ("random", "heuristic"):
                tournament_services.tournament_add_entrant(
                    tournament=cup,
                    by=admin,
                    participant_id=participant_for_builtin(name).pk,
                )
            tournament_services.tournament_start(tournament=cup, by=admin)
        # Played to its champion: a final left waiting for a demo player would
        # sit in "Live now" without ever moving (older demo data included).
        cup = Tournament.objects.get(slug=demo_cup_slug(game))
        played = 0
        for _ in range(60):
            pairing = cup.pairings.filter(status="playing").first()
            if pairing is None:
                break
            assert pairing.match_id is not None  # a playing pairing has its match
            _play_out(pairing.match_id, rng)
            played += 1
        if played:
            stdout.write("  demo cup played to its champion")
    demo_exhibition(stdout=stdout)


DEMO_EXHIBITION = "demo:exhibition"
EXHIBITION_BOTS = ("heuristic", "ismcts", "random")


def demo_exhibition(*, stdout) -> None:
    """A bots-only game of ``demo_game`` for "Live now", played by the worker
    as it runs.

    Started here with tasks queued, not eager: the worker (up in a moment) plays
    it one move per BOTS_ONLY_MOVE_DELAY, so a visitor can watch it live. A new
    one starts whenever `make run` finds none in play; one whose moves stopped
    (its queued move was lost with a previous run) is set going again.
    """
    from gameplay import services as match_services
    from gameplay.agents import builtin_agent
    from gameplay.enqueue import schedule_bot_turns
    from gameplay.models import Match, MatchStatus
    from gameplay.services import SeatSpec

    delay = settings.BOTS_ONLY_MOVE_DELAY
    live = Match.objects.filter(context=DEMO_EXHIBITION, status=MatchStatus.ACTIVE)
    match = live.order_by("-started_at").first()
    if match is None:
        game = demo_game()
        match = match_services.match_create(
            game=game,
            seats=[SeatSpec(agent=builtin_agent(name)) for name in EXHIBITION_BOTS],
            config=dict(game_meta(game).exhibition or {}),
            context=DEMO_EXHIBITION,
        )
        match_services.match_start(match_id=match.pk)  # queues the first move
        stdout.write(f"  live exhibition game started ({delay:g} s per move)")
        return
    assert match.turn_started_at is not None  # it is in play: a turn has begun
    idle = (timezone.now() - match.turn_started_at).total_seconds()
    if idle > max(10.0, 3 * delay):
        schedule_bot_turns(match_id=match.pk)
    stdout.write("  live exhibition game continues")
