"""The home page: what the arena is and where to go next."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from gameplay import turns
from gameplay.catalog import game_catalog
from languages.text import and_list
from league.selectors import league_list


def home(request: HttpRequest) -> HttpResponse:
    games = game_catalog()
    return render(
        request,
        "home.html",
        {
            "games": games,
            "game_names": and_list([game.name for game in games]),
            "leagues": league_list()[:6],
            "your_games": turns.player_games(user=request.user),
        },
    )
