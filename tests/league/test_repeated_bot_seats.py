"""A rated game seats each bot once (issue 26 §1.2).

Two seats of one built-in bot are one participant to the ratings, so such a
match could never be rated: the table refuses the second copy, the host's menu
leaves it out and says why, and a match that got there anyway says on its
results panel that it was not rated instead of promising changes.
"""

from __future__ import annotations

from typing import cast

import pytest
from django.forms import ChoiceField

from gameplay import frames, lobby, services
from gameplay.agents import uploaded_agent
from gameplay.errors import BadRequest
from gameplay.forms import BotSeatForm
from gameplay.models import MatchStatus
from gameplay.services import SeatSpec
from league.models import RatingEvent
from league.ratings.selectors import REPEATED_BOT_NOTE, match_rating_changes
from league.ratings.services import rating_apply_match
from tests.factories import BotFactory, BotVersionFactory, UserFactory, finished_match

pytestmark = pytest.mark.django_db


def test_rated_table_refuses_a_second_copy_of_a_bot() -> None:
    host = UserFactory()
    table = lobby.table_create(host=host, game="kungfu2019", players=3, rated=True)
    lobby.table_fill_with_bot(match_id=table.pk, user=host, bot="heuristic")
    with pytest.raises(BadRequest, match="seats each bot once"):
        lobby.table_fill_with_bot(match_id=table.pk, user=host, bot="heuristic")
    table.refresh_from_db()
    assert table.status == MatchStatus.WAITING
    assert [s.agent for s in table.seats.order_by("number")] == [
        "",
        "builtin:heuristic",
        "",
    ]
    # Another bot is fine, and the table starts.
    lobby.table_fill_with_bot(match_id=table.pk, user=host, bot="random")
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE


def test_rated_match_refuses_two_versions_of_one_uploaded_bot() -> None:
    """Two versions of one uploaded bot are one participant to the ratings
    (different agent names, one bot): refused like a built-in bot twice."""
    person = UserFactory()
    tiger = BotFactory(name="Tiger", game="kungfu2019")
    v1 = BotVersionFactory(bot=tiger, number=1)
    v2 = BotVersionFactory(bot=tiger, number=2)
    other = BotVersionFactory(bot=BotFactory(name="Crane", game="kungfu2019"))
    seats = [
        SeatSpec(user=person),
        SeatSpec(agent=uploaded_agent(v1.pk)),
        SeatSpec(agent=uploaded_agent(v2.pk)),
    ]
    message = "seats each bot once: two seats of the Tiger would be one player"
    with pytest.raises(BadRequest, match=message):
        services.match_create(game="kungfu2019", seats=seats, rated=True)
    assert services.match_create(game="kungfu2019", seats=seats, rated=False)
    # Versions of two different bots are two players.
    seats[2] = SeatSpec(agent=uploaded_agent(other.pk))
    assert services.match_create(game="kungfu2019", seats=seats, rated=True)


def test_rated_table_refuses_another_version_of_a_seated_bot() -> None:
    host = UserFactory()
    tiger = BotFactory(name="Tiger", game="kungfu2019")
    v1 = BotVersionFactory(bot=tiger, number=1)
    v2 = BotVersionFactory(bot=tiger, number=2)
    table = lobby.table_create(host=host, game="kungfu2019", players=3, rated=True)
    seat = table.seats.get(number=1)
    seat.agent = uploaded_agent(v1.pk)
    seat.save(update_fields=["agent"])

    class NewestVersion:
        def seatable(self, game: str) -> list[tuple[str, str]]:
            return []

        def resolve(self, game: str, value: str) -> tuple[str, str] | None:
            return uploaded_agent(v2.pk), ""

    previous = lobby._uploaded_bots
    lobby.set_uploaded_bot_provider(NewestVersion())
    try:
        with pytest.raises(BadRequest, match="two seats of the Tiger"):
            lobby.table_fill_with_bot(
                match_id=table.pk, user=host, bot=f"upload:{tiger.pk}"
            )
    finally:
        lobby.set_uploaded_bot_provider(previous)
    assert table.seats.get(number=2).agent == ""


def test_casual_table_may_seat_one_bot_twice() -> None:
    host = UserFactory()
    table = lobby.table_create(host=host, game="kungfu2019", players=3)
    lobby.table_fill_with_bot(match_id=table.pk, user=host, bot="heuristic")
    lobby.table_fill_with_bot(match_id=table.pk, user=host, bot="heuristic")
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE


def test_match_create_refuses_a_rated_match_with_one_bot_twice() -> None:
    person = UserFactory()
    seats = [
        SeatSpec(user=person),
        SeatSpec(agent="builtin:heuristic"),
        SeatSpec(agent="builtin:heuristic"),
    ]
    with pytest.raises(BadRequest, match="could not be rated"):
        services.match_create(game="kungfu2019", seats=seats, rated=True)
    assert services.match_create(game="kungfu2019", seats=seats, rated=False)


def _bot_values(form: BotSeatForm) -> list[str]:
    field = form.fields["bot"]
    assert isinstance(field, ChoiceField)
    # django-stubs type the getter as the setter's union; it returns pairs.
    return [value for value, _ in cast("list[tuple[str, str]]", field.choices)]


def test_rated_bot_menu_leaves_out_seated_bots_and_says_why() -> None:
    seated = ("", "builtin:heuristic")
    rated = BotSeatForm(game="kungfu2019", rated=True, seated=seated)
    names = _bot_values(rated)
    assert "heuristic" not in names and "random" in names
    assert "each bot takes one seat" in rated.note
    casual = BotSeatForm(game="kungfu2019", rated=False, seated=seated)
    assert "heuristic" in _bot_values(casual)
    assert casual.note == ""
    every = tuple(f"builtin:{v}" for v in _bot_values(casual))
    assert not BotSeatForm(game="kungfu2019", rated=True, seated=every).has_choices


def test_unratable_match_says_so_instead_of_waiting_forever() -> None:
    person = UserFactory()
    match = finished_match(
        [person, "builtin:heuristic", "builtin:heuristic"],
        [1, 2, 3],
        game="kungfu2019",
    )
    results = rating_apply_match(match_id=match.pk)
    assert results and all(r.reason == "not ratable" for r in results)
    assert not RatingEvent.objects.filter(match=match).exists()
    extra = match_rating_changes(match)
    assert extra == {"rating_changes": [], "rating_note": REPEATED_BOT_NOTE}
    assert frames.spectator_frame(match=match)["rating_note"] == REPEATED_BOT_NOTE


def test_ratable_match_has_no_note_before_or_after_rating() -> None:
    person = UserFactory()
    match = finished_match(
        [person, "builtin:heuristic", "builtin:random"], [1, 2, 3], game="kungfu2019"
    )
    assert "rating_note" not in match_rating_changes(match)
    rating_apply_match(match_id=match.pk)
    extra = match_rating_changes(match)
    changes = extra["rating_changes"]
    assert "rating_note" not in extra and isinstance(changes, list)
    assert len(changes) == 3
