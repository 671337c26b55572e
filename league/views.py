"""League pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from gameplay.catalog import game_catalog
from league import selectors


def league_list(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game") or None
    return render(
        request,
        "league/league_list.html",
        {
            "leagues": selectors.league_list(game=game),
            "games": game_catalog(),
            "selected_game": game,
        },
    )


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = selectors.league_by_slug(slug=slug)
    return render(
        request,
        "league/league_detail.html",
        {"league": league, "seasons": league.seasons.all()},
    )


def rankings(request: HttpRequest) -> HttpResponse:
    return render(request, "league/rankings.html", {"games": game_catalog()})
