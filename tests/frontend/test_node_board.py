"""Run the front-end unit tests (node's built-in runner) as part of ``make test``.

The node suite reads the committed fixture and, here, also a corpus built now
from the engine and the selectors, so a change to the events, actions or frames
the server sends is checked against the board code in the same run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.frontend import corpus
from tests.frontend.node import NODE

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _run_node(env_corpus: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KFA_FRONTEND_CORPUS": str(env_corpus)}
    assert NODE is not None
    return subprocess.run(
        # The files by name (node 22+ reads a directory argument as a module) and
        # TAP, whose "# pass N" summary _count reads (node 23+ defaults to spec).
        [
            NODE,
            "--test",
            "--test-reporter=tap",
            *sorted(str(p) for p in HERE.glob("*.test.*js")),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def _count(output: str, name: str) -> int:
    found = re.findall(rf"^# {name} (\d+)$", output, flags=re.MULTILINE)
    assert found, f"node printed no '# {name}' summary:\n{output[-3000:]}"
    return int(found[-1])


@pytest.mark.django_db
def test_node_suite_passes_on_fixture_and_fresh_engine_corpus(tmp_path: Path) -> None:
    fresh = tmp_path / "corpus.json"
    corpus.write(fresh, corpus.build())
    result = _run_node(fresh)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert _count(output, "fail") == 0, output[-6000:]
    # A runner that found no files, or skipped the fresh corpus, must not pass.
    assert _count(output, "pass") >= 60, output[-3000:]
    assert "fresh: every event formats cleanly" in output
    assert "fixture: every event formats cleanly" in output


def test_fixture_is_a_real_corpus() -> None:
    """The committed fixture holds every event type the engine emits now."""
    data = corpus.engine_samples()
    fixture = json.loads(corpus.FIXTURE.read_text())
    assert {e["type"] for e in fixture["events"]} == {e["type"] for e in data["events"]}
    assert {a["type"] for a in fixture["actions"]} == {
        a["type"] for a in data["actions"]
    }
    assert set(fixture["phases"]) == set(data["phases"])
    assert fixture["labels"] == data["labels"]
