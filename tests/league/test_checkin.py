"""Tournament check-in: open in the last N minutes before the start; entrants
who do not check in are removed and the bracket is built from the rest
(issue 31, section 4)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from league.errors import Conflict, Invalid
from league.models import Entrant, TournamentFormat, TournamentStatus
from league.participants import participant_for_builtin
from league.tournaments import services
from league.tournaments.services.deadlines import tournaments_tick
from notifications.models import Notification, NotificationKind
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def start():
    return timezone.now().replace(microsecond=0) + timedelta(hours=2)


@pytest.fixture
def organiser():
    return UserFactory(username="boss")


@pytest.fixture
def people():
    return [UserFactory(username=f"e{i}") for i in range(5)]


def _tournament(organiser, people, start, **extra):
    tournament = services.tournament_create(
        by=organiser,
        name="Check-in cup",
        game="kungfu2013",
        format=extra.pop("format", TournamentFormat.SINGLE_ELIM),
        starts_at=start,
        checkin_minutes=30,
        **extra,
    )
    for person in people:
        services.tournament_enter(tournament=tournament, user=person)
    builtin = participant_for_builtin("random")
    services.tournament_add_entrant(
        tournament=tournament, by=organiser, participant_id=builtin.pk
    )
    return tournament


def test_no_shows_are_removed_and_the_bracket_is_built_from_the_rest(
    organiser, people, start, django_capture_on_commit_callbacks
):
    tournament = _tournament(organiser, people, start)
    early = start - timedelta(minutes=31)
    with pytest.raises(Conflict, match="opens 30 minutes"):
        services.tournament_check_in(tournament=tournament, user=people[0], now=early)
    with pytest.raises(Conflict, match="not opened yet"):
        services.tournament_start(tournament=tournament, by=organiser, now=early)
    assert tournament.entrants.count() == 6

    # Beat opens check-in once and tells every person entered.
    opened_at = start - timedelta(minutes=29)
    with django_capture_on_commit_callbacks(execute=True):
        assert tournaments_tick(now=early)["checkin_opened"] == 0
        assert tournaments_tick(now=opened_at)["checkin_opened"] == 1
        assert tournaments_tick(now=opened_at)["checkin_opened"] == 0
    notes = Notification.objects.filter(kind=NotificationKind.CHECK_IN)
    assert sorted(n.user.username for n in notes) == [p.username for p in people]
    assert all(n.key == f"check_in:{tournament.pk}" for n in notes)

    for person in people[:3]:
        services.tournament_check_in(tournament=tournament, user=person, now=opened_at)
    # Twice is harmless; someone not entered is refused.
    services.tournament_check_in(tournament=tournament, user=people[0], now=opened_at)
    with pytest.raises(Conflict, match="not entered"):
        services.tournament_check_in(
            tournament=tournament, user=organiser, now=opened_at
        )

    services.tournament_start(
        tournament=tournament, by=organiser, now=start - timedelta(minutes=1)
    )
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    field = {e.participant.key for e in tournament.entrants.all()}
    assert field == {f"user:{p.pk}" for p in people[:3]} | {"builtin:random"}
    ids = {e.pk for e in tournament.entrants.all()}
    # The bracket is made of the four who are there: seeds 1-4, no byes.
    assert sorted(tournament.bracket["entrants"]) == sorted(ids)
    first_round = [m for m in tournament.bracket["matches"] if m["round"] == 1]
    assert len(first_round) == 2
    assert all(m["state"] != "bye" for m in first_round)
    with pytest.raises(Conflict, match="started"):
        services.tournament_check_in(tournament=tournament, user=people[3], now=start)


def test_a_start_without_two_checked_in_changes_nothing(organiser, people, start):
    tournament = _tournament(organiser, people[:2], start)
    Entrant.objects.filter(participant__type="builtin").delete()
    services.tournament_check_in(
        tournament=tournament, user=people[0], now=start - timedelta(minutes=5)
    )
    with pytest.raises(Conflict, match="two entrants checked in"):
        services.tournament_start(
            tournament=tournament, by=organiser, now=start - timedelta(minutes=1)
        )
    assert tournament.entrants.count() == 2  # the rollback kept the no-show


def test_check_in_closes_at_the_start_and_bad_settings_are_refused(
    organiser, people, start
):
    tournament = _tournament(organiser, people[:2], start)
    with pytest.raises(Conflict, match="closed"):
        services.tournament_check_in(tournament=tournament, user=people[0], now=start)
    for bad in (0.5, -3, 24 * 60 + 1, "ten", True):
        with pytest.raises(Invalid):
            services.tournament_create(
                by=organiser,
                name="bad",
                game="kungfu2013",
                format="single_elim",
                checkin_minutes=bad,
            )
    plain = services.tournament_create(
        by=organiser, name="plain", game="kungfu2013", format="single_elim"
    )
    services.tournament_enter(tournament=plain, user=people[0])
    with pytest.raises(Conflict, match="no check-in"):
        services.tournament_check_in(tournament=plain, user=people[0])


def test_check_in_through_the_api_and_the_page(client, organiser, people):
    start = timezone.now() + timedelta(minutes=10)
    tournament = _tournament(organiser, people[:2], start)
    api = APIClient()
    api.force_authenticate(people[0])
    url = f"/api/tournaments/{tournament.slug}/check-in/"
    answer = api.post(url, {}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["checked_in_at"] is not None
    assert api.post(url, {"bot_id": "x"}, format="json").status_code == 400
    anonymous = APIClient().post(url, {}, format="json")
    assert anonymous.status_code in (401, 403)
    detail = api.get(f"/api/tournaments/{tournament.slug}/").json()
    assert detail["checkin_minutes"] == 30
    assert [e["checked_in_at"] is not None for e in detail["entrants"]].count(True) == 1

    client.force_login(people[1])
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert 'id="checkin"' in page and "Check-in open" in page
    assert ">Check in</button>" in page
    response = client.post(f"/tournaments/{tournament.slug}/check-in/")
    assert response.status_code == 302
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "You are checked in." in page
    assert "3 of 3 checked in" in page  # the built-in bot counts


@pytest.mark.slow
def test_a_tournament_with_check_in_is_played_to_its_end(
    organiser, people, start, django_capture_on_commit_callbacks
):
    """Two of three people check in (and the built-in bot is there): round 1
    waits for the start time, then the bracket of those three is played out.
    Whole games of Kung Fu (2013): slow (a minute or more on a loaded machine)."""
    from league.models import TournamentStatus
    from tests.league.conftest import drive_tournament

    people = people[:3]
    tournament = _tournament(organiser, people, start)
    opened = start - timedelta(minutes=20)
    for person in people[:2]:
        services.tournament_check_in(tournament=tournament, user=person, now=opened)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament, by=organiser, now=opened)
    tournament.refresh_from_db()
    assert tournament.entrants.count() == 3
    assert not tournament.pairings.filter(match__isnull=False).exists()  # not yet
    with django_capture_on_commit_callbacks(execute=True):
        assert tournaments_tick(now=start)["matches_created"] >= 1
    drive_tournament(tournament, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.champion is not None
    assert tournament.champion.participant.user_id != people[2].pk
