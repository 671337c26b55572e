"""Whatever a bot answers, the player accepts exactly the legal ids (hypothesis).

The transport is faked here (no sandbox): these tests are about the protocol's
answer rules, which the sandboxed runner tests exercise end to end.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots.protocol.match import ProcessAgent
from bots.protocol.transport import BotFault, TimeControl
from gameplay.rules import get_game

GAME = get_game("duelo")
# The first deal whose opening decision has a menu of three or more actions.
STATE = next(
    state
    for seed in range(100)
    if len(
        GAME.legal_action_ids(
            state := GAME.setup(GAME.validate_config({"players": 2}), seed),
            GAME.actors(state)[0],
        )
    )
    >= 3
)
SEAT = GAME.actors(STATE)[0]
LEGAL = GAME.legal_action_ids(STATE, SEAT)


class FakeProcess:
    """Answers every request with a canned object and records what it was sent."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.sent: list[dict[str, Any]] = []
        self.bank_left = 10.0
        self.closed = False
        self.stderr_tail = "tail"

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(message)
        return self.answer

    def handshake(self, message: dict[str, Any]) -> dict[str, Any]:
        return self.request(message)

    def close(self) -> None:
        self.closed = True


def agent_answering(answer: dict[str, Any]) -> tuple[ProcessAgent, FakeProcess]:
    agent = ProcessAgent(
        "/nonexistent", seat=SEAT, label="t", time_control=TimeControl()
    )
    fake = FakeProcess(answer)
    agent.process = fake  # type: ignore[assignment]
    return agent, fake


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(st.dictionaries(st.text(max_size=8), json_values, max_size=4), json_values)
def test_only_a_legal_string_action_is_accepted(extra, action):
    answer = {**extra, "action": action}
    agent, fake = agent_answering(answer)
    try:
        chosen = agent.decide(GAME, STATE, SEAT, [], 0)
    except BotFault as fault:
        assert fault.reason in ("malformed_output", "illegal_action")
        if not isinstance(action, str):
            assert fault.reason == "malformed_output"
        else:
            assert action not in LEGAL and fault.reason == "illegal_action"
        assert fake.closed and fault.stderr == "tail"
        return
    assert chosen == action and chosen in LEGAL
    assert not fake.closed


@pytest.mark.parametrize("action", LEGAL)
def test_every_legal_id_is_accepted_and_the_request_is_the_seat_view(action):
    agent, fake = agent_answering({"action": action, "comment": "ignored"})
    assert agent.decide(GAME, STATE, SEAT, [], 3) == action
    (request,) = fake.sent
    assert request["observation"] == GAME.observe(STATE, SEAT)
    assert [a["id"] for a in request["legal"]] == LEGAL
    assert request["version"] == 3 and request["step"] == 1
    assert request["deadline_ms"] == 11_000


@pytest.mark.parametrize("answer", [{}, {"ready": 1}, {"ready": "yes"}])
def test_hello_needs_ready_true(answer):
    agent, fake = agent_answering(answer)
    with pytest.raises(BotFault, match="malformed_output"):
        agent.greet({"type": "hello"})
    assert fake.closed
