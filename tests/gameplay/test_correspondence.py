"""Correspondence clocks over simulated days, vacations, the Fischer increment.

Time is simulated: ``django.utils.timezone.now`` answers a test clock that the
test moves on (nothing sleeps).
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from gameplay import clocks, contexts, frames, services, vacation
from gameplay.errors import BadRequest, Forbidden
from gameplay.models import MatchStatus
from gameplay.rules import get_game
from tests.gameplay.conftest import start_match


class SimClock:
    def __init__(self) -> None:
        self.now = timezone.now().replace(month=3, day=1, hour=12)

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def sim():
    clock = SimClock()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: clock.now):
        yield clock


def _move(match, users):
    """The seat to act plays its first legal action; returns that seat."""
    match.refresh_from_db()
    engine = get_game(match.game)
    seat = engine.actors(match.state)[0]
    services.match_act(
        match_id=match.pk,
        user=users[seat],
        action_id=engine.legal_action_ids(match.state, seat)[0],
        expected_version=match.version,
    )
    return seat


def _seat(match, number):
    match.refresh_from_db()
    return match.seats.get(number=number)


def test_a_correspondence_game_over_days_ends_in_a_loss_by_time(players, sim):
    users = players[:2]
    match = start_match(users, game="kungfu2013", time_control={"days": 1})
    assert match.time_control == {"days": 1}
    # Ten moves, each taking most of a day: nobody's clock runs out.
    for _ in range(10):
        sim.advance(hours=23)
        assert services.match_expire_clocks(match_id=match.pk) == []
        _move(match, users)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    waiting = get_game(match.game).actors(match.state)[0]
    seat = _seat(match, waiting)
    assert clocks.seat_time_left(match=match, seat=seat) == timedelta(days=1)
    # Away for days: no claim, no bot; only the clock decides.
    sim.advance(hours=20)
    other = users[1 - waiting]
    with pytest.raises(Forbidden):
        services.match_claim(match_id=match.pk, user=other, claim="win")
    assert clocks.absent_until_claimable(match=match, seat=seat) is None
    assert clocks.seat_time_left(match=match, seat=seat) == timedelta(hours=4)
    assert services.match_expire_clocks(match_id=match.pk) == []
    sim.advance(hours=4)
    done = services.match_expire_clocks(match_id=match.pk)
    assert done == [f"seat {waiting}: time forfeit (correspondence)"]
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "time forfeit"
    assert match.result["winners"] == [1 - waiting]
    assert _seat(match, waiting).forfeit_reason == "time forfeit"
    # Idempotent: a second check finds a finished match.
    assert services.match_expire_clocks(match_id=match.pk) == []


def test_simultaneous_commits_run_one_clock_per_seat(players, sim):
    users = players[:3]
    match = start_match(users, game="kungfu2019", time_control={"days": 2})
    engine = get_game(match.game)
    match.refresh_from_db()
    # Play until several seats choose at once (the dice game's card commits).
    for _ in range(200):
        if len(engine.actors(match.state)) > 1:
            break
        _move(match, users)
        match.refresh_from_db()
    actors = engine.actors(match.state)
    assert len(actors) > 1
    started = sim.now
    sim.advance(days=1)
    first = actors[0]
    services.match_act(
        match_id=match.pk,
        user=users[first],
        action_id=engine.legal_action_ids(match.state, first)[0],
        expected_version=match.version,
    )
    match.refresh_from_db()
    still = [s for s in actors if s in engine.actors(match.state) and s != first]
    assert still
    # The others' clocks kept running from their own start.
    for number in still:
        seat = _seat(match, number)
        assert clocks.seat_deadline(match=match, seat=seat) == started + timedelta(
            days=2
        )
    sim.advance(days=1, seconds=1)
    done = services.match_expire_clocks(match_id=match.pk)
    assert [line.split(":")[0] for line in done] == [f"seat {n}" for n in still]


def test_vacation_pauses_the_players_correspondence_clocks(players, sim):
    users = players[:2]
    corr = start_match(users, game="kungfu2013", time_control={"days": 3})
    live = start_match(players[2:4], game="kungfu2013", time_control={"per_move": 60})
    mover = get_game("kungfu2013").actors(corr.state)[0]
    away = users[mover]
    seat = _seat(corr, mover)
    sim.advance(days=1)
    services.vacation_start(user=away, days=5)
    assert vacation.vacation_days_left(user=away) == vacation.days_per_year() - 5
    # Two days of the three are left; they run only after the vacation.
    sim.advance(days=6)
    assert services.match_expire_clocks(match_id=corr.pk) == []
    assert clocks.seat_time_left(match=corr, seat=seat) == timedelta(days=1)
    sim.advance(days=1, seconds=1)
    assert services.match_expire_clocks(match_id=corr.pk)
    corr.refresh_from_db()
    assert corr.status == MatchStatus.FINISHED
    # A live game is never paused.
    assert live.time_control == {"per_move": 60}


def test_vacation_shown_to_opponents_and_ended_early(players, sim):
    users = players[:2]
    match = start_match(users, game="kungfu2013", time_control={"days": 1})
    mover = get_game("kungfu2013").actors(match.state)[0]
    away = users[mover]
    services.vacation_start(user=away, days=3)
    with pytest.raises(BadRequest, match="already on vacation"):
        services.vacation_start(user=away, days=1)
    match.refresh_from_db()
    shown = {s["number"]: s["away_until"] for s in frames.seats_public(match=match)}
    assert shown[mover] == (sim.now + timedelta(days=3)).isoformat()
    assert shown[1 - mover] is None
    # Back after a day and a half: two days charged, the clock runs again.
    sim.advance(hours=36)
    services.vacation_end(user=away)
    assert vacation.vacation_days_left(user=away) == vacation.days_per_year() - 2
    seat = _seat(match, mover)
    assert clocks.seat_time_left(match=match, seat=seat) == timedelta(days=1)
    with pytest.raises(BadRequest, match="not on vacation"):
        services.vacation_end(user=away)
    match.refresh_from_db()
    assert all(s["away_until"] is None for s in frames.seats_public(match=match))


def test_vacation_allowance_and_bad_input(players, sim):
    user = players[0]
    for bad in (0, -1, "3", True, 2.5):
        with pytest.raises(BadRequest, match="whole number"):
            services.vacation_start(user=user, days=bad)
    with pytest.raises(BadRequest, match="days left this year"):
        services.vacation_start(user=user, days=vacation.days_per_year() + 1)
    assert not user.vacations.exists()
    services.vacation_start(user=user, days=vacation.days_per_year())
    sim.advance(days=vacation.days_per_year())
    with pytest.raises(BadRequest, match="0 vacation days left"):
        services.vacation_start(user=user, days=1)
    # A new calendar year brings a new allowance.
    sim.now = sim.now.replace(year=sim.now.year + 1, month=1, day=2)
    services.vacation_start(user=user, days=1)


def test_a_competition_may_refuse_vacation(players, sim):
    contexts.register_vacation_rule("test-novac:", lambda match: False)
    users = players[:2]
    match = start_match(
        users, game="kungfu2013", time_control={"days": 1}, context="test-novac:1"
    )
    mover = get_game("kungfu2013").actors(match.state)[0]
    services.vacation_start(user=users[mover], days=7)
    sim.advance(days=1, seconds=1)
    assert services.match_expire_clocks(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED


def test_fischer_increment_is_added_after_each_move(players, sim):
    users = players[:2]
    match = start_match(
        users, game="kungfu2013", time_control={"total": 60, "increment": 5}
    )
    assert {s.clock_ms for s in match.seats.all()} == {60_000}
    # Each move: the time spent comes off, then 5 s are added.
    for spent in (10, 2, 3, 1):
        match.refresh_from_db()
        before = _seat(match, get_game(match.game).actors(match.state)[0]).clock_ms
        sim.advance(seconds=spent)
        mover = _move(match, users)
        assert _seat(match, mover).clock_ms == before - spent * 1000 + 5000
    # A total clock that runs out is still a loss on time.
    match.refresh_from_db()
    nxt = get_game(match.game).actors(match.state)[0]
    sim.advance(seconds=_seat(match, nxt).clock_ms / 1000 + 1)
    assert services.match_expire_clocks(match_id=match.pk) == [
        f"seat {nxt}: time forfeit"
    ]


def test_run_clock_spends_the_allowance_outside_pauses():
    t0 = timezone.now()
    day = timedelta(days=1)
    assert clocks.run_clock(start=t0, allowance=day) == t0 + day
    pauses = [(t0 + 2 * day, t0 + 3 * day), (t0 - day, t0 + day / 2)]
    assert clocks.run_clock(start=t0, allowance=day, pauses=pauses) == t0 + 1.5 * day
    assert clocks.run_clock(start=t0, allowance=2 * day, pauses=pauses) == (
        t0 + 3.5 * day
    )


def test_beats_sweep_ends_a_correspondence_game_at_its_deadline(players, sim):
    from gameplay import tasks

    match = start_match(players[:2], game="kungfu2013", time_control={"days": 2})
    sim.advance(days=1, hours=23)
    with mock.patch.object(
        services, "match_expire_clocks", wraps=services.match_expire_clocks
    ) as checks:
        assert tasks.sweep_correspondence_clocks() == 0
        assert tasks.sweep_expired_clocks() == 0  # the live sweep skips it
        assert checks.call_count == 0  # nothing due: the match was not locked
        sim.advance(hours=1)
        assert tasks.sweep_expired_clocks() == 0
        assert tasks.sweep_correspondence_clocks() == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "time forfeit"


def test_vacation_page_api_and_profile(players, client):
    from django.urls import reverse

    user, other = players[0], players[1]
    client.force_login(user)
    page = client.get(reverse("gameplay:vacation")).content.decode()
    assert f"{vacation.days_per_year()} vacation days left this year" in page
    # Bad input: a message, nothing changes.
    for bad in ("", "abc", "0", "999"):
        response = client.post(reverse("gameplay:vacation"), {"days": bad}, follow=True)
        assert response.status_code == 200
        assert "vacation day" in response.content.decode()
    assert not user.vacations.exists()
    client.post(reverse("gameplay:vacation"), {"days": "4"})
    away = user.vacations.get()
    assert (away.ends_at - away.starts_at).days == 4
    # Everyone sees it on the profile.
    client.force_login(other)
    profile = client.get(reverse("accounts:profile", args=[user.username]))
    assert "is on vacation until" in profile.content.decode()
    # The API: status, a refused second vacation, coming back.
    client.force_login(user)
    status = client.get(reverse("api-vacation")).json()
    assert status["away_until"] == away.ends_at.isoformat()
    assert status["days_left"] == vacation.days_per_year() - 4
    again = client.post(
        reverse("api-vacation"), {"days": 2}, content_type="application/json"
    )
    assert again.status_code == 400
    assert "already on vacation" in again.content.decode()
    back = client.delete(reverse("api-vacation")).json()
    assert back["away_until"] is None
    assert back["days_left"] == vacation.days_per_year() - 1
    assert client.delete(reverse("api-vacation")).status_code == 400
    bad = client.post(
        reverse("api-vacation"), {"days": "x"}, content_type="application/json"
    )
    assert bad.status_code == 400
