"""Duplicate events through the services: a small event scored by hand, the
seeds and games sealed until the round is over (API, pages), chat off, and
par played by the bots' tasks."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from community.errors import ChatRefused
from community.services import chat_post, lobby_chat_post
from gameplay import enqueue, frames, selectors
from gameplay import services as gameplay_services
from gameplay.models import Match, MatchStatus
from league.duplicate import selectors as ds
from league.duplicate import services as dsvc
from league.duplicate.models import DuplicateGame, EventStatus, RoundStatus
from league.errors import Conflict, Invalid, PermissionDenied
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
GAME = "kungfu2013"  # two players: the cheapest deal


@pytest.fixture
def people(db):
    return [UserFactory(username=name) for name in ("ann", "bob", "cat", "dan")]


def _game(event, *, deal: int, table: int) -> DuplicateGame:
    return (
        DuplicateGame.objects.filter(round__event=event, deal=deal, table=table)
        .select_related("match")
        .latest("attempt")
    )


def _lose(capture, game: DuplicateGame, loser) -> None:
    """``loser`` (a user at a table, or a seat number at par) ends the game last."""
    with capture(execute=True):
        if isinstance(loser, int):
            gameplay_services.match_forfeit(
                match_id=game.match_id, seat_number=loser, reason="test"
            )
        else:
            gameplay_services.match_resign(match_id=game.match_id, user=loser)


def _started_event(people, capture, **options):
    organiser = UserFactory(username="boss")
    event = dsvc.duplicate_event_create(
        by=organiser, name="Duplicate night", game=GAME, deals=2, **options
    )
    for user in people:
        dsvc.duplicate_event_join(event=event, user=user)
    # Par's bots would play at once after the commit: here the test decides
    # par's results too, so the start's after-commit work is not run.
    with capture(execute=False):
        dsvc.duplicate_event_start(event=event, by=organiser)
    event.refresh_from_db()
    return organiser, event


def test_a_small_event_scored_by_hand(people, django_capture_on_commit_callbacks):
    ann, bob, cat, dan = people
    cap = django_capture_on_commit_callbacks
    _, event = _started_event(people, cap)
    rnd = event.round_set.get()
    # Tables in join order; seats rotated by (table - 1 + deal):
    # table 1 deal 1: ann, bob   table 1 deal 2: bob, ann
    # table 2 deal 1: dan, cat   table 2 deal 2: cat, dan
    assert rnd.tables == [[ann.pk, bob.pk], [cat.pk, dan.pk]]
    assert _game(event, deal=0, table=1).seat_users == [ann.pk, bob.pk]
    assert _game(event, deal=0, table=2).seat_users == [dan.pk, cat.pk]
    assert not DuplicateGame.objects.filter(round=rnd, deal=1, table__gt=0).exists()
    # Every table and par are dealt the same cards.
    seeds = {g.match.seed for g in rnd.games.select_related("match")}
    assert seeds == {int(rnd.seeds[0]), int(rnd.seeds[1])} and len(seeds) == 2
    first_deal = {g.match.seed for g in rnd.games.filter(deal=0)}
    assert first_deal == {int(rnd.seeds[0])}

    _lose(cap, _game(event, deal=0, table=1), bob)  # seat 1: ann 1st, bob 2nd
    _lose(cap, _game(event, deal=0, table=2), dan)  # seat 0 dan 2nd, seat 1 cat 1st
    _lose(cap, _game(event, deal=0, table=0), 1)  # par: seat 0 1st, seat 1 2nd
    # The tables moved on to deal 2 with the seats turned.
    assert _game(event, deal=1, table=1).seat_users == [bob.pk, ann.pk]
    assert _game(event, deal=1, table=2).seat_users == [cat.pk, dan.pk]
    _lose(cap, _game(event, deal=1, table=1), ann)  # seat 0 bob 1st, seat 1 ann 2nd
    _lose(cap, _game(event, deal=1, table=2), cat)  # seat 0 cat 2nd, seat 1 dan 1st
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PLAYING  # par has not played deal 2 yet
    _lose(cap, _game(event, deal=1, table=0), 0)  # par: seat 0 2nd, seat 1 1st

    rnd.refresh_from_db()
    event.refresh_from_db()
    assert rnd.status == RoundStatus.FINISHED
    assert event.status == EventStatus.FINISHED
    # By hand, one point per result beaten, a half per equal one, par included:
    # deal 1 seat 0: ann 1st, dan 2nd, par 1st -> ann 1 + 1/2 = 1.5, dan 0
    # deal 1 seat 1: bob 2nd, cat 1st, par 2nd -> bob 0 + 1/2 = 0.5, cat 2
    # deal 2 seat 0: bob 1st, cat 2nd, par 2nd -> bob 2, cat 0 + 1/2 = 0.5
    # deal 2 seat 1: ann 2nd, dan 1st, par 1st -> ann 0, dan 1 + 1/2 = 1.5
    # totals of 4: ann 1.5, bob 2.5, cat 2.5, dan 1.5
    rows = {r.player: r for r in ds.event_standings(event=event)}
    assert {u.username: rows[u.pk].matchpoints for u in people} == {
        "ann": 1.5,
        "bob": 2.5,
        "cat": 2.5,
        "dan": 1.5,
    }
    assert {rows[u.pk].top for u in people} == {4}
    # bob and cat share first (62.5%), ann and dan third (37.5%).
    assert [rows[u.pk].rank for u in people] == [3, 1, 1, 3]
    assert rows[bob.pk].percent == 62.5
    # Against par: ann level then below; bob level then above; cat above
    # then level; dan below then level.
    assert [
        (rows[u.pk].above_par, rows[u.pk].level_with_par, rows[u.pk].below_par)
        for u in people
    ] == [(0, 1, 1), (1, 1, 0), (1, 1, 0), (0, 1, 1)]

    # The results page and the API say the same, with par per deal and seat.
    data = APIClient().get(f"/api/duplicate/{event.slug}/").json()
    assert [(s["username"], s["matchpoints"]) for s in data["standings"]] == [
        ("bob", 2.5),
        ("cat", 2.5),
        ("ann", 1.5),
        ("dan", 1.5),
    ]
    first = data["round_list"][0]["results"][0]
    assert (first["deal"], first["seat"], first["par"]) == (1, 0, 1)
    assert [(e["username"], e["matchpoints"]) for e in first["entries"]] == [
        ("ann", 1.5),
        ("dan", 0.0),
    ]
    page = APIClient().get(reverse("duplicate:event", args=[event.slug]))
    assert page.status_code == 200
    assert "62.5" in page.content.decode()


def test_seeds_and_games_are_sealed_until_the_round_is_over(
    people, django_capture_on_commit_callbacks
):
    ann, bob, cat, dan = people
    cap = django_capture_on_commit_callbacks
    _, event = _started_event(people, cap)
    rnd = event.round_set.get()
    seeds = list(rnd.seeds)
    # Committed at the start: sha256("<slug>:<round>:<deal>:<seed>").
    assert rnd.commitments == [
        hashlib.sha256(f"{event.slug}:1:{d}:{s}".encode()).hexdigest()
        for d, s in enumerate(seeds)
    ]
    client = APIClient()
    body = client.get(f"/api/duplicate/{event.slug}/").content.decode()
    assert all(seed not in body for seed in seeds)
    assert '"seeds":null' in body.replace(" ", "")
    page = client.get(reverse("duplicate:event", args=[event.slug])).content.decode()
    assert rnd.commitments[0] in page and all(seed not in page for seed in seeds)

    # Table 1 finishes deal 1 while table 2 is still playing it.
    done = _game(event, deal=0, table=1)
    _lose(cap, done, bob)
    match = Match.objects.get(pk=done.match_id)
    assert match.status == MatchStatus.FINISHED
    # Its own players see the end, but no seed; nobody else sees anything.
    frame = frames.seat_frame(match=match, seat=0)
    assert frame["seed"] is None and frame["sealed"] is True
    watcher = APIClient()
    watcher.force_authenticate(cat)  # has not played deal 1 yet
    for url in (
        f"/api/matches/{match.public_id}/",
        f"/api/matches/{match.public_id}/replay/",
        f"/api/matches/{match.public_id}/record/",
    ):
        answer = watcher.get(url)
        assert answer.status_code == 403, url
        assert str(match.seed) not in answer.content.decode()
    for name in ("gameplay:match", "gameplay:replay", "gameplay:record"):
        answer = APIClient().get(reverse(name, args=[match.public_id]))
        assert answer.status_code == 403, name
        assert str(match.seed) not in answer.content.decode()
    mine = APIClient()
    mine.force_authenticate(ann)
    state = mine.get(f"/api/matches/{match.public_id}/").json()
    assert state["seat"] == 0 and state["seed"] is None
    # Lists tell no result of it either, and list no game of the round to watch.
    listed = watcher.get(f"/api/matches/?player={ann.username}").json()
    items = listed["results"] if isinstance(listed, dict) else listed
    row = next(m for m in items if m["id"] == str(match.public_id))
    assert [s["placement"] for s in row["seats"]] == [None, None]
    assert row["end_reason"] == ""
    assert match.pk not in [m.pk for m in selectors.recent_matches(game=GAME)]
    assert not selectors.live_matches(game=GAME).exists()
    # Par's games are sealed as well (their replay would show the deal).
    par = _game(event, deal=0, table=0)
    assert APIClient().get(f"/api/matches/{par.match.public_id}/").status_code == 403

    # The round ends: seeds, games and replays open to all.
    _lose(cap, _game(event, deal=0, table=2), dan)
    _lose(cap, _game(event, deal=0, table=0), 1)
    for table, loser in ((1, ann), (2, cat)):
        _lose(cap, _game(event, deal=1, table=table), loser)
    _lose(cap, _game(event, deal=1, table=0), 0)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.FINISHED
    body = client.get(f"/api/duplicate/{event.slug}/").json()
    assert body["round_list"][0]["seeds"] == seeds
    assert client.get(f"/api/matches/{match.public_id}/replay/").status_code == 200
    assert match.pk in [m.pk for m in selectors.recent_matches(game=GAME)]
    watch = client.get(reverse("gameplay:match", args=[match.public_id]))
    assert watch.status_code == 200
    assert frames.seat_frame(match=match, seat=0)["seed"] == seeds[0]
    page = client.get(reverse("duplicate:event", args=[event.slug])).content.decode()
    assert seeds[0] in page


def test_chat_is_off_for_the_rounds_players_and_tables(
    people, django_capture_on_commit_callbacks
):
    ann, bob, cat, dan = people
    cap = django_capture_on_commit_callbacks
    _, event = _started_event(people, cap)
    game = _game(event, deal=0, table=1)
    with pytest.raises(ChatRefused, match="chat is off"):
        chat_post(user=ann, match_id=game.match_id, channel="table", text="hi")
    _lose(cap, game, bob)
    # ann finished deal 1; cat has not: no lobby line, no line at a table.
    with pytest.raises(ChatRefused, match="chat is off"):
        lobby_chat_post(user=ann, game=GAME, text="deal 1 is a good one")
    with pytest.raises(ChatRefused, match="chat is off"):
        chat_post(user=ann, match_id=game.match_id, channel="table", text="gg")
    outsider = UserFactory(username="eve")
    with pytest.raises(ChatRefused, match="chat is off"):
        chat_post(
            user=outsider, match_id=game.match_id, channel="spectators", text="hm"
        )
    assert lobby_chat_post(user=outsider, game=GAME, text="hello").pk
    # Once the round is over, everyone talks again.
    _lose(cap, _game(event, deal=0, table=2), dan)
    _lose(cap, _game(event, deal=0, table=0), 1)
    for table, loser in ((1, ann), (2, cat)):
        _lose(cap, _game(event, deal=1, table=table), loser)
    _lose(cap, _game(event, deal=1, table=0), 0)
    assert lobby_chat_post(user=ann, game=GAME, text="well played all").pk
    assert chat_post(user=ann, match_id=game.match_id, channel="table", text="gg").pk


def test_par_is_played_by_the_bots_task_and_a_bot_fills_an_odd_table(
    people, django_capture_on_commit_callbacks
):
    organiser = UserFactory(username="boss")
    event = dsvc.duplicate_event_create(
        by=organiser, name="Odd night", game=GAME, deals=1, par_bot="random"
    )  # the fastest built-in bot: the test is about who plays par, not how well
    for user in people[:3]:
        dsvc.duplicate_event_join(event=event, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        dsvc.duplicate_event_start(event=event, by=organiser)
    rnd = event.round_set.get()
    # Three players at tables of two: the last table's second seat is a bot.
    assert rnd.tables == [[people[0].pk, people[1].pk], [people[2].pk, None]]
    # Table 2 seats (table - 1 + deal) = 1 turn: the bot first, cat second.
    assert _game(event, deal=0, table=2).seat_users == [None, people[2].pk]
    par = _game(event, deal=0, table=0)
    par.match.refresh_from_db()
    # The eager Celery task of the built-in bots played par to its end.
    assert par.match.status == MatchStatus.FINISHED
    assert par.match.seed == int(rnd.seeds[0])
    assert all(s.agent == "builtin:random" for s in par.match.seats.all())
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PLAYING


def test_bad_input_is_refused_and_changes_nothing(people) -> None:
    boss = UserFactory(username="boss")
    cases: tuple[tuple[dict[str, Any], str], ...] = (
        ({"name": ""}, "needs a name"),
        ({"game": "chess"}, "no playable game"),
        ({"table_size": 3}, "seats 2 to 2"),
        ({"deals": 9}, "1 to 8 deals"),
        ({"rounds": 0}, "1 to 10 rounds"),
        ({"par_bot": "deep_blue"}, "par is played by"),
        ({"per_move": 5}, "10 to 600"),
    )
    for kwargs, message in cases:
        args: dict[str, Any] = {"by": boss, "name": "Night", "game": GAME, **kwargs}
        with pytest.raises(Invalid, match=message):
            dsvc.duplicate_event_create(**args)
    event = dsvc.duplicate_event_create(by=boss, name="Night", game=GAME)
    assert (event.deals, event.table_size) == (2, 2)
    dsvc.duplicate_event_join(event=event, user=people[0])
    with pytest.raises(Conflict, match="already"):
        dsvc.duplicate_event_join(event=event, user=people[0])
    with pytest.raises(Conflict, match="at least two"):
        dsvc.duplicate_event_start(event=event, by=boss)
    dsvc.duplicate_event_join(event=event, user=people[1])
    with pytest.raises(PermissionDenied):
        dsvc.duplicate_event_start(event=event, by=people[0])
    assert event.round_set.count() == 0 and Match.objects.count() == 0
    client = APIClient()
    assert client.post("/api/duplicate/", {"name": "x"}).status_code in (401, 403)
    client.force_authenticate(boss)
    answer = client.post("/api/duplicate/", {"name": "x", "game": GAME, "deals": 0})
    assert answer.status_code == 400
    answer = client.post(
        "/api/duplicate/", {"name": "API night", "game": GAME}, format="json"
    )
    assert answer.status_code == 201 and answer.json()["deals"] == 2
    other = APIClient()
    other.force_authenticate(people[2])
    slug = answer.json()["slug"]
    assert other.post(f"/api/duplicate/{slug}/entry/").status_code == 201
    assert other.post(f"/api/duplicate/{slug}/entry/").status_code == 409
    assert other.post(f"/api/duplicate/{slug}/start/").status_code == 403


def test_round_two_is_seated_by_the_standings_and_ends_the_event(
    people, django_capture_on_commit_callbacks, monkeypatch
):
    ann, bob, cat, dan = people
    cap = django_capture_on_commit_callbacks
    # Round 2 starts inside round 1's last finish: keep par's bots from
    # moving there, so the test decides par's results by hand.
    monkeypatch.setattr(enqueue, "schedule_bot_turns", lambda **kwargs: None)
    organiser = UserFactory(username="boss")
    event = dsvc.duplicate_event_create(
        by=organiser, name="Two rounds", game=GAME, deals=1, rounds=2
    )
    for user in people:
        dsvc.duplicate_event_join(event=event, user=user)
    with cap(execute=False):
        dsvc.duplicate_event_start(event=event, by=organiser)
    # Round 1, one deal: table 1 ann (seat 0) v bob, table 2 dan (seat 0) v cat.
    _lose(cap, _game(event, deal=0, table=1), ann)  # seat 1 bob beats ann
    _lose(cap, _game(event, deal=0, table=2), cat)  # seat 0 dan beats cat
    _lose(cap, _game(event, deal=0, table=0), 0)  # par: seat 1 wins
    event.refresh_from_db()
    assert event.current_round == 2 and event.status == EventStatus.RUNNING
    # Seat 0: dan 1st, ann 2nd, par 2nd -> dan 2, ann 1/2.
    # Seat 1: bob 1st, cat 2nd, par 1st -> bob 1/2 + 1 = 1.5, cat 0.
    # Standings: dan 2, bob 1.5, ann 0.5, cat 0 -> tables [dan, bob], [ann, cat].
    second = event.round_set.get(number=2)
    assert second.tables == [[dan.pk, bob.pk], [ann.pk, cat.pk]]
    assert second.seeds != event.round_set.get(number=1).seeds
    # Round 1's games are open now, round 2's sealed.
    round_one = _game(event, deal=0, table=1).match
    assert not ds.game_is_sealed(round_one)
    round_two = DuplicateGame.objects.get(round=second, table=1).match
    assert ds.game_is_sealed(round_two)
    # Seats turned by (table - 1): table 1 dan (seat 0) v bob, table 2 cat
    # (seat 0) v ann.
    assert DuplicateGame.objects.get(round=second, table=2).seat_users == [
        cat.pk,
        ann.pk,
    ]
    _lose(cap, DuplicateGame.objects.get(round=second, table=1), bob)
    _lose(cap, DuplicateGame.objects.get(round=second, table=2), cat)
    _lose(cap, DuplicateGame.objects.get(round=second, table=0), 1)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    totals = {r.player: r.matchpoints for r in ds.event_standings(event=event)}
    # Round 2 seat 0: dan 1st, cat 2nd, par 1st -> dan 1 + 1/2 = 1.5, cat 0.
    # Seat 1: ann 1st, bob 2nd, par 2nd -> ann 2, bob 1/2.
    # Totals: dan 2 + 1.5 = 3.5, ann 0.5 + 2 = 2.5, bob 1.5 + 0.5 = 2, cat 0.
    assert totals == {dan.pk: 3.5, ann.pk: 2.5, bob.pk: 2.0, cat.pk: 0.0}


def test_a_game_called_off_is_dealt_again_by_the_sweep(
    people, django_capture_on_commit_callbacks
):
    ann, bob, *_ = people
    cap = django_capture_on_commit_callbacks
    organiser = UserFactory(username="boss")
    event = dsvc.duplicate_event_create(by=organiser, name="Aborts", game=GAME, deals=1)
    for user in (ann, bob):
        dsvc.duplicate_event_join(event=event, user=user)
    with cap(execute=False):
        dsvc.duplicate_event_start(event=event, by=organiser)
    first = _game(event, deal=0, table=1)
    # A seated player may call a game off before the first move; that
    # announces nothing, so beat's sweep finds it and deals it again.
    gameplay_services.match_abort(match_id=first.match_id, user=ann)
    with cap(execute=False):
        assert dsvc.duplicate_rounds_sweep() == 1
    again = _game(event, deal=0, table=1)
    assert again.attempt == 2 and again.match_id != first.match_id
    assert again.match.seed == first.match.seed  # the same deal
    with cap(execute=False):
        dsvc.duplicate_rounds_sweep()  # idempotent: nothing more to deal
    assert DuplicateGame.objects.filter(round__event=event, table=1).count() == 2
    # After the last attempt the deal is skipped at that table.
    for _ in range(dsvc.MAX_ATTEMPTS - 1):
        latest = _game(event, deal=0, table=1)
        gameplay_services.match_abort(match_id=latest.match_id, user=bob)
        with cap(execute=False):
            dsvc.duplicate_rounds_sweep()
    assert _game(event, deal=0, table=1).attempt == dsvc.MAX_ATTEMPTS
    _lose(cap, _game(event, deal=0, table=0), 0)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    rows = ds.event_standings(event=event)
    assert [(r.deals, r.top) for r in rows] == [(0, 0), (0, 0)]


def test_the_form_refuses_bad_input_on_the_page(people) -> None:
    from django.test import Client

    client = Client()
    client.force_login(people[0])
    answer = client.post(
        reverse("duplicate:list"), {"name": "", "game": GAME, "rounds": 1}
    )
    assert answer.status_code == 400
    answer = client.post(
        reverse("duplicate:list"),
        {
            "name": "Big",
            "game": GAME,
            "rounds": 1,
            "table_size": 4,
            "par_bot": "random",
        },
    )
    assert answer.status_code == 200  # the service's refusal, shown as a message
    assert "seats 2 to 2" in answer.content.decode()
    assert not client.get("/api/duplicate/").json()


def test_a_multiplayer_game_seats_its_tables_and_par_at_the_events_size(
    people, django_capture_on_commit_callbacks
):
    boss = UserFactory(username="boss")
    event = dsvc.duplicate_event_create(by=boss, name="Duelo night", game="duelo")
    assert (event.table_size, event.deals) == (4, 4)  # the game's usual table
    for user in people[:3]:
        dsvc.duplicate_event_join(event=event, user=user)
    with django_capture_on_commit_callbacks(execute=False):
        dsvc.duplicate_event_start(event=event, by=boss)
    rnd = event.round_set.get()
    assert rnd.tables == [[u.pk for u in people[:3]] + [None]]
    table = _game(event, deal=0, table=1)
    # Deal 1 at table 1 is not turned; the bot keeps the fourth seat.
    assert table.seat_users == [u.pk for u in people[:3]] + [None]
    assert [s.agent for s in table.match.seats.order_by("number")][3] == (
        "builtin:heuristic"
    )
    pars = DuplicateGame.objects.filter(round=rnd, table=0)
    assert pars.count() == 4  # one par game per deal, each dealt its own seed
    assert sorted(g.match.seed for g in pars) == sorted(int(s) for s in rnd.seeds)
    assert all(g.match.seats.count() == 4 for g in pars)
    # A real-time game keeps its own time limit: no per-move clock.
    realtime = dsvc.duplicate_event_create(by=boss, name="Rt", game="kungfu2009")
    assert realtime.per_move is None


def test_the_organiser_ends_a_round_early(people, django_capture_on_commit_callbacks):
    from django.test import Client

    ann, bob, cat, _ = people
    cap = django_capture_on_commit_callbacks
    boss, event = _started_event(people, cap)  # two deals, par not played
    _lose(cap, _game(event, deal=0, table=1), bob)  # ann beats bob; table 2 idles
    client = APIClient()
    client.force_authenticate(ann)
    assert client.post(f"/api/duplicate/{event.slug}/close-round/").status_code == 403
    client.force_authenticate(boss)
    # The organiser's page offers the button, and it works.
    browser = Client()
    browser.force_login(boss)
    page = browser.get(reverse("duplicate:event", args=[event.slug])).content
    assert b"End this round now" in page
    with cap(execute=True):
        answer = browser.post(
            reverse("duplicate:action", args=[event.slug, "close-round"]),
            follow=True,
        )
    assert answer.status_code == 200 and b"Round 1 ended." in answer.content
    rnd = event.round_set.get()
    assert rnd.status == RoundStatus.FINISHED and rnd.closed_early
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    # Every game left was called off; no deal was dealt after the end.
    statuses = {
        (g.deal, g.table): g.match.status for g in rnd.games.select_related("match")
    }
    assert statuses[(0, 1)] == MatchStatus.FINISHED
    assert statuses[(1, 1)] == MatchStatus.ABORTED
    assert statuses[(0, 2)] == MatchStatus.ABORTED
    assert (1, 2) not in statuses
    # Only deal 1 at table 1 counts, without par (called off): ann 0 of 0.
    rows = {r.player: r for r in ds.event_standings(event=event)}
    assert (rows[ann.pk].deals, rows[ann.pk].top) == (1, 0)
    assert rows[cat.pk].deals == 0
    assert client.post(f"/api/duplicate/{event.slug}/close-round/").status_code == 409
