"""League reads."""

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from league.models import League


def league_list(*, game: str | None = None) -> QuerySet[League]:
    leagues = League.objects.all()
    if game:
        leagues = leagues.filter(game=game)
    return leagues


def league_by_slug(*, slug: str) -> League:
    return get_object_or_404(League, slug=slug)
