"""Bot pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from gameplay.catalog import game_catalog


def bot_list(request: HttpRequest) -> HttpResponse:
    return render(request, "bots/bot_list.html", {"games": game_catalog()})
