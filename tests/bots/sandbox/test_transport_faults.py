"""Bots that break the line protocol: silence, lateness, huge lines, garbage,
stderr floods and crashes each end in a typed BotFault (or, for stderr, in a
bounded log) without the worker ever blocking."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bots.protocol.transport import STDERR_CAP, BotFault, TimeControl

from .conftest import StartBot, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.sandbox]


def test_bot_that_never_answers_times_out(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        while read() is not None:
            pass
        """,
        time_control=TimeControl(startup=0.5, per_move=0.2, bank=0),
    )
    started = time.monotonic()
    with pytest.raises(BotFault) as fault:
        bot.handshake({"type": "hello"})
    assert fault.value.reason == "timeout"
    assert 0.45 <= time.monotonic() - started < 3.0


def test_bot_that_never_starts_times_out(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        time.sleep(60)
        """,
        time_control=TimeControl(startup=0.4),
    )
    with pytest.raises(BotFault) as fault:
        bot.handshake({"type": "hello"})
    assert fault.value.reason == "timeout"


def test_late_answers_drain_the_bank_then_time_out(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        answer({"ready": True})
        while (msg := read()) is not None:
            time.sleep(msg["sleep"])
            answer({"slept": msg["sleep"]})
        """,
        time_control=TimeControl(startup=5, per_move=0.3, bank=0.6),
    )
    bot.handshake({})
    assert bot.request({"sleep": 0.05}) == {"slept": 0.05}
    assert bot.bank_left == pytest.approx(0.6)  # in time: the bank is untouched
    assert bot.request({"sleep": 0.6}) == {"slept": 0.6}  # ~0.3 s over, from the bank
    assert 0.1 <= bot.bank_left <= 0.31
    with pytest.raises(BotFault) as fault:
        bot.request({"sleep": 1.2})  # 0.3 s per move + at most 0.3 s of bank
    assert fault.value.reason == "timeout"


def test_hundred_mebibyte_line_is_cut_off_early(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        chunk = "x" * (1 << 20)
        for _ in range(100):
            sys.stdout.write(chunk)
        sys.stdout.write("\\n")
        """
    )
    started = time.monotonic()
    with pytest.raises(BotFault) as fault:
        bot.handshake({})
    assert fault.value.reason == "line_too_long"
    assert time.monotonic() - started < 3.0
    assert len(bot._buffer) <= 2 * 65536  # never buffered the whole line


@pytest.mark.parametrize(
    "line", ["this is not json", "[1, 2, 3]", '{"unterminated": ', "\xff\xfe"]
)
def test_garbage_output_is_malformed(start_bot: StartBot, line: str) -> None:
    bot = start_bot(
        f"""
        read()
        sys.stdout.buffer.write({line!r}.encode("latin-1") + b"\\n")
        sys.stdout.flush()
        time.sleep(5)
        """
    )
    with pytest.raises(BotFault) as fault:
        bot.handshake({})
    assert fault.value.reason == "malformed_output"


@pytest.mark.parametrize(
    "payload",
    ['{"deep": ' + "[" * 5000 + "]" * 5000 + "}", '{"big": ' + "9" * 60000 + "}"],
    ids=["nested-5000", "60000-digit-number"],
)
def test_pathological_json_is_malformed_not_a_worker_error(
    start_bot: StartBot, payload: str
) -> None:
    """Nesting that overflows the decoder's recursion limit, or an integer too
    long to convert, must end as a bot fault, never as an exception that would
    take the match runner down."""
    bot = start_bot(
        f"""
        read()
        sys.stdout.write({payload!r} + "\\n")
        sys.stdout.flush()
        time.sleep(5)
        """
    )
    with pytest.raises(BotFault) as fault:
        bot.handshake({})
    assert fault.value.reason == "malformed_output"


def test_stderr_flood_is_bounded_and_does_not_block(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        junk = "e" * 65536
        for _ in range(800):  # 50 MiB of stderr before answering
            sys.stderr.write(junk)
        sys.stderr.write("LAST-WORDS\\n")
        sys.stderr.flush()
        answer({"ok": True})
        """
    )
    assert bot.handshake({}) == {"ok": True}
    bot.close()
    tail = bot.stderr_tail
    assert tail.rstrip().endswith("LAST-WORDS")
    assert len(tail.encode()) <= STDERR_CAP + 100
    assert "earlier bytes dropped" in tail


def test_crash_reports_exit_code_and_stderr(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        sys.stderr.write("about to fail\\n")
        sys.exit(3)
        """
    )
    with pytest.raises(BotFault) as fault:
        bot.handshake({})
    assert fault.value.reason == "crash"
    assert "exit code 3" in fault.value.detail
    assert "about to fail" in fault.value.stderr


def test_illegal_action_fault_is_typed_and_reasons_are_closed() -> None:
    fault = BotFault("illegal_action", "action 99 is not legal")
    assert fault.reason == "illegal_action"
    assert str(fault) == "illegal_action: action 99 is not legal"
    with pytest.raises(ValueError):
        BotFault("bad_vibes")


def test_bot_that_stops_reading_cannot_block_the_worker(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        time.sleep(60)
        """,
        time_control=TimeControl(startup=5, per_move=0.3, bank=0),
    )
    big = {"blob": "y" * (1 << 20)}  # far more than a pipe buffer
    started = time.monotonic()
    with pytest.raises(BotFault) as fault:
        bot.request(big)
    assert fault.value.reason == "timeout"
    assert time.monotonic() - started < 3.0


def test_io_after_close_is_a_fault_not_a_write_to_a_reused_descriptor(
    start_bot: StartBot, tmp_path: Path
) -> None:
    bot = start_bot(
        """
        while (msg := read()) is not None:
            answer(msg)
        """
    )
    assert bot.handshake({"n": 1}) == {"n": 1}
    bot.close()
    # Whatever opens next may get the bot's old descriptor number.
    with open(tmp_path / "innocent.txt", "w+") as innocent:
        with pytest.raises(BotFault) as fault:
            bot.send({"type": "game_over"})
        assert fault.value.reason == "crash"
        with pytest.raises(BotFault):
            bot.receive(deadline=time.monotonic() + 0.1)
        innocent.seek(0)
        assert innocent.read() == ""


@pytest.mark.parametrize("newlines", [False, True], ids=["one-line", "many-lines"])
def test_output_flood_while_the_worker_writes_is_bounded(
    start_bot: StartBot, newlines: bool
) -> None:
    """A bot that floods stdout and never reads stdin, while the worker is stuck
    writing a big message to it: the worker's buffer must stay bounded."""
    bot = start_bot(
        f"""
        chunk = ("x" * 1000 + "\\n") if {newlines!r} else "x" * 65536
        while True:
            sys.stdout.write(chunk)
        """,
        time_control=TimeControl(startup=5, per_move=2, bank=0),
    )
    with pytest.raises(BotFault) as fault:
        bot.send({"blob": "y" * (1 << 20)}, deadline=time.monotonic() + 2)
    assert fault.value.reason in {"line_too_long", "malformed_output"}
    assert len(bot._buffer) <= 4 * 65536 + 65536


def test_bot_that_closes_stdout_but_keeps_running_crashes_at_once(
    start_bot: StartBot,
) -> None:
    """docs/protocol/bots.md: a closed stdout is a crash, found at once rather
    than at the deadline (only the bot holds the write end of its stdout pipe,
    not bwrap's monitor process)."""
    bot = start_bot(
        """
        read()
        os.close(1)
        time.sleep(60)
        """,
        time_control=TimeControl(startup=10, per_move=10, bank=0),
    )
    started = time.monotonic()
    with pytest.raises(BotFault) as fault:
        bot.handshake({"type": "hello"})
    assert fault.value.reason == "crash"
    assert "stdout closed" in str(fault.value)
    assert time.monotonic() - started < 2.0
