"""Game pages."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from gameplay.catalog import game_catalog


def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "gameplay/game_list.html", {"games": game_catalog()})


def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    games = {info.id: info for info in game_catalog()}
    if game_id not in games:
        raise Http404("No such game.")
    return render(request, "gameplay/game_detail.html", {"game": games[game_id]})
