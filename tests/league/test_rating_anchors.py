"""Built-in bots are fixed anchors of each game's global ladder (and only there)."""

from __future__ import annotations

import random

import pytest

from gameplay.rules import available_games, game_meta
from league.models import Participant, Rating, RatingEvent
from league.participants import participant_for_builtin, participant_for_user
from league.ratings import elo
from league.ratings.services import (
    pool_for_league,
    pool_global,
    rating_apply_match,
    rating_recompute_pool,
)
from tests.factories import LeagueFactory, UserFactory, finished_match

pytestmark = pytest.mark.django_db


def test_rate_match_holds_fixed_participants() -> None:
    states = {"a": elo.PlayerState(1500.0, 40), "r": elo.PlayerState(1250.0, 40)}
    free = elo.rate_match({"a": 1, "r": 2}, states)
    held = elo.rate_match({"a": 1, "r": 2}, states, fixed={"r"})
    assert held["r"].rating_after == 1250.0 and held["r"].delta == 0.0
    assert held["r"].games_after == 41
    assert held["a"].rating_after == free["a"].rating_after, "others rated as usual"


def test_replay_with_anchors_equals_match_by_match() -> None:
    rng = random.Random(4)
    anchors = {"r": 1250.0, "h": 1500.0}
    players = ["a", "b", "c", "r", "h"]
    matches = []
    for _ in range(60):
        a, b = rng.sample(players, 2)
        matches.append({a: 1, b: 2} if rng.random() < 0.5 else {a: 2, b: 1})
    states: dict = {p: elo.initial_state() for p in players}
    for p, rating in anchors.items():
        states[p] = elo.PlayerState(rating, 0, False)
    for m in matches:
        states = elo.apply_changes(
            states, elo.rate_match(m, states, fixed=set(anchors))
        )
    replay = elo.replay_pool(matches, fixed=anchors)
    assert replay.states["r"].rating == 1250.0 and replay.states["h"].rating == 1500.0
    for p in players:
        assert replay.states[p].rating == states[p].rating
        assert replay.states[p].games == states[p].games


def test_builtin_bots_keep_their_rating_in_the_global_pool() -> None:
    people = [UserFactory() for _ in range(3)]
    for i in range(12):
        who = people[i % 3]
        placements = [1, 2] if i % 4 else [2, 1]
        rating_apply_match(
            match_id=finished_match([who, "builtin:random"], placements).pk
        )
        rating_apply_match(
            match_id=finished_match([who, "builtin:heuristic"], placements[::-1]).pk
        )
    pool = pool_global(game="duelo")
    for name in ("random", "heuristic"):
        row = Rating.objects.get(pool=pool, participant=participant_for_builtin(name))
        assert row.rating == game_meta("duelo").anchors[name] and row.games == 12
    # The people moved, against the anchors' fixed numbers.
    assert {
        Rating.objects.get(pool=pool, participant=participant_for_user(u)).rating
        for u in people
    } != {1500.0}
    before = list(
        RatingEvent.objects.filter(pool=pool)
        .order_by("seq", "participant_id")
        .values_list("rating_before", "rating_after")
    )
    assert rating_recompute_pool(pool_id=pool.pk).events_changed == 0
    RatingEvent.objects.filter(pool=pool).update(rating_before=0, rating_after=0)
    rating_recompute_pool(pool_id=pool.pk)
    after = list(
        RatingEvent.objects.filter(pool=pool)
        .order_by("seq", "participant_id")
        .values_list("rating_before", "rating_after")
    )
    assert after == before, "a full recompute equals the incremental history"


def test_anchoring_can_be_switched_off_and_skips_people_only_pools(settings) -> None:
    settings.RATING_ANCHORS = {}
    person = UserFactory()
    rating_apply_match(match_id=finished_match([person, "builtin:random"], [1, 2]).pk)
    random_bot = Participant.objects.get(key="builtin:random")
    pool = pool_global(game="duelo")
    assert Rating.objects.get(pool=pool, participant=random_bot).rating < 1500.0
    settings.RATING_ANCHORS = None
    league = LeagueFactory(participants="humans")
    humans_pool = pool_for_league(league=league)
    from league.ratings.anchors import anchors_among, pool_anchors

    assert anchors_among(humans_pool, [random_bot]) == {}
    assert pool_anchors(humans_pool) == {}
    assert pool_anchors(pool) == {random_bot.pk: 1250.0}


def test_each_game_has_its_own_anchors(settings) -> None:
    """Anchors are the game's (its ``META``), not Duelo's figures everywhere;
    the setting replaces them per game."""
    from league.ratings.anchors import anchor_ratings

    settings.RATING_ANCHORS = None
    tables = {game: anchor_ratings(game) for game in available_games()}
    for game, table in tables.items():
        assert table == game_meta(game).anchors
        assert table["heuristic"] == 1500.0, "the heuristic bot sits at the start"
        assert table["random"] < table["heuristic"] < table.get("ismcts", 1e9)
    assert tables["kungfu2013"] != tables["duelo"]
    assert "ismcts" not in tables["kungfu2009"], "ISMCTS sits out real time"
    settings.RATING_ANCHORS = {"duelo": {"random": 1000}}
    assert anchor_ratings("duelo") == {"random": 1000.0}
    assert anchor_ratings("kungfu2013") == {}


def test_a_games_pool_is_anchored_at_that_games_figures() -> None:
    person = UserFactory()
    rating_apply_match(
        match_id=finished_match(
            [person, "builtin:random"], [1, 2], game="kungfu2013"
        ).pk
    )
    pool = pool_global(game="kungfu2013")
    random_bot = Participant.objects.get(key="builtin:random")
    row = Rating.objects.get(pool=pool, participant=random_bot)
    assert row.rating == game_meta("kungfu2013").anchors["random"] != 1250.0


def test_a_builtin_bot_entered_in_a_league_is_rated_like_anyone() -> None:
    """Issue 26: a heuristic bot that won 9 of 9 in a league stayed at 1500.
    League and season pools are competitions among their entrants: nothing is
    held fixed there, while the global ladder keeps its anchors."""
    league = LeagueFactory(participants="mixed")
    people = [UserFactory() for _ in range(3)]
    for i in range(9):
        rating_apply_match(
            match_id=finished_match(
                ["builtin:heuristic", people[i % 3]],
                [1, 2],
                context=f"league:{league.pk}",
                rated=True,
            ).pk
        )
    heuristic = participant_for_builtin("heuristic")
    in_league = Rating.objects.get(
        pool=pool_for_league(league=league), participant=heuristic
    )
    assert in_league.games == 9 and in_league.rating > 1500.0 + 9 * 10
    in_ladder = Rating.objects.get(
        pool=pool_global(game="duelo"), participant=heuristic
    )
    assert in_ladder.rating == 1500.0 and in_ladder.games == 9
    from league.ratings.anchors import pool_anchors

    assert pool_anchors(pool_for_league(league=league)) == {}
    # The recompute agrees with the incremental history.
    pool = pool_for_league(league=league)
    assert rating_recompute_pool(pool_id=pool.pk).events_changed == 0


def test_rankings_rows_badge_the_anchors_and_link_the_people(client) -> None:
    """The rankings page marks the anchor with the "bot" and "fixed" badges
    (the title explaining it) and links a person to their profile, from the
    row's link and anchor the selector works out once per page."""
    from django.urls import reverse

    from league.ratings.selectors import ranking_page

    person = UserFactory(username="rowlinked")
    rating_apply_match(match_id=finished_match([person, "builtin:random"], [1, 2]).pk)
    pool = pool_global(game="duelo")
    _, rows = ranking_page(pool=pool)
    by_key = {row.participant.key: row for row in rows}
    assert by_key["builtin:random"].anchor == game_meta("duelo").anchors["random"]
    assert by_key["builtin:random"].url == ""
    profile = reverse("accounts:profile", args=["rowlinked"])
    assert by_key[f"user:{person.pk}"].url == profile
    assert by_key[f"user:{person.pk}"].anchor is None
    body = client.get(reverse("league:rankings"), {"pool": pool.pk}).content.decode()
    assert f'<a href="{profile}">' in body
    # The legend's badge and the anchor's row, which carries the explanation.
    assert body.count(">fixed</span>") == 2
    assert '<span class="badge" title="A built-in bot holds a fixed' in body
