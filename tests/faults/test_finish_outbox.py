"""A match finished while the broker is away is announced later, rated once.

The broker outage is real for the code under test: every ``apply_async`` raises
kombu's ``OperationalError``, as it does when Redis refuses connections.
"""

from __future__ import annotations

import pytest
from celery.app.task import Task
from kombu.exceptions import OperationalError

from gameplay import services, tasks
from gameplay.models import Match, MatchStatus
from league.models import Pairing, PairingStatus, RatingEvent, TournamentStatus
from league.tasks import ratings_apply_match, tournament_match_finished
from league.tournaments import services as ts
from tests.factories import UserFactory
from tests.league.conftest import decide, play_out

pytestmark = pytest.mark.django_db


def _refuse(self, *args, **kwargs):
    raise OperationalError("Error 111 connecting to redis. Connection refused.")


def _cup(django_capture_on_commit_callbacks):
    organiser = UserFactory(username="organiser")
    players = [UserFactory(username=f"o{i}") for i in range(2)]
    cup = ts.tournament_create(
        by=organiser, name="outage cup", game="duelo", format="single_elim"
    )
    for user in players:
        ts.tournament_enter(tournament=cup, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=cup, by=organiser)
    pairing = Pairing.objects.get(tournament=cup, status=PairingStatus.PLAYING)
    return cup, pairing.match


def _decided(cup, capture) -> bool:
    """Whether the cup finished once its one pairing is decided: a drawn game
    (about 1 in 80 first-legal-move Duelo deals) is replayed as a new match."""
    decide(Pairing.objects.get(tournament=cup), capture)
    cup.refresh_from_db()
    return cup.status == TournamentStatus.FINISHED


def test_finish_during_outage_is_rated_once_and_the_cup_completes(
    monkeypatch, django_capture_on_commit_callbacks
):
    cup, match = _cup(django_capture_on_commit_callbacks)
    monkeypatch.setattr(Task, "apply_async", _refuse)  # Redis goes away
    assert match.rated
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.finish_announced_at is None  # still owed: the outbox entry
    assert not RatingEvent.objects.filter(match=match).exists()
    # Beat during the outage: still refused, still owed.
    assert services.announce_finished_matches(older_than=0) == 0
    assert Match.objects.get(pk=match.pk).finish_announced_at is None

    monkeypatch.undo()  # Redis is back
    assert tasks.announce_finished() == 0  # too fresh for the sweep's margin
    assert services.announce_finished_matches(older_than=0) == 1
    match.refresh_from_db()
    assert match.finish_announced_at is not None
    events = RatingEvent.objects.filter(match=match).count()
    assert events == 2
    assert _decided(cup, django_capture_on_commit_callbacks)
    # Nothing more to announce, and a redelivered task changes nothing.
    assert services.announce_finished_matches(older_than=0) == 0
    assert services.match_announce_finished(match_id=match.pk) is False
    ratings_apply_match(match.pk)
    tournament_match_finished(match.pk)
    assert RatingEvent.objects.filter(match=match).count() == events


def test_a_receiver_that_fails_after_another_succeeded_is_retried_harmlessly(
    monkeypatch, django_capture_on_commit_callbacks
):
    cup, match = _cup(django_capture_on_commit_callbacks)
    real = Task.apply_async

    def ratings_only(self, *args, **kwargs):
        if self.name == "league.tournament_match_finished":
            raise OperationalError("connection lost mid-announcement")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Task, "apply_async", ratings_only)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match)
    assert RatingEvent.objects.filter(match=match).count() == 2  # rated already
    assert Match.objects.get(pk=match.pk).finish_announced_at is None
    monkeypatch.undo()
    assert services.announce_finished_matches(older_than=0) == 1
    assert RatingEvent.objects.filter(match=match).count() == 2  # not twice
    assert _decided(cup, django_capture_on_commit_callbacks)
