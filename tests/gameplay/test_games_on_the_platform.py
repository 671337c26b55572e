"""What the platform gives every game alike, from its package alone: the
catalogue entry (its metadata and public table options), challenges that carry
its table options to the match, and quick play."""

from __future__ import annotations

import pytest

from gameplay import lobby
from gameplay.catalog import game_catalog, table_options

pytestmark = pytest.mark.django_db

GAMES = [
    pytest.param(
        "kungfu2013", "Kung Fu (2013)", "White Goblin", (2, 2), {"life": 5},
        id="kungfu2013",
    ),
    pytest.param(
        "kungfu2019", "Kung Fu (2019)", "Good Game", (2, 5), {"draft": False},
        id="kungfu2019",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("game", "name", "publisher", "sizes", "options"), GAMES)
def test_catalogue_lists_the_game_with_its_package_metadata(
    game, name, publisher, sizes, options
) -> None:
    info = {g.id: g for g in game_catalog()}[game]
    assert info.name == name and info.publisher.startswith(publisher)
    assert (info.min_players, info.max_players) == sizes
    assert [o.key for o in table_options(game)] == list(options)


@pytest.mark.parametrize(("game", "name", "publisher", "sizes", "options"), GAMES)
def test_a_challenge_carries_the_options_and_quick_play_pairs(
    players, game, name, publisher, sizes, options
) -> None:
    challenge = lobby.challenge_create(
        challenger=players[0], challenged=players[1], game=game, options=options
    )
    match = lobby.challenge_accept(challenge_id=challenge.pk, user=players[1])
    assert match.game == game and match.config["players"] == 2
    assert {key: match.config[key] for key in options} == options
    assert lobby.queue_join(user=players[2], game=game) is None
    quick = lobby.queue_join(user=players[3], game=game)
    assert quick is not None and quick.game == game
