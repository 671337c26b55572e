"""The committed Kung Fu (2013) board fixture matches what the engine sends now."""

from __future__ import annotations

import json

from tests.frontend import kungfu2013_fixture


def test_fixture_is_current() -> None:
    committed = json.loads(kungfu2013_fixture.OUT.read_text())
    assert committed == json.loads(json.dumps(kungfu2013_fixture.build())), (
        "run python -m tests.frontend.kungfu2013_fixture"
    )
