"""Kung Fu (2009), the real-time game, at live tables: intents in arrival order,
the table's steps and the engine's timers applied by the server, races with one
outcome each, built-in bots on ticks next to people, frames with nothing hidden.

Timers are driven by calling ``services.match_apply_timers`` with a chosen
``now`` (eager tests arm no countdowns), bots by ``match_realtime_bots_tick``.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import translation

from gameplay import clocks, enqueue, frames, services, tasks
from gameplay.errors import BadRequest, IllegalMove
from gameplay.models import ActionKind, Match, MatchAction, MatchStatus
from gameplay.rules import get_game
from gameplay.services import SeatSpec

pytestmark = pytest.mark.django_db
GAME = "kungfu2009"
ENGINE = get_game(GAME)


def stacked(hands: list[str], rest: str = "") -> str:
    """A full 68-card deck (top first) dealing ``hands`` (5 cards each), then
    ``rest`` on top of the remaining pile, then every other card."""
    n = len(hands)
    deal = "".join(hands[t][k] for k in range(5) for t in range(n))
    left = {"T": 16, "M": 16, "C": 16, "R": 16, "D": 4}
    for c in deal + rest:
        left[c] -= 1
    assert min(left.values()) >= 0
    return deal + rest + "".join(c * k for c, k in left.items())


def table(users, hands, *, rest="", agents=None, **config):
    seats = []
    for t in range(len(hands)):
        agent = (agents or {}).get(t, "")
        seats.append(SeatSpec(agent=agent) if agent else SeatSpec(user=users[t]))
    match = services.match_create(
        game=GAME,
        seats=seats,
        config={"deck": stacked(hands, rest), **config},
        private_options=True,
    )
    return services.match_start(match_id=match.pk)


def act(match, user, action_id, version=None):
    return services.match_act(
        match_id=match.pk, user=user, action_id=action_id, expected_version=version
    )


def later(match, seconds: float):
    """``seconds`` after the match's last step as ``match`` holds it: refresh
    it after a step, or the time counts from an earlier one (the timers count
    from the step itself, which a loaded machine makes later than the start)."""
    return match.turn_started_at + timedelta(seconds=seconds)


FOUR = ["DDDDT", "TMCRT", "MCRTM", "CRTMC"]


def test_a_claim_is_checked_by_the_table_two_seconds_after_it_is_shown(players):
    match = table(players, FOUR)
    out = act(match, players[0], "claim:easy", 0)
    match.refresh_from_db()
    assert match.state["phase"] == "paused" and out.version == 1
    due = [t for t in match.timers.values() if t["action"] == "check"]
    assert due and due[0]["seat"] is None
    # People see the cards first: nothing happens before the 2 s are up.
    assert services.match_apply_timers(match_id=match.pk, now=later(match, 1.5)) == []
    done = services.match_apply_timers(match_id=match.pk, now=later(match, 2.1))
    assert done == ["timer check:0:easy: check"]
    match.refresh_from_db()
    step = MatchAction.objects.get(match=match, version=2)
    assert step.seat is None and step.kind == ActionKind.TABLE
    assert step.action_id == "check"
    assert step.events[0]["type"] == "claim_correct"
    assert match.state["phase"] == "play" and len(match.state["won"][0]) == 1
    # Idempotent: a second check finds nothing due.
    assert services.match_apply_timers(match_id=match.pk, now=later(match, 2.1)) == []
    # The spectator's replay of the step names no seat and no hidden card.
    frame = frames.spectator_frame(match=match)
    assert frame["view"]["hand"] is None


def test_two_claims_within_a_millisecond_the_second_is_queued(players):
    match = table(players, FOUR)
    # Both were chosen at version 0: arrival order decides, no stale version.
    act(match, players[0], "claim:easy", 0)
    second = act(match, players[1], "claim:easy", 0)
    match.refresh_from_db()
    claims = match.state["claims"]
    assert [c["seat"] for c in claims] == [0, 1] and second.version == 2
    first_claim = MatchAction.objects.get(match=match, version=2).events[0]
    assert first_claim["public"]["queued"] is True
    services.match_apply_timers(match_id=match.pk, now=later(match, 2.1))
    match.refresh_from_db()
    # The first scored; the second waits for its own 2 s, then is void.
    assert match.state["phase"] == "paused" and len(match.state["claims"]) == 1
    assert any(k.startswith("check:1:") for k in match.timers)
    assert services.match_apply_timers(match_id=match.pk, now=later(match, 1)) == []
    services.match_apply_timers(match_id=match.pk, now=later(match, 2.1))
    match.refresh_from_db()
    last = MatchAction.objects.filter(match=match).order_by("-version").first()
    assert last.events[0]["type"] == "claim_void"
    assert match.state["phase"] == "play" and not match.state["out"][1]


def test_trade_during_the_pause_is_refused_with_the_engines_reason(players):
    match = table(players, FOUR)
    act(match, players[0], "claim:easy", 0)
    with pytest.raises(IllegalMove, match="paused while seat 0's KUNG FU"):
        act(match, players[1], "to:2", 1)
    match.refresh_from_db()
    assert match.version == 1 and match.state["drafts"][1] is None


def _offer(match, user, to, give, want=""):
    act(match, user, f"to:{to}")
    for c in give:
        act(match, user, f"give:{c}")
    for c in want:
        act(match, user, f"want:{c}")
    act(match, user, "send")
    match.refresh_from_db()
    return match.state["offers"][-1]["id"]


def test_accept_after_withdraw_is_refused_and_changes_nothing(players):
    match = table(players, FOUR)
    oid = _offer(match, players[0], 1, "T", "M")
    act(match, players[0], f"withdraw:{oid}")
    match.refresh_from_db()
    version = match.version
    with pytest.raises(IllegalMove, match=f"offer {oid} is not open .withdrawn"):
        act(match, players[1], f"accept:{oid}", version - 1)
    match.refresh_from_db()
    assert match.version == version and match.state["hands"][1] == FOUR[1]


def test_a_card_offered_twice_goes_to_the_first_acceptance(players):
    hands = ["TDDDM", "MCRTM", "MCRTM", "CRTMC"]
    match = table(players, hands)
    first = _offer(match, players[0], 1, "T", "M")
    second = _offer(match, players[0], 2, "T", "C")
    version = match.version
    act(match, players[1], f"accept:{first}", version)
    with pytest.raises(IllegalMove, match="seat 0 traded the cards away"):
        act(match, players[2], f"accept:{second}", version)
    match.refresh_from_db()
    assert "T" not in match.state["hands"][0] and match.state["offers"] == []


def test_an_unanswered_offer_is_declined_after_twenty_seconds(players):
    match = table(players, FOUR)
    direct = _offer(match, players[0], 1, "T")
    assert services.match_apply_timers(match_id=match.pk, now=later(match, 19)) == []
    done = services.match_apply_timers(match_id=match.pk, now=later(match, 20.1))
    assert done == [f"timer decline:{direct}:1: decline:{direct}"]
    step = MatchAction.objects.filter(match=match).order_by("-version").first()
    assert step.seat == 1 and step.kind == ActionKind.TIMEOUT
    match.refresh_from_db()
    assert match.state["offers"] == []


def test_an_offer_to_all_is_declined_for_each_player_who_did_not_answer(players):
    match = table(players, FOUR)
    oid = _offer(match, players[0], "all", "T")
    start = match.turn_started_at
    act(match, players[2], f"decline:{oid}")
    match.refresh_from_db()
    keys = sorted(k for k in match.timers if k.startswith("decline:"))
    assert keys == [f"decline:{oid}:1", f"decline:{oid}:3"]
    done = services.match_apply_timers(
        match_id=match.pk, now=start + timedelta(seconds=20.1)
    )
    assert len(done) == 2
    match.refresh_from_db()
    assert match.state["offers"] == [] and match.timers.keys() == {"end"}


def age(match, seconds: float) -> None:
    """As if ``seconds`` had passed: every running timer is due that much sooner."""
    from datetime import datetime

    match.refresh_from_db()
    for timer in match.timers.values():
        due = datetime.fromisoformat(timer["due"]) - timedelta(seconds=seconds)
        timer["due"] = due.isoformat()
    match.save(update_fields=["timers"])


def test_an_offer_being_built_is_dropped_after_thirty_idle_seconds(players):
    from django.utils import timezone

    match = table(players, FOUR)
    act(match, players[0], "to:1")
    age(match, 25)
    # A step 25 s in restarts the 30 s (the draft's key changed).
    act(match, players[0], "give:T")
    now = timezone.now()
    assert (
        services.match_apply_timers(match_id=match.pk, now=now + timedelta(seconds=6))
        == []
    )
    done = services.match_apply_timers(
        match_id=match.pk, now=now + timedelta(seconds=30.1)
    )
    assert len(done) == 1 and done[0].endswith(": cancel")
    match.refresh_from_db()
    assert match.state["drafts"][0] is None
    assert MatchAction.objects.get(match=match, version=3).seat == 0


def test_severe_punishment_choice_defaults_after_fifteen_seconds(players):
    # Seat 0 scores with four Dragons, draws C R C R, then claims a difficult
    # combination with T C R C R: wrong, and it owes one combination.
    match = table(players, FOUR, rest="CRCR", severe=True)
    act(match, players[0], "claim:easy")
    match.refresh_from_db()
    services.match_apply_timers(match_id=match.pk, now=later(match, 2.1))
    match.refresh_from_db()
    won = list(match.state["won"][0])
    act(match, players[0], "claim:difficult")
    services.match_apply_timers(match_id=match.pk, now=later(match, 2.1))
    match.refresh_from_db()
    assert match.state["owe"][0] and "forfeit:0" in match.timers
    assert services.match_apply_timers(match_id=match.pk, now=later(match, 14)) == []
    done = services.match_apply_timers(match_id=match.pk, now=later(match, 15.1))
    assert done == [f"timer forfeit:0: forfeit:{won[0]}"]
    match.refresh_from_db()
    assert match.state["won"][0] == [] and not match.state["owe"][0]


def test_the_table_ends_the_game_at_its_time_limit_even_during_a_pause(players):
    match = table(players, FOUR, minutes=1)
    start = match.started_at
    assert match.timers["end"]["due"] == (start + timedelta(minutes=1)).isoformat()
    act(match, players[0], "claim:easy")
    match.refresh_from_db()
    # Due at 60 s, but a pause is on: the check first, then the end.
    done = services.match_apply_timers(
        match_id=match.pk, now=match.turn_started_at + timedelta(seconds=61)
    )
    assert [d.split(": ")[1] for d in done] == ["check", "end"]
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.timers == {}
    assert match.result["engine"]["reason"] == "time"
    assert match.result["winners"] == [0]


def test_pass_changes_nothing_and_logs_nothing(players):
    match = table(players, FOUR)
    out = act(match, players[1], "pass", 0)
    assert out.version == 0 and not MatchAction.objects.filter(match=match).exists()


def test_a_punished_seat_gets_the_engines_reason_not_a_turn_error(players):
    # Three Tigers and two Monkeys make no difficult card (4 of one style).
    match = table(players, ["TMTMT", "TMCRT", "MCRTM", "CRTMC"])
    act(match, players[0], "claim:difficult")
    match.refresh_from_db()
    services.match_apply_timers(match_id=match.pk, now=later(match, 2.1))
    match.refresh_from_db()
    assert match.state["out"][0]
    with pytest.raises(IllegalMove, match="out of play"):
        act(match, players[0], "to:1")


def test_per_move_clocks_are_refused_for_a_real_time_game(players):
    with pytest.raises(BadRequest, match="real-time game has no turns"):
        services.match_create(
            game=GAME,
            seats=[SeatSpec(user=u) for u in players[:4]],
            time_control={"per_move": 30},
        )


def test_built_in_bots_act_on_ticks_next_to_people(players):
    agents = {2: "builtin:heuristic", 3: "builtin:random"}
    match = table(players, FOUR, agents=agents)
    # Eager tests schedule no ticks, and the turn-based bot loop leaves real time alone.
    assert services.match_play_builtin_bots(match_id=match.pk) == 0
    enqueue.schedule_bot_turns(match_id=match.pk)
    match.refresh_from_db()
    assert match.version == 0
    for tick in range(60):
        assert services.match_realtime_bots_tick(match_id=match.pk, tick=tick)
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        # The table's steps come in as they fall due (a claim's check; when
        # both bots claimed at once, the second claim waits its turn and is
        # checked 2 s after the first check, so time moves on once more).
        for _ in range(3):
            match.refresh_from_db()
            if not services.match_apply_timers(match_id=match.pk, now=later(match, 3)):
                break
        act(match, players[tick % 2], "pass")
    seats_seen = set(
        MatchAction.objects.filter(match=match).values_list("seat", flat=True)
    )
    assert {2, 3} <= seats_seen
    match.refresh_from_db()
    # A person's intent goes in between the bots' ticks as it arrives.
    act(match, players[0], "impasse")
    match.refresh_from_db()
    assert match.status != MatchStatus.ACTIVE or match.state["votes"][0]
    # Every frame at the table hides the other hands and unseen cards. A hand
    # may read like a face-up combination or the viewer's own hand (the same
    # five letters): only a string the public view does not hold is a leak.
    public = json.dumps(frames.spectator_frame(match=match)["view"])
    hands = match.state["hands"]
    for seat in range(4):
        text = json.dumps(frames.seat_frame(match=match, seat=seat)["view"])
        for other in range(4):
            hidden = f'"{hands[other]}"'
            if other == seat or not hands[other] or hands[other] == hands[seat]:
                continue
            if hidden not in public:
                assert hidden not in text
    assert frames.spectator_frame(match=match)["view"]["hand"] is None


def test_bot_ticks_stop_when_the_match_ends(players):
    match = table(players, FOUR, agents={3: "builtin:heuristic"}, minutes=1)
    services.match_apply_timers(
        match_id=match.pk, now=match.started_at + timedelta(minutes=2)
    )
    assert services.match_realtime_bots_tick(match_id=match.pk, tick=1) is False


def test_the_lobby_offers_tables_of_three_to_eight_without_turn_clocks(client, players):
    from django.urls import reverse

    from gameplay import lobby
    from gameplay.catalog import game_catalog
    from gameplay.forms import BotSeatForm, TableForm

    info = {g.id: g for g in game_catalog()}[GAME]
    assert (info.min_players, info.max_players, info.realtime) == (3, 8, True)
    form = TableForm(game=info)
    assert [n for n, _ in form.fields["players"].choices] == list(range(3, 9))
    assert "per_move" not in form.fields and "total" not in form.fields
    assert {"opt_minutes", "opt_remove", "opt_severe"} <= set(form.fields)
    # Challenges are one-on-one: not offered for a game of three or more.
    client.force_login(players[0])
    page = client.get(reverse("gameplay:game_detail", args=[GAME])).content.decode()
    assert "Open a table" in page and "Challenge a player" not in page
    # The ISMCTS bot's playouts take turns: it is neither offered nor seated.
    bots = [name for name, _ in BotSeatForm(game=GAME).fields["bot"].choices]
    assert "heuristic" in bots and "ismcts" not in bots
    table = lobby.table_create(
        host=players[0], game=GAME, players=3, options={"minutes": 5}
    )
    with pytest.raises(BadRequest, match="ISMCTS bot cannot play"):
        lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="ismcts")
    lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="heuristic")
    lobby.table_join(match_id=table.pk, user=players[1])
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE
    assert table.config["minutes"] == 5 and table.timers["end"]["seat"] is None


def test_a_finished_live_match_replays_with_the_tables_steps(client, players):
    match = table(players, FOUR, minutes=1)
    act(match, players[0], "claim:easy")
    services.match_apply_timers(
        match_id=match.pk, now=match.started_at + timedelta(minutes=2)
    )
    client.force_login(players[1])
    for perspective in ("full", "spectator", "seat:1"):
        response = client.get(
            f"/api/matches/{match.public_id}/replay/?perspective={perspective}"
        )
        assert response.status_code == 200, response.content
        text = json.dumps(response.json())
        assert '"check"' in text or "claim_correct" in text
        # The timeline: when the server applied each step, in arrival order.
        steps = response.json()["steps"]
        stamps = [step["at_ms"] for step in steps]
        assert stamps[0] == 0 and all(isinstance(ms, int) for ms in stamps)
        assert stamps == sorted(stamps)
        assert any(step["seat"] is None for step in steps)  # the table's check
    page = client.get(f"/matches/{match.public_id}/replay/")
    assert page.status_code == 200


def test_timer_checks_are_armed_once_per_due_time(players, settings, monkeypatch):
    """Outside eager mode: the steps of a busy table arm one countdown per
    due time, and a check woken before its time waits on instead of firing."""
    from django.core.cache import cache

    match = table(players, FOUR)
    act(match, players[0], "claim:easy")
    settings.CELERY_TASK_ALWAYS_EAGER = False
    armed = []
    monkeypatch.setattr(
        tasks.apply_timers,
        "apply_async",
        lambda args, countdown: armed.append((args, countdown)),
    )
    cache.clear()
    enqueue.schedule_timer_check(match_id=match.pk)
    enqueue.schedule_timer_check(match_id=match.pk)
    assert len(armed) == 1
    (match_pk, due), countdown = armed[0]
    match.refresh_from_db()
    assert due == match.timers["check:0:easy"]["due"] and 1.5 < countdown <= 2.1
    # Woken early: re-armed for what is left, nothing applied.
    assert tasks.apply_timers.run(match_pk, due) == []
    assert len(armed) == 2 and armed[1][1] <= 2.1
    match.refresh_from_db()
    assert match.state["phase"] == "paused"


def test_the_bots_tick_chain_plays_each_tick_once(players, settings, monkeypatch):
    """Outside eager mode: a chain is started only when none is running, each
    tick is played by one task (a duplicate stops), and the next is armed."""
    match = table(players, FOUR, agents={2: "builtin:heuristic"})
    settings.CELERY_TASK_ALWAYS_EAGER = False
    armed = []
    monkeypatch.setattr(
        tasks.realtime_bots_tick,
        "apply_async",
        lambda args, countdown: armed.append((args, countdown)),
    )
    assert enqueue.schedule_realtime_bots(match=match) is True
    (match_pk, tick), _ = armed[0]
    assert tasks.realtime_bots_tick.run(match_pk, tick) is True
    assert len(armed) == 2 and armed[1][0][1] > tick
    # The same tick again (a requeued task, a second chain) does nothing.
    assert tasks.realtime_bots_tick.run(match_pk, tick) is False
    assert len(armed) == 2
    # The chain is alive: a change at the table starts no second one.
    assert enqueue.schedule_realtime_bots(match=match) is False


def test_a_bot_seats_intent_at_an_older_version_stands_in_real_time(players):
    match = table(players, FOUR, agents={3: "builtin:heuristic"})
    act(match, players[0], "to:1")
    # Chosen at version 0, arriving after a person's intent: applied.
    out = services.match_system_act(
        match_id=match.pk, seat_number=3, action_id="to:all", expected_version=0
    )
    assert out.version == 2
    batch = services.match_system_act_many(
        match_id=match.pk,
        moves=[services.SystemMove(3, "give:C")],
        expected_version=0,
    )
    assert [o.version for o in batch] == [3]


def test_beats_sweep_applies_timers_whose_check_was_lost(players):
    match = table(players, FOUR)
    other = table(players[4:8], FOUR)
    act(match, players[0], "claim:easy")
    age(match, 3)  # as if the armed check had been lost 3 s ago
    assert clocks.matches_with_timers_due() == [match.pk]
    assert tasks.sweep_timers() == 1
    match.refresh_from_db()
    other.refresh_from_db()
    assert match.state["phase"] == "play" and other.version == 0
    assert clocks.matches_with_timers_due() == []


def _timers(frame) -> list[tuple]:
    return [(t["seat"], t["action"]) for t in frame["timers"]]


def test_frames_carry_the_running_timers_each_seat_may_know(players):
    """Issue 26 §1.3: the page shows the match clock and the timers that
    concern the player. A seat gets the table's timers and its own; another
    seat's (an offer it is building) would tell what it does in secret."""
    match = table(players, FOUR, minutes=5)
    end = match.timers["end"]["due"]
    oid = _offer(match, players[0], 1, "T")
    act(match, players[2], "to:3")  # seat 2 builds an offer: its secret
    match.refresh_from_db()
    seen = {t: frames.seat_frame(match=match, seat=t) for t in range(4)}
    public = frames.spectator_frame(match=match)
    assert _timers(seen[0]) == [(None, "end")]
    assert _timers(seen[1]) == [(1, f"decline:{oid}"), (None, "end")]
    assert _timers(seen[2]) == [(2, "cancel"), (None, "end")]
    assert _timers(seen[3]) == [(None, "end")] == _timers(public)
    assert seen[0]["timers"][0]["due"] == end
    answer = match.timers[f"decline:{oid}:1"]["due"]
    assert seen[1]["timers"][0]["due"] == answer
    for frame in (*seen.values(), public):
        assert "key" not in json.dumps(frame["timers"])
    # A claim on the table: its check is the table's, everyone sees it.
    act(match, players[0], "claim:easy")
    match.refresh_from_db()
    assert (None, "check") in _timers(frames.spectator_frame(match=match))
    assert (None, "check") in _timers(frames.seat_frame(match=match, seat=3))
    # A delayed spectator frame carries none (they would tell the present).
    match.spectator_delay = 2
    match.save(update_fields=["spectator_delay"])
    assert frames.spectator_frame(match=match)["timers"] == []
    # The end: no timer runs.
    services.match_apply_timers(match_id=match.pk, now=later(match, 6 * 60))
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert frames.seat_frame(match=match, seat=0)["timers"] == []


def test_the_lobby_shows_a_timed_tables_time_limit_as_its_clock(client, players):
    """Issue 26 §4: the open-tables list said "none" for a 5-minute table."""
    import re

    from django.urls import reverse

    from gameplay import lobby
    from gameplay.options import clock_label

    lobby.table_create(host=players[0], game=GAME, players=4, options={"minutes": 5})
    client.force_login(players[1])
    page = client.get(reverse("gameplay:game_detail", args=[GAME])).content.decode()
    rows = re.findall(r"<tr><td>.*?</tr>", page, re.S)
    (row,) = [r for r in rows if "View" in r]
    assert "5 min match" in row and ">untimed<" not in row
    assert clock_label(game_id=GAME, config={}, time_control={}) == "20 min match"
    per_move = clock_label(game_id="duelo", config={}, time_control={"per_move": 30})
    assert per_move == "30 s/move"
    assert clock_label(game_id="duelo", config={}, time_control={}) == "untimed"
    with translation.override("de"):  # people read it in their language
        assert clock_label(game_id=GAME, config={}, time_control={}) == "20 Min. Partie"
        assert clock_label(game_id="duelo", config={}, time_control={}) == (
            "ohne Zeitlimit"
        )


@pytest.mark.django_db(transaction=True)
def test_a_rearranged_hand_keeps_the_timers_without_working_them_out(
    players, monkeypatch
):
    """The live owner leaves the timers, and the due time it armed, as they
    were after a step of the engine's ``timer_quiet_events`` (rearranging a
    hand), and works them out after any other step."""
    from django.test import override_settings

    from gameplay.live import owner
    from gameplay.services import hooks

    with override_settings(CHANNEL_LAYERS={}):
        match = table(players, FOUR, minutes=30)
        live = owner.LiveMatch(pk=match.pk)
        worked: list[str] = []
        real_after, real_due = clocks.timers_after, hooks.next_timer_due
        monkeypatch.setattr(
            clocks,
            "timers_after",
            lambda **kw: worked.append("timers") or real_after(**kw),
        )
        monkeypatch.setattr(
            hooks,
            "next_timer_due",
            lambda **kw: worked.append("due") or real_due(**kw),
        )
        # An offer to seat 2 starts its idle timer; the due time is armed.
        version = owner.act_sync(live, players[1], "to:2", 0).version
        assert worked == ["timers", "due"]
        timers, armed = dict(live.match.timers), live.armed_due
        assert any(key.startswith("cancel:1:") for key in timers)
        worked.clear()
        version = owner.act_sync(live, players[1], "move:0:4", version).version
        version = owner.act_sync(live, players[3], "move:1:2", version).version
        assert worked == []  # two rearranged hands: nothing worked out
        assert live.match.timers == timers and live.armed_due == armed
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == version and stored.timers == timers
        assert stored.state["hands"][1] != match.state["hands"][1]
        # Building the offer further moves its timer on.
        owner.act_sync(live, players[1], "give:T", version)
        assert worked == ["timers", "due"]
        assert live.match.timers != timers
