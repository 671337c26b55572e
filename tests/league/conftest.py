"""Fixtures for the league tests: players, and matches played through gameplay."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from gameplay import services
from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game
from gameplay.services import SeatSpec
from tests.factories import UserFactory

if TYPE_CHECKING:
    from league.models import Pairing


@pytest.fixture
def users(db):
    return [UserFactory(username=f"u{i}") for i in range(10)]


def play_out(match: Match, max_steps: int = 3000) -> Match:
    """Finish an active match with each seat's first legal move (people's seats
    through ``match_act``, bot seats through ``match_system_act``)."""
    engine = get_game(match.game)
    for _ in range(max_steps):
        match.refresh_from_db()
        if match.is_over:
            return match
        seat_number = engine.actors(match.state)[0]
        seat = match.seats.get(number=seat_number)
        action = engine.legal_action_ids(match.state, seat_number)[0]
        if seat.user_id and not seat.replaced_by_bot:
            services.match_act(
                match_id=match.pk,
                user=seat.user,
                action_id=action,
                expected_version=match.version,
            )
        else:
            services.match_system_act(
                match_id=match.pk,
                seat_number=seat_number,
                action_id=action,
                expected_version=match.version,
            )
    raise AssertionError("match did not end")


def decide(pairing, capture, max_games: int = 20) -> None:
    """Play ``pairing``'s matches until it is decided.

    A drawn elimination game is replayed as a new match for the same pairing,
    so one ``play_out`` does not always decide it (the match seed, and so the
    outcome of first-legal-move play, differs from run to run)."""
    from league.models import PairingStatus

    for _ in range(max_games):
        pairing.refresh_from_db()
        if pairing.status != PairingStatus.PLAYING:
            return
        with capture(execute=True):
            play_out(pairing.match)
    raise AssertionError("pairing still undecided after replays")


def play_match(users, *, rated: bool = True, context: str = "") -> Match:
    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=u) for u in users],
        rated=rated,
        context=context,
    )
    services.match_start(match_id=match.pk)
    return play_out(match)


def drive_tournament(
    tournament,
    capture,
    *,
    play: Callable[[Pairing], object] | None = None,
    max_loops: int = 200,
) -> None:
    """Play every open match of ``tournament`` until it is finished, as the
    players would: ``play(pairing)`` finishes one (default: ``play_out`` of its
    match) inside ``capture(execute=True)`` (pytest-django's
    ``django_capture_on_commit_callbacks``), so the next round is paired."""
    from league.models import Pairing, PairingStatus, TournamentStatus

    def play_match(pairing: Pairing) -> object:
        assert pairing.match is not None, "a playing pairing has its match"
        return play_out(pairing.match)

    play = play or play_match
    for _ in range(max_loops):
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            return
        playing = list(
            Pairing.objects.filter(
                tournament=tournament,
                status=PairingStatus.PLAYING,
                match__status=MatchStatus.ACTIVE,
            ).select_related("match")
        )
        assert playing, "tournament stuck with nothing to play"
        for pairing in playing:
            with capture(execute=True):
                play(pairing)
    raise AssertionError("tournament did not finish")
