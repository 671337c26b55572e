"""Kung Fu (2009) in Swiss tournaments with tables of 4-8, no game-specific code.

The game's tables (``GameMeta.tables``: 4-8, preferring 6) decide how a round
is seated. The matches are real: every person's seat trades and claims through
``match_act`` on a short virtual clock (the random bot deciding for it, intents in
the tick's rotating order, stale ones refused), the table checks claims
through its timers, and the time limit (the table's ``end`` timer) scores the
game as it stands, so level seats share their places.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import services
from gameplay.errors import MatchError
from gameplay.models import MatchAction, MatchStatus
from gameplay.rules import game_meta, get_game
from gameplay.rules.bots import decision_context, get_bot
from gameplay.rules.ticks import PASS, tick_order, tick_seed
from league.models import Pairing, PairingStatus, RatingEvent, TournamentStatus
from league.ratings.services import pool_global
from league.tournaments import selectors
from league.tournaments import services as ts
from tests.factories import UserFactory
from tests.league.conftest import drive_tournament

pytestmark = pytest.mark.django_db
GAME = "kungfu2009"
TICKS = 40


def _play(pairing) -> None:
    """A few dozen ticks of trading by every seat (the random bot, the fastest
    built-in: this is about the tournament, not the play), then the time limit."""
    match = pairing.match
    engine = get_game(GAME)
    bot = get_bot("random")
    users = {s.number: s.user for s in match.seats.all()}
    seed = random.randrange(1 << 40)
    for tick in range(TICKS):
        match.refresh_from_db()
        if match.is_over:
            return
        actors = engine.actors(match.state)
        if not actors:  # a claim on the table: its check is due in seconds
            services.match_apply_timers(
                match_id=match.pk, now=timezone.now() + timedelta(seconds=10)
            )
            continue
        state, version = match.state, match.version
        for seat in tick_order(actors, tick, len(users)):
            ctx = decision_context(engine, state, seat, tick_seed(seed, tick, seat))
            action_id = bot.choose(ctx)
            if action_id == PASS:
                continue
            try:
                services.match_act(
                    match_id=match.pk,
                    user=users[seat],
                    action_id=action_id,
                    expected_version=version,
                )
            except MatchError:
                continue  # gone stale (another seat's intent came first)
    # The table's time limit: scored as it stands (after the timers due
    # before it: unanswered offers declined, a claim checked; a check applies
    # a bounded number of steps, so it may take more than one).
    later = timezone.now() + timedelta(hours=2)
    for minute in range(20):
        # A step applied "then" starts its own timers then: the clock moves on.
        services.match_apply_timers(
            match_id=match.pk, now=later + timedelta(minutes=minute)
        )
        match.refresh_from_db()
        if match.is_over:
            break
    assert match.is_over, match.timers


def test_the_game_seats_tables_of_four_to_eight():
    assert game_meta(GAME).tables == (4, 8, 6)
    assert game_meta("kungfu2019").tables == (3, 5, 4)
    assert game_meta("kungfu2013").tables is None  # two players only


@pytest.mark.parametrize(("entrants", "sizes"), [(4, [4]), (8, [8]), (9, [4, 5])])
def test_swiss_tables_of_four_to_eight_run_to_the_end(
    entrants, sizes, django_capture_on_commit_callbacks
) -> None:
    organiser = UserFactory(username="organiser")
    players = [UserFactory(username=f"p{i}") for i in range(entrants)]
    t = ts.tournament_create(
        by=organiser,
        name="2009 cup",
        game=GAME,
        format="swiss_tables",
        swiss_rounds=2,
    )
    assert t.options["players"] == 4  # the smallest table; matches seat their own
    for user in players:
        ts.tournament_enter(tournament=t, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    first = list(t.pairings.filter(round__number=1).prefetch_related("seats"))
    assert sorted(p.seats.count() for p in first) == sizes
    for pairing in first:
        assert pairing.match is not None
        assert pairing.match.status == MatchStatus.ACTIVE
        assert pairing.match.state["n"] == pairing.seats.count()
    drive_tournament(t, django_capture_on_commit_callbacks, play=_play)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 2
    for pairing in Pairing.objects.filter(tournament=t).prefetch_related("seats"):
        assert pairing.status == PairingStatus.DONE
        seats = list(pairing.seats.all())
        assert pairing.match is not None and pairing.match.result is not None
        placements = pairing.match.result["placements"]
        assert {s.seat: s.placement for s in seats} == dict(enumerate(placements))
        points = [s.points for s in seats]
        assert None not in points
        total = sum(p for p in points if p is not None)
        assert total == pytest.approx(len(seats) / 2)
    # People's intents made the games (not only the table's end).
    played = MatchAction.objects.filter(
        match__context__startswith=f"tournament:{t.pk}:"
    )
    assert played.filter(seat__isnull=False).exclude(kind="table").exists()
    table = selectors.standings(tournament=t)
    assert len(table) == entrants and t.champion_id == table[0].entrant.pk
    events = RatingEvent.objects.filter(pool=pool_global(game=GAME))
    assert {e.players for e in events} >= set(sizes)


def test_fewer_entrants_than_the_smallest_table_cannot_start(
    django_capture_on_commit_callbacks,
) -> None:
    organiser = UserFactory(username="organiser")
    t = ts.tournament_create(
        by=organiser, name="tiny", game=GAME, format="swiss_tables"
    )
    for i in range(3):
        ts.tournament_enter(tournament=t, user=UserFactory(username=f"q{i}"))
    with pytest.raises(Exception, match="tables of 4-8 need at least 4 entrants"):
        ts.tournament_start(tournament=t, by=organiser)
