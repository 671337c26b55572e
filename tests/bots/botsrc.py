"""Sources of small test bots, well-behaved and misbehaving, as upload bytes."""

from __future__ import annotations

import io
import zipfile

FIRST_LEGAL = b"""
import kungfu_bot

GAME = "duelo"

kungfu_bot.run(lambda turn: turn.legal_ids[0])
"""


def realtime_crasher(*, game: str, tick: int) -> bytes:
    """A real-time bot that passes until ``tick``, then exits with code 4."""
    return f"""
import kungfu_bot

GAME = "{game}"

def choose(turn):
    if turn.tick >= {tick}:
        raise SystemExit(4)
    return kungfu_bot.PASS

kungfu_bot.run(choose)
""".encode()


def realtime_passer(*, game: str) -> bytes:
    """A real-time bot that passes at every tick: asked at each one, since it
    never claims (a claim's check pauses the table and nobody is asked)."""
    return f"""
import kungfu_bot

GAME = "{game}"

kungfu_bot.run(lambda turn: kungfu_bot.PASS)
""".encode()


def realtime_misbehaver(*, game: str, tick: int, fault: str) -> bytes:
    """A real-time bot that passes until ``tick``, then ``fault``s: ``hang``
    (sleeps past every limit), ``flood`` (a line over the cap) or ``illegal``
    (an id not on the menu)."""
    acts = {
        "hang": "time.sleep(60)",
        "flood": 'sys.stdout.write("x" * 200_000 + "\\n"); sys.stdout.flush()',
        "illegal": 'return "claim:nothing"',
    }
    return f"""
import sys
import time
import kungfu_bot

GAME = "{game}"

def choose(turn):
    if turn.tick >= {tick}:
        {acts[fault]}
    return kungfu_bot.PASS

kungfu_bot.run(choose)
""".encode()


# Prints stderr lines, then plays the first legal action.
CHATTY = b"""
import sys
import kungfu_bot

def choose(turn):
    print("thinking about step", turn.step, file=sys.stderr)
    return turn.legal_ids[-1]

kungfu_bot.run(choose)
"""

GARBAGE = b"""
import sys
sys.stdin.readline()
print('{"ready": true}', flush=True)
sys.stdin.readline()
print("this is not json", flush=True)
sys.stdin.read()
"""

ILLEGAL = b"""
import kungfu_bot
kungfu_bot.run(lambda turn: "card:99")
"""

SLEEPER = b"""
import time
import kungfu_bot

def choose(turn):
    if turn.step >= 2:
        time.sleep(30)
    return turn.legal_ids[0]

kungfu_bot.run(choose)
"""

CRASHER = b"""
import sys
import kungfu_bot

def choose(turn):
    print("about to crash", file=sys.stderr, flush=True)
    raise SystemExit(3)

kungfu_bot.run(choose)
"""

NO_HELLO = b"""
import sys
print("I refuse", file=sys.stderr)
"""


def zip_bytes(
    files: dict[str, bytes | str], *, symlinks: dict[str, str] | None = None
) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        for name, target in (symlinks or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o120777 << 16
            archive.writestr(info, target)
    return buffer.getvalue()


# Answers hello, then one 100 KiB line.
LONG_LINE = b"""
import sys
sys.stdin.readline()
print('{"ready": true}', flush=True)
sys.stdin.readline()
print('{"action": "' + "x" * 100_000 + '"}', flush=True)
sys.stdin.read()
"""
