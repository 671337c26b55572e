"""Hostile JSON against every API endpoint and every live-socket frame type.

The endpoints are enumerated from the URL configuration, so a new endpoint is
fuzzed without anyone listing it. Whatever arrives (deep nesting, huge numbers,
wrong types, long strings, odd keys) the answer is a 4xx with a JSON body, never
a 500 and never an HTML page; on the socket, an error frame, and the connection
stays usable.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient
from rest_framework.views import APIView

from config.routing import websocket_urlpatterns
from tests.factories import LeagueFactory, SeasonFactory, UserFactory
from tests.gameplay.conftest import start_match

# Answers that are not JSON by design: the OpenAPI document and the Swagger page.
NOT_JSON = ("api/schema/", "api/docs/")
KEYS = [
    "game",
    "players",
    "options",
    "rated",
    "time_control",
    "spectator_delay",
    "action",
    "version",
    "username",
    "bot",
    "bot_id",
    "participants",
    "participant_ids",
    "name",
    "format",
    "season",
    "league",
    "order",
    "claim",
    "decision",
    "page",
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**20, -(10**20), 2**63, -1, 0]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["duelo", "x" * 5000, "\x00", "\ud7ff\U0010ffff", "1e999"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def deep(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


BODIES = st.one_of(
    st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6).map(json.dumps),
    VALUES.map(json.dumps),
    st.integers(min_value=40, max_value=5000).map(deep),
    st.integers(min_value=40, max_value=3000).map(
        lambda n: '{"a":' * n + "1" + "}" * n
    ),
    st.integers(min_value=40, max_value=3000).map(
        lambda n: '{"options": ' + deep(n) + "}"
    ),
    st.sampled_from(["", "{", "nul", '{"a": 1e99999}', "[" * 100_000, "\xff\xfe"]),
)


def api_routes() -> list[str]:
    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern)

    routes = sorted({r for r in walk(get_resolver().url_patterns)})
    return [r for r in routes if r.startswith("api/")]


ROUTES = api_routes()


def test_the_route_list_covers_the_api():
    assert "api/tables/" in ROUTES and "api/auth/token/" in ROUTES
    assert any(r.startswith("api/tournaments/") for r in ROUTES)
    assert len(ROUTES) >= 30


@pytest.fixture
def world(db):
    """One of each thing an id in a path can point at."""
    users = [UserFactory(username=f"fz{i}") for i in range(3)]
    match = start_match(users[:2])
    league = LeagueFactory()
    season = SeasonFactory(league=league, status="running")
    return {"user": users[0], "match": match, "league": league, "season": season}


def fill(route: str, world: dict, variant: int) -> str:
    """A concrete path for ``route``: real ids, then hostile ones."""
    hostile = variant % 2 == 1

    def value(kind: str, name: str) -> str:
        if kind == "uuid":
            return str(uuid.uuid4()) if hostile else str(world["match"].public_id)
        if kind == "int":
            return str(10**20) if hostile else str(world["season"].pk)
        if kind == "slug":
            return "x" * 300 if hostile else world["league"].slug
        if name in ("action", "answer"):
            return ["join", "leave", "start", "bot", "accept", "nonsense"][variant % 6]
        return "\u00fc" * 40 if hostile else world["user"].username

    return "/" + re.sub(
        r"<(?:(\w+):)?(\w+)>",
        lambda m: value(str(m.group(1) or "str"), str(m.group(2))),
        route,
    )


def assert_clean(route: str, response) -> None:
    assert response.status_code < 500, (route, response.status_code, response.content)
    if route not in NOT_JSON:
        assert response["Content-Type"].startswith("application/json"), (
            route,
            response.status_code,
            response["Content-Type"],
            response.content[:200],
        )
        json.loads(response.content or b"null")


@pytest.fixture
def unthrottled(monkeypatch):
    monkeypatch.setattr(APIView, "get_throttles", lambda self: [])


@pytest.mark.parametrize("route", ROUTES)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=BODIES, variant=st.integers(min_value=0, max_value=11))
def test_hostile_json_never_breaks_an_endpoint(
    route, world, unthrottled, body, variant
):
    client = APIClient()
    client.force_authenticate(world["user"])
    path = fill(route, world, variant)
    for method in ("post", "put", "patch", "delete"):
        response = getattr(client, method)(
            path, data=body, content_type="application/json"
        )
        assert_clean(route, response)


@pytest.mark.parametrize("route", ROUTES)
def test_hostile_query_strings_and_ids(route, world, unthrottled):
    client = APIClient()
    client.force_authenticate(world["user"])
    for variant in range(4):
        path = fill(route, world, variant)
        query = {
            "game": "x" * 500,
            "status": "\x00",
            "player": "\u00fc" * 100,
            "page": str(10**20),
            "perspective": "seat:" + "9" * 30,
            "format": "json",
        }
        assert_clean(route, client.get(path, query))


def test_nesting_a_thousand_deep_is_a_clear_400(world):
    client = APIClient()
    client.force_authenticate(world["user"])
    response = client.post(
        "/api/tables/", data=deep(1000), content_type="application/json"
    )
    assert response.status_code == 400
    assert "nested deeper" in response.json()["detail"]


# --- the live socket: every frame type with hostile fields -------------------------

FRAME_TYPES = ["act", "sync", "resign", "abort", "claim", "ping", "nope", ""]
FRAMES = st.one_of(
    st.builds(
        lambda kind, fields: json.dumps({"type": kind, **fields}),
        st.sampled_from(FRAME_TYPES),
        st.dictionaries(
            st.sampled_from(["action", "version", "claim", "seat", "request_id"]),
            VALUES,
            max_size=4,
        ),
    ),
    VALUES.map(json.dumps),
    st.integers(min_value=40, max_value=2000).map(deep),
    st.integers(min_value=40, max_value=1000).map(
        lambda n: '{"type": "act", "action": ' + deep(n) + "}"
    ),
    st.text(max_size=100),
)


@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(frames=st.lists(FRAMES, min_size=1, max_size=5))
def test_hostile_frames_never_break_the_live_socket(live_match, frames):
    match, user = live_match
    async_to_sync(_play_frames)(match, user, frames)


@pytest.fixture
def live_match(transactional_db):
    users = [UserFactory(username=f"sock{i}") for i in range(2)]
    return start_match(users), users[0]


async def _play_frames(match, user, frames: list[str]) -> None:
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns),  # type: ignore[arg-type]
        f"/ws/match/{match.public_id}/",
    )
    comm.scope["user"] = user  # type: ignore[typeddict-unknown-key]
    connected, _ = await comm.connect(timeout=10)
    assert connected
    for text in frames:
        # send_input, not send_to: an empty text frame is a frame too.
        await comm.send_input({"type": "websocket.receive", "text": text})
    await comm.send_to(text_data=json.dumps({"type": "ping", "request_id": "alive"}))
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame.get("type") == "pong" and frame.get("request_id") == "alive":
            break
        assert frame["type"] in ("state", "history", "error", "ack", "pong", "chat"), (
            frame
        )
        if frame["type"] == "error":
            assert frame["code"] != "server_error", frame
    await comm.disconnect()
