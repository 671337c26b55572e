"""League pages render with their key content; the API reads everything and
refuses bad or unauthorised writes with a clear error, changing nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import services
from league.models import Registration, RegistrationStatus, Tournament, TournamentStatus
from league.participants import participant_for_user
from league.ratings.services import rating_apply_match
from league.tournaments import services as ts
from tests.factories import LeagueFactory, SeasonFactory, UserFactory, finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def rated(users):
    for i in range(6):
        rating_apply_match(match_id=finished_match(users[:3], [1 + i % 3, 1, 3]).pk)
    return users


def test_rankings_page_lists_players_with_search_and_pages(client, rated) -> None:
    url = reverse("league:rankings")
    page = client.get(url, {"game": "duelo"})
    assert page.status_code == 200
    body = page.content.decode()
    for user in rated[:3]:
        assert user.public_name in body
    assert "provisional" in body
    found = client.get(url, {"game": "duelo", "q": rated[1].username}).content.decode()
    assert rated[1].public_name in found and rated[2].public_name not in found
    empty = client.get(url, {"game": "duelo", "q": "nobody-here"}).content.decode()
    assert "Nobody called" in empty
    assert client.get(url, {"page": "999"}).status_code == 200


def test_rankings_paginate(client, users) -> None:
    from league.ratings.selectors import ranking_page
    from league.ratings.services import pool_global

    many = [UserFactory() for _ in range(60)]
    for a, b in zip(many[::2], many[1::2], strict=True):
        rating_apply_match(match_id=finished_match([a, b], [1, 2]).pk)
    pool = pool_global(game="duelo")
    page, rows = ranking_page(pool=pool, page=2)
    assert page.paginator.num_pages == 2 and len(rows) == 10
    assert [r.rank for r in rows] == list(range(51, 61))
    _, top = ranking_page(pool=pool, page=1)
    assert top[0].rating >= top[-1].rating >= rows[0].rating
    body = client.get(reverse("league:rankings"), {"pool": pool.pk}).content.decode()
    assert "Page 1 of 2" in body


def test_profile_shows_rating_chart_and_head_to_head(client, rated) -> None:
    body = client.get(reverse("accounts:profile", args=[rated[0].username])).content
    body = body.decode()
    assert "Ratings" in body and "<svg" in body and "<polyline" in body
    assert "Head to head" in body and rated[1].public_name in body


def test_league_and_season_pages(client, users) -> None:
    season = SeasonFactory()
    league = season.league
    services.season_register(season=season, user=users[0])
    page = client.get(reverse("league:detail", args=[league.slug]))
    assert page.status_code == 200 and str(season) in page.content.decode()
    assert "Sign in to register" in page.content.decode()
    client.force_login(users[1])
    page = client.get(reverse("league:detail", args=[league.slug])).content.decode()
    assert "Register" in page
    standings = client.get(reverse("league:season", args=[league.slug, season.number]))
    assert standings.status_code == 200
    assert users[0].public_name in standings.content.decode()
    assert client.get(reverse("league:list")).status_code == 200


def test_register_and_withdraw_buttons_work(client, users) -> None:
    season = SeasonFactory()
    client.force_login(users[0])
    url = reverse("league:season_register", args=[season.league.slug, season.number])
    client.post(url)
    assert Registration.objects.get().status == RegistrationStatus.APPROVED
    again = client.post(url, follow=True)
    assert "already registered" in again.content.decode()
    assert Registration.objects.count() == 1
    client.post(
        reverse("league:season_withdraw", args=[season.league.slug, season.number])
    )
    assert Registration.objects.get().status == RegistrationStatus.WITHDRAWN


def test_organiser_tools_only_for_organisers(client, users) -> None:
    league = LeagueFactory(invite_only=True)
    league.organisers.add(users[9])
    client.force_login(users[0])
    page = client.get(reverse("league:detail", args=[league.slug])).content.decode()
    assert "Organiser tools" not in page
    response = client.post(
        reverse("league:invite", args=[league.slug]),
        {"username": users[1].username},
        follow=True,
    )
    assert "only this league&#x27;s organisers" in response.content.decode()
    client.force_login(users[9])
    page = client.get(reverse("league:detail", args=[league.slug])).content.decode()
    assert "Organiser tools" in page


def test_tournament_pages_render_bracket_and_tables(
    client, users, django_capture_on_commit_callbacks
) -> None:
    organiser = users[9]
    client.force_login(organiser)
    response = client.post(
        reverse("league:tournaments"),
        {
            "name": "Phone cup",
            "game": "duelo",
            "format": "double_elim",
            "participants": "mixed",
            "seeding": "rating",
            "round_hours": "24",
            "rated": "on",
        },
    )
    t = Tournament.objects.get(name="Phone cup")
    assert response.status_code == 302
    for u in users[:4]:
        ts.tournament_enter(tournament=t, user=u)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("league:tournament_action", args=[t.slug, "start"]))
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    body = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    for text in (
        "Winners bracket",
        "Losers bracket",
        "Grand final",
        "Grand final reset",
    ):
        assert text in body
    assert 'class="bracket"' in body and "Advance now" in body

    swiss = ts.tournament_create(
        by=organiser, name="Swiss page", game="duelo", format="swiss", swiss_rounds=2
    )
    for u in users[:4]:
        ts.tournament_enter(tournament=swiss, user=u)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=swiss, by=organiser)
    body = client.get(reverse("league:tournament", args=[swiss.slug])).content.decode()
    for text in ("Standings", "Buchholz Cut-1", "Sonneborn-Berger", "Round 1"):
        assert text in body
    assert client.get(reverse("league:tournaments")).status_code == 200


def test_bad_tournament_form_shows_the_error(client, users) -> None:
    client.force_login(users[0])
    response = client.post(
        reverse("league:tournaments"),
        {
            "name": "S",
            "game": "duelo",
            "format": "swiss",
            "participants": "mixed",
            "seeding": "rating",
            "round_hours": "24",
            "swiss_rounds": "25",
        },
    )
    assert response.status_code == 400
    assert "less than or equal to 20" in response.content.decode()
    assert not Tournament.objects.exists()


# --- API ---------------------------------------------------------------------------


def test_api_index_lists_league_endpoints(api) -> None:
    index = api.get("/api/").json()
    for label in ("leagues", "rankings", "rating pools", "tournaments"):
        assert label in index


def test_api_reads(api, rated) -> None:
    season = SeasonFactory()
    assert api.get("/api/leagues/").status_code == 200
    detail = api.get(f"/api/leagues/{season.league.slug}/").json()
    assert detail["seasons"][0]["id"] == season.pk
    rankings = api.get("/api/rankings/", {"game": "duelo"}).json()
    assert rankings["count"] == 3 and rankings["results"][0]["rank"] == 1
    assert api.get("/api/rankings/", {"pool": "999"}).status_code == 404
    assert len(api.get("/api/pools/").json()) == 1
    ratings = api.get(f"/api/players/{rated[0].username}/ratings/").json()
    assert len(ratings["ratings"][0]["history"]) == 6
    h2h = api.get(f"/api/players/{rated[0].username}/head-to-head/").json()
    assert {r["username"] for r in h2h["records"]} == {
        rated[1].username,
        rated[2].username,
    }
    standings = api.get(f"/api/seasons/{season.pk}/standings/").json()
    assert standings["standings"] == []


def test_api_registration_rules(api, users) -> None:
    season = SeasonFactory()
    url = f"/api/seasons/{season.pk}/registration/"
    assert api.post(url).status_code in (401, 403)
    api.force_authenticate(users[0])
    assert api.post(url, {}, format="json").status_code == 201
    twice = api.post(url, {}, format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "conflict"
    wrong = api.post(url, {"game": "kungfu2013"}, format="json")
    assert wrong.status_code == 400 and "runs duelo" in wrong.json()["detail"]
    assert Registration.objects.count() == 1
    assert api.delete(url, {}, format="json").status_code == 200
    assert api.delete(url, {}, format="json").status_code == 409


def test_api_organiser_actions_need_organisers(api, users) -> None:
    league = LeagueFactory(invite_only=True)
    league.organisers.add(users[9])
    season = SeasonFactory(league=league)
    api.force_authenticate(users[0])
    pending = api.post(f"/api/seasons/{season.pk}/registration/", {}, format="json")
    assert pending.json()["status"] == "pending"
    reg_id = pending.json()["id"]
    denied = api.post(
        f"/api/registrations/{reg_id}/decision/", {"approve": True}, format="json"
    )
    assert denied.status_code == 403 and denied.json()["code"] == "forbidden"
    invite = api.post(
        f"/api/leagues/{league.slug}/invitations/",
        {"username": users[1].username},
        format="json",
    )
    assert invite.status_code == 403
    dates = {
        "registration_opens_at": "2030-01-01T00:00Z",
        "registration_closes_at": "2030-01-05T00:00Z",
        "starts_at": "2030-01-06T00:00Z",
        "ends_at": "2030-02-01T00:00Z",
    }
    assert (
        api.post(
            f"/api/leagues/{league.slug}/seasons/", dates, format="json"
        ).status_code
        == 403
    )
    api.force_authenticate(users[9])
    ok = api.post(
        f"/api/registrations/{reg_id}/decision/", {"approve": True}, format="json"
    )
    assert ok.json()["status"] == "approved"
    rolled = api.post(f"/api/leagues/{league.slug}/seasons/", dates, format="json")
    assert rolled.status_code == 201 and rolled.json()["number"] == season.number + 1


def test_api_tournament_lifecycle_and_permissions(
    api, users, django_capture_on_commit_callbacks
) -> None:
    api.force_authenticate(users[9])
    created = api.post(
        "/api/tournaments/",
        {"name": "API cup", "game": "duelo", "format": "round_robin", "rated": False},
        format="json",
    )
    assert created.status_code == 201
    slug = created.json()["slug"]
    for u in users[:3]:
        api.force_authenticate(u)
        assert (
            api.post(f"/api/tournaments/{slug}/entry/", {}, format="json").status_code
            == 201
        )
    again = api.post(f"/api/tournaments/{slug}/entry/", {}, format="json")
    assert again.status_code == 409
    assert api.post(f"/api/tournaments/{slug}/start/").status_code == 403
    assert (
        api.post(
            f"/api/tournaments/{slug}/seed/", {"method": "rating"}, format="json"
        ).status_code
        == 403
    )
    api.force_authenticate(users[9])
    entrants = api.get(f"/api/tournaments/{slug}/").json()["entrants"]
    order = [e["id"] for e in reversed(entrants)]
    seeded = api.post(
        f"/api/tournaments/{slug}/seed/",
        {"method": "manual", "order": order},
        format="json",
    )
    assert [e["id"] for e in seeded.json()] == order
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"/api/tournaments/{slug}/start/").status_code == 200
    detail = api.get(f"/api/tournaments/{slug}/").json()
    assert detail["status"] == "running" and detail["standings"]
    playing = [p for p in detail["pairings"] if p["status"] == "playing"]
    assert playing and all(p["match"] for p in playing)
    assert api.post(f"/api/tournaments/{slug}/nonsense/").status_code == 404
    api.force_authenticate(users[0])
    void = api.post(f"/api/pairings/{playing[0]['id']}/void/", {}, format="json")
    assert void.status_code == 403
    api.force_authenticate(users[9])
    not_done = api.post(f"/api/pairings/{playing[0]['id']}/void/", {}, format="json")
    assert not_done.status_code == 409


def test_api_league_match_for_registered_players(api, users) -> None:
    season = SeasonFactory(status="running")
    season.league.organisers.add(users[0])
    ids = [
        services.season_register(season=season, user=u).participant_id
        for u in users[:2]
    ]
    api.force_authenticate(users[0])
    made = api.post(
        f"/api/seasons/{season.pk}/matches/", {"participants": ids}, format="json"
    )
    assert made.status_code == 201
    assert made.json()["context"] == f"league:{season.league_id}:season:{season.pk}"
    outsider = participant_for_user(users[5]).pk
    bad = api.post(
        f"/api/seasons/{season.pk}/matches/",
        {"participants": [ids[0], outsider]},
        format="json",
    )
    assert bad.status_code == 400


def test_admin_lists_league_models(client, rated) -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    for model in ("league", "participant", "ratingpool", "rating", "tournament"):
        response = client.get(reverse(f"admin:league_{model}_changelist"))
        assert response.status_code == 200, model


def test_round_robin_page_shows_cross_table_and_season_tournament_form(
    client, users, django_capture_on_commit_callbacks
) -> None:
    season = SeasonFactory()
    league = season.league
    league.organisers.add(users[9])
    client.force_login(users[9])
    for u in users[:3]:
        services.season_register(season=season, user=u)
    response = client.post(
        reverse("league:tournaments"),
        {
            "name": "Season round robin",
            "game": "duelo",
            "format": "round_robin",
            "participants": "mixed",
            "seeding": "rating",
            "round_hours": "24",
            "league": league.slug,
            "season": str(season.pk),
        },
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Season round robin")
    assert t.season == season and t.league == league
    for u in users[:3]:
        ts.tournament_enter(tournament=t, user=u)
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=users[9])
    body = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    assert "Cross table" in body and "Direct encounter" in body and "bye" in body


@pytest.mark.parametrize(
    "referer",
    [
        "https://evil.example/phish",
        "//evil.example/phish",
        "/\\evil.example/phish",
        "javascript:alert(1)",
    ],
)
def test_a_failed_league_action_never_redirects_off_the_site(
    client, users, referer
) -> None:
    season = SeasonFactory()
    client.force_login(users[0])
    url = reverse("league:season_register", args=[season.league.slug, season.number])
    client.post(url)
    # Registering twice fails: the error returns to the form's page, if ours.
    response = client.post(url, {"next": referer}, HTTP_REFERER=referer)
    assert response.status_code == 302
    assert response["Location"] == "/"
    own = reverse("league:season", args=[season.league.slug, season.number])
    back = client.post(url, HTTP_REFERER=f"http://testserver{own}")
    assert back["Location"] == f"http://testserver{own}"
    assert client.post(url, {"next": own})["Location"] == own


def test_the_season_page_says_how_games_start_and_what_the_question_mark_means(
    client, users
) -> None:
    """Issue 26, section 4: a registered player learns how season games start;
    the provisional "?" is explained; the trophy is drawn, not an emoji."""
    season = SeasonFactory(status="open")
    services.season_register(season=season, user=users[0])
    client.force_login(users[0])
    url = reverse("league:season", args=[season.league.slug, season.number])
    body = client.get(url).content.decode()
    assert "Find a season game" in body and "once play begins" in body
    assert 'id="provisional-legend"' in body
    assert "provisional, fewer than 30 rated games" in body
    season.status = "running"
    season.save()
    body = client.get(url).content.decode()
    assert "you wait in the queue below" in body
    assert body.count("Find a season game") >= 2  # the words and the button
    # Someone not registered is not told they can queue.
    client.force_login(users[1])
    assert "you wait in the queue below" in client.get(url).content.decode()
    assert "Register for this season to play its games" in (
        client.get(url).content.decode()
    )


def test_a_champion_gets_a_drawn_trophy(client, users) -> None:
    from league.models import Entrant
    from league.participants import participant_for_user

    t = ts.tournament_create(
        by=users[9], name="Trophy cup", game="duelo", format="swiss"
    )
    entrant = Entrant.objects.create(
        tournament=t, participant=participant_for_user(users[0])
    )
    Tournament.objects.filter(pk=t.pk).update(champion=entrant, status="finished")
    body = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    assert '<svg class="trophy"' in body and "🏆" not in body
    listing = client.get(reverse("league:tournaments")).content.decode()
    assert 'aria-label="Champion"' in listing and "🏆" not in listing
