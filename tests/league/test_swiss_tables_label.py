"""The multiplayer Swiss format is labelled with the game's own table sizes
(``GameMeta.tables``): Kung Fu (2009) seats 4-8, not the generic 3-5."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay.rules import available_games, game_meta, get_game
from league.models import Tournament, TournamentFormat, swiss_tables_label
from tests.factories import LeagueFactory


def test_the_label_is_the_games_table_sizes() -> None:
    assert swiss_tables_label("kungfu2009") == "Swiss, tables of 4-8"
    assert swiss_tables_label("kungfu2019") == "Swiss, tables of 3-5"
    # Two players only: no multiplayer tables to claim.
    assert swiss_tables_label("kungfu2013") == str(TournamentFormat.SWISS_TABLES.label)
    assert swiss_tables_label("kungfu2013", generic=False) == ""
    assert "3-5" not in TournamentFormat.SWISS_TABLES.label
    t = Tournament(game="kungfu2009", format=TournamentFormat.SWISS_TABLES)
    assert t.format_label == "Swiss, tables of 4-8"
    assert Tournament(game="kungfu2009", format="swiss").format_label == "Swiss"


def test_the_organisers_form_offers_the_games_sizes(client, users) -> None:
    kungfu = LeagueFactory(game="kungfu2009")
    duel = LeagueFactory(game="kungfu2013")
    for league in (kungfu, duel):
        league.organisers.add(users[9])
    client.force_login(users[9])
    page = client.get(reverse("league:detail", args=[kungfu.slug])).content.decode()
    assert '<option value="swiss_tables">Swiss, tables of 4-8</option>' in page
    assert "3-5" not in page
    page = client.get(reverse("league:detail", args=[duel.slug])).content.decode()
    assert 'value="swiss_tables"' not in page


@pytest.mark.parametrize("game", available_games())
def test_each_games_tables_fit_its_player_range(game) -> None:
    """Table sizes are the game's own fact (its ``META``): smallest <= preferred
    <= largest, at least three, within what the engine seats; a game that
    seats only two has none."""
    engine, sizes = get_game(game), game_meta(game).tables
    if engine.max_players < 3:
        assert sizes is None
        return
    assert sizes is not None, f"{game} seats 3+ but states no Swiss tables"
    low, high, preferred = sizes
    assert 3 <= low <= preferred <= high
    assert engine.min_players <= low and high <= engine.max_players
