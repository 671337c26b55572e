"""factory_boy factories shared by the whole suite.

Each is exported typed by its model (``Made``): calling ``UserFactory()`` gives
a ``User`` to mypy too (factory_boy's classes give their own type when called).
"""

from datetime import timedelta
from typing import Any, Protocol, TypeVar, cast

import factory
from django.utils import timezone

from accounts.models import User
from bots.models import Bot, BotVersion
from league.models import League, Season

M = TypeVar("M", covariant=True)


class Made(Protocol[M]):
    """A factory as the suite uses it: called, it saves and returns a row."""

    def __call__(self, **kwargs: Any) -> M: ...


def _typed(made: type, model: type[M]) -> Made[M]:
    assert made._meta.model is model  # type: ignore[attr-defined]
    return cast(Made[M], made)


class _UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    display_name = factory.LazyAttribute(lambda u: u.username.title())
    password = factory.PostGenerationMethodCall("set_password", "correct-horse-42")

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


# --- league ---------------------------------------------------------------------


class _LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League
        skip_postgeneration_save = True

    slug = factory.Sequence(lambda n: f"league-{n}")
    name = factory.Sequence(lambda n: f"League {n}")
    game = "duelo"
    participants = "mixed"


class _SeasonFactory(factory.django.DjangoModelFactory):
    """A season whose registration window is open now."""

    class Meta:
        model = Season

    league = factory.SubFactory(_LeagueFactory)
    number = factory.Sequence(lambda n: n + 1)
    status = "open"
    registration_opens_at = factory.LazyFunction(
        lambda: timezone.now() - timedelta(days=1)
    )
    registration_closes_at = factory.LazyAttribute(
        lambda s: s.registration_opens_at + timedelta(days=10)
    )
    starts_at = factory.LazyAttribute(lambda s: s.registration_opens_at)
    ends_at = factory.LazyAttribute(lambda s: s.starts_at + timedelta(days=60))


def finished_match(
    seats,
    placements,
    *,
    game: str = "duelo",
    rated: bool = True,
    context: str = "",
):
    """A finished match written directly (no engine): for rating-service tests.

    ``seats`` holds users or agent strings ("builtin:random", "bot:7");
    ``placements`` the rank per seat, like ``Match.result["placements"]``.
    """
    from gameplay.models import Match, MatchStatus, Seat

    match = Match.objects.create(
        game=game,
        config={"players": len(seats)},
        rated=rated,
        status=MatchStatus.FINISHED,
        context=context,
        result={
            "placements": list(placements),
            "winners": [i for i, p in enumerate(placements) if p == 1],
            "forfeited": [],
        },
        finished_at=timezone.now(),
    )
    Seat.objects.bulk_create(
        Seat(
            match=match,
            number=i,
            user=None if isinstance(who, str) else who,
            agent=who if isinstance(who, str) else "",
            placement=placements[i],
        )
        for i, who in enumerate(seats)
    )
    return match


# --- bots (appended by the bots app) ----------------------------------------------


class _BotFactory(factory.django.DjangoModelFactory):
    """A bot row without code; use bots.services to store real versions."""

    class Meta:
        model = Bot

    owner = factory.SubFactory(_UserFactory)
    game = "duelo"
    name = factory.Sequence(lambda n: f"bot{n}")


class _BotVersionFactory(factory.django.DjangoModelFactory):
    """A version row only (no files): for pages, lists and ladder pairing."""

    class Meta:
        model = BotVersion

    bot = factory.SubFactory(_BotFactory)
    number = factory.Sequence(lambda n: n + 1)
    sha256 = "0" * 64
    filename = "main.py"
    upload_bytes = 100
    unpacked_bytes = 100
    file_count = 1


UserFactory = _typed(_UserFactory, User)
LeagueFactory = _typed(_LeagueFactory, League)
SeasonFactory = _typed(_SeasonFactory, Season)
BotFactory = _typed(_BotFactory, Bot)
BotVersionFactory = _typed(_BotVersionFactory, BotVersion)
