"""The demo data (``manage.py seed_demo``) takes its game from the registry."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gameplay.models import Match
from gameplay.rules import available_games, game_meta, get_game
from league.management.commands import seed_demo


def test_the_demo_game_is_the_first_registered_game_with_an_exhibition():
    game = seed_demo.demo_game()
    with_exhibition = [g for g in available_games() if game_meta(g).exhibition]
    assert game == with_exhibition[0]
    config = {**(game_meta(game).exhibition or {}), "players": 3}
    get_game(game).validate_config(config)  # the exhibition's table is valid


def test_the_demo_command_names_no_game():
    source = Path(seed_demo.__file__).read_text()
    named = [g for g in available_games() if re.search(rf"\b{g}\b", source, re.I)]
    assert named == []


@pytest.mark.django_db
def test_the_exhibition_is_a_bots_only_game_of_the_demo_game():
    out = io.StringIO()
    seed_demo.demo_exhibition(stdout=out)
    match = Match.objects.get(context=seed_demo.DEMO_EXHIBITION)
    game = seed_demo.demo_game()
    assert match.game == game and match.status == "active"
    for key, value in (game_meta(game).exhibition or {}).items():
        assert match.config[key] == value
    assert all(seat.is_bot for seat in match.seats.all())
    assert "live exhibition game started" in out.getvalue()
