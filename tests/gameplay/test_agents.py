"""Agent names: built and read in one place (``gameplay.agents``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gameplay.agents import (
    TAKEOVER_BOT,
    Agent,
    AgentKind,
    AgentNameError,
    builtin_agent,
    builtin_bot_of,
    builtin_name,
    is_builtin,
    is_upload_choice,
    is_uploaded,
    is_uploaded_bot,
    parse_agent,
    played_by_bots_runner,
    plays_builtin,
    upload_choice,
    upload_choice_bot_id,
    uploaded_agent,
    uploaded_version_id,
)


@dataclass
class FakeSeat:
    agent: str = ""
    replaced_by_bot: bool = False
    forfeited: bool = False


def test_names_round_trip() -> None:
    assert builtin_agent("heuristic") == "builtin:heuristic"
    assert uploaded_agent(42) == "bot:42"
    assert Agent.parse("builtin:heuristic") == Agent(AgentKind.BUILTIN, bot="heuristic")
    assert Agent.parse("bot:42") == Agent(AgentKind.UPLOADED, version_id=42)
    for name in ("builtin:random", "builtin:ismcts", "bot:1", "bot:1234567"):
        assert str(Agent.parse(name)) == name


def test_a_person_or_an_open_seat_has_no_agent() -> None:
    assert parse_agent("") is None
    assert not is_builtin("") and not is_uploaded("")
    assert uploaded_version_id("") is None


@pytest.mark.parametrize(
    "text",
    [
        "builtin:",  # no bot
        "builtin: random",  # space
        "builtin:Random",  # not a bot's spelling
        "builtin:random:2",
        "bot:",  # no version
        "bot:abc",
        "bot:-1",
        "bot:1.5",
        "bot:007",  # not how an id is written: would not round-trip
        "bot:\u00b2",  # a digit to str.isdigit, not a number
        "upload:3",  # a lobby choice, not a seat's agent
        "user:3",
        "random",
        " builtin:random",
    ],
)
def test_malformed_names_are_refused(text: str) -> None:
    with pytest.raises(AgentNameError):
        Agent.parse(text)
    with pytest.raises(AgentNameError):
        parse_agent(text)


def test_reading_the_parts() -> None:
    assert builtin_name("builtin:random") == "random"
    with pytest.raises(AgentNameError):
        builtin_name("bot:3")
    assert uploaded_version_id("bot:3") == 3
    assert uploaded_version_id("bot:x") is None
    assert uploaded_version_id("builtin:random") is None


def test_lobby_choices_of_uploaded_bots() -> None:
    assert upload_choice(7) == "upload:7"
    assert is_upload_choice("upload:7") and not is_upload_choice("random")
    assert upload_choice_bot_id("upload:7") == 7
    assert upload_choice_bot_id("upload:seven") is None
    assert upload_choice_bot_id("bot:7") is None


def test_seat_rules() -> None:
    person = FakeSeat()
    builtin = FakeSeat(agent="builtin:random")
    left = FakeSeat(replaced_by_bot=True, forfeited=True)
    uploaded = FakeSeat(agent="bot:9")
    assert [plays_builtin(s) for s in (person, builtin, left, uploaded)] == [
        False,
        True,
        True,
        False,
    ]
    assert builtin_bot_of(builtin) == "random"
    assert builtin_bot_of(left) == TAKEOVER_BOT == "heuristic"
    assert is_uploaded_bot(uploaded)
    assert not is_uploaded_bot(FakeSeat(agent="bot:9", forfeited=True))
    assert not is_uploaded_bot(FakeSeat(agent="bot:9", replaced_by_bot=True))
    assert played_by_bots_runner([uploaded, builtin])
    assert not played_by_bots_runner([uploaded, person])
    assert not played_by_bots_runner([builtin, builtin])
