"""Leagues and seasons: registration rules, withdrawal, invitations, rollover."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league import services
from league.errors import Conflict, Invalid, NotFound, PermissionDenied
from league.models import (
    Rating,
    RatingPool,
    RatingSeed,
    Registration,
    RegistrationStatus,
    SeasonStatus,
)
from league.participants import BotDirectory, BotInfo, register_bot_directory
from league.ratings.services import pool_for_season, rating_apply_match
from tests.factories import LeagueFactory, SeasonFactory, UserFactory, finished_match

pytestmark = pytest.mark.django_db


class FakeBots:
    """A stand-in for the bots app's directory: bot 7 (duelo, owned by owner)."""

    def __init__(self, owner_id: int, game: str = "duelo") -> None:
        self.info = {
            7: BotInfo(
                bot_id=7, name="Crane", owner_id=owner_id, game=game, version_id=70
            ),
            8: BotInfo(
                bot_id=8,
                name="Tiger",
                owner_id=owner_id,
                game="kungfu2013",
                version_id=80,
            ),
        }

    def bot(self, bot_id: int) -> BotInfo | None:
        return self.info.get(bot_id)

    def bot_for_version(self, version_id: int) -> BotInfo | None:
        return next((i for i in self.info.values() if i.version_id == version_id), None)

    def bots_for_game(self, game: str) -> list[BotInfo]:
        return [i for i in self.info.values() if i.game == game]

    def bots_owned_by(self, owner_id: int, game: str) -> list[BotInfo]:
        return [i for i in self.bots_for_game(game) if i.owner_id == owner_id]


@pytest.fixture
def bots(users):
    from league.participants import bot_directory

    previous = bot_directory()  # the bots app's, which later tests rely on
    fake = FakeBots(owner_id=users[0].pk)
    assert isinstance(fake, BotDirectory)  # the whole protocol, like the real one
    register_bot_directory(fake)
    yield
    register_bot_directory(previous)


def _dates(now=None):
    now = now or timezone.now()
    return {
        "registration_opens_at": now - timedelta(days=1),
        "registration_closes_at": now + timedelta(days=5),
        "starts_at": now + timedelta(days=6),
        "ends_at": now + timedelta(days=30),
    }


def test_register_and_withdraw(users) -> None:
    season = SeasonFactory()
    reg = services.season_register(season=season, user=users[0])
    assert reg.status == RegistrationStatus.APPROVED
    services.season_withdraw(season=season, user=users[0])
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.WITHDRAWN
    again = services.season_register(season=season, user=users[0])
    assert again.pk == reg.pk and again.status == RegistrationStatus.APPROVED


def test_registering_twice_is_refused_and_changes_nothing(users) -> None:
    season = SeasonFactory()
    services.season_register(season=season, user=users[0])
    before = list(Registration.objects.values())
    with pytest.raises(Conflict, match="already registered"):
        services.season_register(season=season, user=users[0])
    assert list(Registration.objects.values()) == before


def test_registration_outside_the_window(users) -> None:
    now = timezone.now()
    closed = SeasonFactory(
        registration_opens_at=now - timedelta(days=10),
        registration_closes_at=now - timedelta(days=1),
    )
    with pytest.raises(Conflict, match="closed"):
        services.season_register(season=closed, user=users[0])
    early = SeasonFactory(
        registration_opens_at=now + timedelta(days=1),
        registration_closes_at=now + timedelta(days=3),
        status=SeasonStatus.UPCOMING,
    )
    with pytest.raises(Conflict):
        services.season_register(season=early, user=users[0])
    assert not Registration.objects.exists()


def test_wrong_game_is_refused(users, bots) -> None:
    season = SeasonFactory()
    with pytest.raises(Invalid, match="runs duelo"):
        services.season_register(season=season, user=users[0], game="kungfu2013")
    with pytest.raises(Invalid, match="plays kungfu2013"):
        services.season_register(season=season, user=users[0], bot_id=8)
    assert not Registration.objects.exists()


def test_participant_kind_is_respected(users, bots) -> None:
    humans = SeasonFactory(league=LeagueFactory(participants="humans"))
    robots = SeasonFactory(league=LeagueFactory(participants="bots"))
    with pytest.raises(Invalid, match="bots cannot"):
        services.season_register(season=humans, user=users[0], bot_id=7)
    with pytest.raises(Invalid, match="people cannot"):
        services.season_register(season=robots, user=users[0])
    reg = services.season_register(season=robots, user=users[0], bot_id=7)
    assert reg.participant.key == "bot:7" and reg.participant.name == "Crane"


def test_only_the_owner_registers_or_withdraws_a_bot(users, bots) -> None:
    season = SeasonFactory()
    with pytest.raises(PermissionDenied):
        services.season_register(season=season, user=users[1], bot_id=7)
    services.season_register(season=season, user=users[0], bot_id=7)
    with pytest.raises(PermissionDenied):
        services.season_withdraw(season=season, user=users[1], bot_id=7)
    with pytest.raises(NotFound):
        services.season_register(season=season, user=users[0], bot_id=99)


def test_withdraw_without_registration(users) -> None:
    with pytest.raises(Conflict, match="not registered"):
        services.season_withdraw(season=SeasonFactory(), user=users[0])


def test_invite_only_needs_invitation_or_approval(users) -> None:
    organiser = users[9]
    league = LeagueFactory(invite_only=True)
    league.organisers.add(organiser)
    season = SeasonFactory(league=league)
    pending = services.season_register(season=season, user=users[0])
    assert pending.status == RegistrationStatus.PENDING
    with pytest.raises(PermissionDenied):
        services.registration_decide(
            registration_id=pending.pk, by=users[1], approve=True
        )
    services.registration_decide(registration_id=pending.pk, by=organiser, approve=True)
    pending.refresh_from_db()
    assert pending.status == RegistrationStatus.APPROVED
    with pytest.raises(Conflict):
        services.registration_decide(
            registration_id=pending.pk, by=organiser, approve=False
        )
    services.league_invite(league=league, by=organiser, username=users[1].username)
    invited = services.season_register(season=season, user=users[1])
    assert invited.status == RegistrationStatus.APPROVED
    with pytest.raises(PermissionDenied):
        services.league_invite(league=league, by=users[2], username=users[3].username)
    with pytest.raises(Conflict):
        services.league_invite(league=league, by=organiser, username=users[1].username)


def test_invitation_approves_a_pending_registration(users) -> None:
    organiser = users[9]
    league = LeagueFactory(invite_only=True)
    league.organisers.add(organiser)
    season = SeasonFactory(league=league)
    reg = services.season_register(season=season, user=users[0])
    services.league_invite(league=league, by=organiser, username=users[0].username)
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.APPROVED


@pytest.mark.parametrize("carry", [True, False])
def test_rollover_carries_or_resets_ratings(users, carry: bool) -> None:
    organiser = users[9]
    league = LeagueFactory(carry_ratings_over=carry)
    league.organisers.add(organiser)
    season = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    context = f"league:{league.pk}:season:{season.pk}"
    for _ in range(3):
        match = finished_match(users[:2], [1, 2], rated=False, context=context)
        rating_apply_match(match_id=match.pk)
    old_pool = pool_for_season(season=season)
    winner_rating = Rating.objects.get(pool=old_pool, participant__user=users[0]).rating
    assert winner_rating > 1500
    with pytest.raises(PermissionDenied):
        services.season_rollover(league=league, by=users[1], **_dates())
    new = services.season_rollover(league=league, by=organiser, **_dates())
    season.refresh_from_db()
    assert season.status == SeasonStatus.FINISHED
    assert new.number == season.number + 1
    new_pool = RatingPool.objects.get(season=new)
    assert (new_pool.seeded_from_id == old_pool.pk) is carry
    assert RatingSeed.objects.filter(pool=new_pool).count() == (2 if carry else 0)
    match = finished_match(
        users[:2], [2, 1], rated=False, context=f"league:{league.pk}:season:{new.pk}"
    )
    rating_apply_match(match_id=match.pk)
    event = new_pool.events.get(participant__user=users[0])
    assert event.rating_before == (winner_rating if carry else 1500.0)


def test_season_create_checks_dates_and_permission(users) -> None:
    league = LeagueFactory()
    league.organisers.add(users[9])
    bad = _dates()
    bad["ends_at"] = bad["starts_at"] - timedelta(days=1)
    with pytest.raises(Invalid):
        services.season_create(league=league, by=users[9], **bad)
    with pytest.raises(PermissionDenied):
        services.season_create(league=league, by=users[0], **_dates())
    season = services.season_create(league=league, by=users[9], **_dates())
    assert season.number == 1 and season.status == SeasonStatus.OPEN


def test_season_statuses_follow_dates(users) -> None:
    now = timezone.now()
    season = SeasonFactory(
        status=SeasonStatus.OPEN,
        registration_opens_at=now - timedelta(days=3),
        registration_closes_at=now - timedelta(days=2),
        starts_at=now - timedelta(days=2),
        ends_at=now + timedelta(days=2),
    )
    assert services.season_update_statuses(now=now) == 1
    season.refresh_from_db()
    assert season.status == SeasonStatus.RUNNING
    services.season_update_statuses(now=now + timedelta(days=3))
    season.refresh_from_db()
    assert season.status == SeasonStatus.FINISHED


def test_league_match_feeds_league_and_season_pools(
    users, django_capture_on_commit_callbacks
) -> None:
    from tests.league.conftest import play_out

    season = SeasonFactory(status=SeasonStatus.RUNNING)
    regs = [services.season_register(season=season, user=u) for u in users[:2]]
    with pytest.raises(PermissionDenied):
        services.league_match_create(
            season=season, by=users[5], participant_ids=[r.participant_id for r in regs]
        )
    with pytest.raises(PermissionDenied):
        services.league_match_create(
            season=season, by=users[0], participant_ids=[r.participant_id for r in regs]
        )
    with django_capture_on_commit_callbacks(execute=True):
        match = services.league_match_create(
            season=season, by=None, participant_ids=[r.participant_id for r in regs]
        )
        play_out(match)
    scopes = sorted(match.rating_events.values_list("pool__scope", flat=True))
    assert scopes == ["league", "league", "season", "season"]
    outsider = UserFactory()
    with pytest.raises(Invalid, match="registered"):
        services.league_match_create(
            season=season,
            by=None,
            participant_ids=[
                regs[0].participant_id,
                services.participant_for_user(outsider).pk,
            ],
        )
