"""Worker side of the bot transport: JSON lines over a sandboxed process's pipes.

This is the plumbing under protocol v1 (``docs/protocol/bots.md``): it knows
nothing of games, only of lines, deadlines and faults. Every way a bot can
misbehave at this level ends in a typed :class:`BotFault` whose ``reason`` the
match runner records as the forfeit reason:

``timeout``           no complete answer before the deadline (move limit + bank);
``crash``             the process exited or closed its stdout (detail: exit status);
``malformed_output``  an answer that is not one JSON object on one UTF-8 line;
``line_too_long``     a line over the cap (64 KiB), detected without buffering more;
``illegal_action``    raised by callers when a well-formed answer breaks the rules.

The worker never blocks on the bot: all three pipes are non-blocking and one
``poll`` loop per call waits on them with the call's deadline, draining stderr
into a bounded ring buffer the whole time so a bot that floods stderr cannot
stall (it only ever loses its oldest stderr bytes).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import subprocess
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, NoReturn

from bots.runtimes import runtime_for_dir
from bots.sandbox import (
    SandboxConfig,
    SandboxedProcess,
    SandboxStatus,
    SandboxUnavailable,
    describe_exit,
    run_selftest,
    sandbox_available,
    spawn_sandboxed,
    spawn_unsandboxed,
)
from bots.sandbox.policy import BOT_MOUNT

logger = logging.getLogger(__name__)

# The worker-facing API in one place: the transport plus the sandbox's verdict.
__all__ = [
    "FAULT_REASONS",
    "LINE_CAP",
    "STDERR_CAP",
    "BotFault",
    "BotProcess",
    "SandboxStatus",
    "SandboxUnavailable",
    "TimeControl",
    "run_selftest",
    "sandbox_available",
    "storable_text",
]

#: Longest accepted line from a bot, newline excluded.
LINE_CAP = 64 * 1024
#: Exit status with which a runtime that meters compute itself (the WebAssembly
#: host's fuel) reports that the bot spent its budget: a ``timeout`` fault.
LIMIT_EXIT = 124
#: How much of a bot's stderr is kept (the most recent bytes) for its owner.
STDERR_CAP = 64 * 1024

FAULT_REASONS = frozenset(
    {"timeout", "crash", "malformed_output", "line_too_long", "illegal_action"}
)


def storable_text(text: str) -> str:
    """``text`` made safe for every database: no NUL, no lone surrogates.

    A bot controls its stderr and every string in its JSON. PostgreSQL refuses
    NUL in text columns and jsonb strings (the whole row is lost, and with it a
    match's logs or a validation's result), and a lone surrogate (a JSON
    escape such as ``\\ud800``) cannot be encoded as UTF-8 at all. NUL becomes
    U+2400 (the visible "symbol for null", so the owner still sees it was there)
    and a surrogate its backslash escape; everything else is kept.
    """
    if "\x00" in text:
        text = text.replace("\x00", "\u2400")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


class BotFault(Exception):
    """The bot broke the transport contract; it forfeits with ``reason``."""

    def __init__(self, reason: str, detail: str = "", *, stderr: str = "") -> None:
        if reason not in FAULT_REASONS:
            raise ValueError(f"unknown bot fault reason {reason!r}")
        self.reason = reason
        detail = storable_text(detail)
        self.detail = detail
        #: The bot's bounded stderr tail at the time of the fault, for its owner
        #: (made storable: see :func:`storable_text`).
        self.stderr = storable_text(stderr)
        super().__init__(f"{reason}: {detail}" if detail else reason)


@dataclass(frozen=True)
class TimeControl:
    """Protocol time limits, in seconds.

    ``startup`` covers process start to the first answer (interpreter start-up and
    the bot's imports). Each later answer may take ``per_move``; time beyond that is
    drawn from ``bank``, which never refills, so a bot can think longer on a few
    hard decisions but not on all of them.
    """

    startup: float = 5.0
    per_move: float = 1.0
    bank: float = 10.0


@dataclass
class _StderrRing:
    """Keeps the last ``cap`` bytes written to stderr and counts the rest."""

    cap: int = STDERR_CAP
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def feed(self, chunk: bytes) -> None:
        self.data += chunk
        excess = len(self.data) - self.cap
        if excess > 0:
            del self.data[:excess]
            self.dropped += excess


class BotProcess:
    """One running bot behind the line protocol.

    Use :meth:`start`, then :meth:`handshake` for the first exchange (start-up
    limit) and :meth:`request` for each decision (per-move limit plus bank). Always
    :meth:`close` it (or use it as a context manager): closing kills the whole
    sandbox, whatever state the bot is in.
    """

    def __init__(
        self,
        process: SandboxedProcess,
        *,
        time_control: TimeControl | None = None,
        line_cap: int = LINE_CAP,
        stderr_cap: int = STDERR_CAP,
        close_grace: float = 0.2,
    ) -> None:
        self.process = process
        self.close_grace = close_grace
        self.time_control = time_control or TimeControl()
        self.bank_left = self.time_control.bank
        self.line_cap = line_cap
        self._stderr = _StderrRing(cap=stderr_cap)
        self._buffer = bytearray()
        self._closed = False
        self._exit_status: int | None = None
        popen = process.popen
        assert popen.stdin and popen.stdout and popen.stderr
        self._in = popen.stdin.fileno()
        self._out = popen.stdout.fileno()
        self._err: int | None = popen.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._poll = select.poll()
        self._poll.register(self._out, select.POLLIN)
        self._poll.register(self._err, select.POLLIN)
        self._out_open = True

    # -- construction -------------------------------------------------------------

    @classmethod
    def start(
        cls,
        bot_dir: str | os.PathLike[str],
        *,
        config: SandboxConfig | None = None,
        time_control: TimeControl | None = None,
        allow_unsandboxed: bool = False,
        entrypoint: str | None = None,
        data_dir: str | os.PathLike[str] | None = None,
    ) -> BotProcess:
        """Start the bot in ``bot_dir`` (which holds ``entrypoint``) in the sandbox.

        Refuses with :class:`SandboxUnavailable` when the sandbox self-test has not
        passed on this machine, unless ``allow_unsandboxed`` is given: that flag is
        a development-only override (production settings refuse to set it) which
        runs the bot as a plain child process with rlimits only.
        """
        config = config or SandboxConfig()
        # The runtime (Python, Node, a compiled binary, WebAssembly) is told by
        # the tree's entry point; it adds its read-only files and limits.
        runtime = runtime_for_dir(bot_dir)
        run_config = runtime.sandbox_config(config)
        command = runtime.command(run_config)
        if entrypoint is not None and entrypoint != runtime.entrypoint:
            command = [
                f"{BOT_MOUNT}/{entrypoint}"
                if part.startswith(f"{BOT_MOUNT}/")
                else part
                for part in command
            ]
        status = sandbox_available(config)
        if status.ok:
            process = spawn_sandboxed(
                run_config, bot_dir=bot_dir, command=command, data_dir=data_dir
            )
        elif allow_unsandboxed:
            logger.warning(
                "running bot %s WITHOUT a sandbox (development override): %s",
                bot_dir,
                status.reason,
            )
            process = spawn_unsandboxed(run_config, bot_dir=bot_dir, command=command)
        else:
            raise SandboxUnavailable(
                "uploaded bots are refused: the bot sandbox is not available on this "
                f"worker ({status.reason})"
            )
        return cls(
            process,
            time_control=time_control,
            close_grace=config.close_grace_seconds,
        )

    # -- I/O ----------------------------------------------------------------------

    def send(self, message: dict[str, Any], *, deadline: float | None = None) -> None:
        """Write ``message`` as one JSON line.

        A bot that stops reading its stdin fills the pipe; the write then waits at
        most until ``deadline`` (monotonic seconds) before a ``timeout`` fault.
        """
        self._check_open()
        data = json.dumps(message, separators=(",", ":")).encode() + b"\n"
        if deadline is None:
            deadline = time.monotonic() + self.time_control.per_move
        view = memoryview(data)
        try:
            written = os.write(self._in, view)
        except BlockingIOError:
            written = 0
        except BrokenPipeError:
            self._raise_crash("stdin closed")
        if written == len(view):
            return
        view = view[written:]
        self._poll.register(self._in, select.POLLOUT)
        try:
            while view:
                self._wait(deadline, "writing to the bot")
                try:
                    view = view[os.write(self._in, view) :]
                except BlockingIOError:
                    continue
                except BrokenPipeError:
                    self._raise_crash("stdin closed")
        finally:
            self._poll.unregister(self._in)

    def receive(self, *, deadline: float) -> dict[str, Any]:
        """Read one JSON object line, waiting until ``deadline`` (monotonic)."""
        self._check_open()
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                if newline > self.line_cap:
                    self._fault("line_too_long", f"line exceeds {self.line_cap} bytes")
                line = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                return self._decode(line)
            if len(self._buffer) > self.line_cap:
                self._fault("line_too_long", f"line exceeds {self.line_cap} bytes")
            if not self._out_open:
                self._raise_crash("stdout closed")
            self._wait(deadline, "waiting for an answer")

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` and return the answer within the move limit plus bank."""
        return self._timed_exchange(message, self.time_control.per_move, bank=True)

    def handshake(self, message: dict[str, Any]) -> dict[str, Any]:
        """First exchange (e.g. hello -> ready), within the start-up limit."""
        return self._timed_exchange(message, self.time_control.startup, bank=False)

    def _timed_exchange(
        self, message: dict[str, Any], limit: float, *, bank: bool
    ) -> dict[str, Any]:
        started = time.monotonic()
        allowed = limit + (self.bank_left if bank else 0.0)
        deadline = started + allowed
        self.send(message, deadline=deadline)
        answer = self.receive(deadline=deadline)
        if bank:
            overage = time.monotonic() - started - limit
            if overage > 0:
                self.bank_left = max(0.0, self.bank_left - overage)
        return answer

    # -- internals ----------------------------------------------------------------

    def _check_open(self) -> None:
        """Refuse I/O after close: the pipe descriptors' numbers may already belong
        to another file (a database socket, say), so they must never be touched."""
        if self._closed:
            raise BotFault("crash", "the bot process is already closed")

    def _decode(self, line: bytes) -> dict[str, Any]:
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as exc:  # incl. UnicodeDecodeError
            self._fault("malformed_output", f"not JSON: {exc}")
        if not isinstance(value, dict):
            self._fault("malformed_output", "a line must hold one JSON object")
        return value

    def _wait(self, deadline: float, doing: str) -> None:
        """Poll once until ``deadline``; move whatever arrived into the buffers."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            self._fault("timeout", f"deadline passed while {doing}")
        events = self._poll.poll(max(1, int(remaining * 1000 + 0.999)))
        for fd, _mask in events:
            if fd == self._out:
                self._read_stdout()
            elif fd == self._err:
                self._read_stderr()

    def _read_stdout(self) -> None:
        # Never read much past the cap: a 100 MiB line costs at most ~2 chunks.
        want = max(4096, self.line_cap + 1 - len(self._buffer))
        try:
            chunk = os.read(self._out, want)
        except BlockingIOError:
            return
        if not chunk:
            self._out_open = False
            self._poll.unregister(self._out)
            return
        self._buffer += chunk
        # Also bound what piles up while the worker is busy writing to the bot or
        # has not asked for anything: a bot must not grow the worker's memory.
        if len(self._buffer) > self.line_cap:
            if self._buffer.find(b"\n", 0, self.line_cap + 1) < 0:
                self._fault("line_too_long", f"line exceeds {self.line_cap} bytes")
            if len(self._buffer) > 4 * self.line_cap:
                self._fault("malformed_output", "too much output nobody asked for")

    def _read_stderr(self) -> None:
        if self._err is None:
            return
        try:
            chunk = os.read(self._err, 65536)
        except BlockingIOError:
            return
        if chunk:
            self._stderr.feed(chunk)
        else:
            self._poll.unregister(self._err)
            self._err = None

    def _drain_stderr(self) -> None:
        while self._err is not None:
            try:
                chunk = os.read(self._err, 65536)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                self._err = None
                return
            self._stderr.feed(chunk)

    def _raise_crash(self, what: str) -> NoReturn:
        # Give the process a moment to finish exiting so the status is real.
        try:
            rc: int | None = self.process.popen.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            rc = None
        if rc == LIMIT_EXIT:
            # A runtime that meters compute itself (WebAssembly fuel) ended
            # the bot for spending its budget: that is running out of time.
            self._drain_stderr()
            self._fault("timeout", "the bot spent its compute budget (fuel)")
        self._fault("crash", f"{what}; {describe_exit(rc)}")

    def _fault(self, reason: str, detail: str) -> NoReturn:
        """Kill the bot and raise: a faulted bot is never talked to again."""
        self.close()
        raise BotFault(reason, detail, stderr=self.stderr_tail)

    # -- lifecycle ----------------------------------------------------------------

    @property
    def stderr_tail(self) -> str:
        """The last bytes of the bot's stderr (bounded), for its owner's log."""
        self._drain_stderr()
        prefix = (
            f"[... {self._stderr.dropped} earlier bytes dropped ...]\n"
            if self._stderr.dropped
            else ""
        )
        return storable_text(prefix + self._stderr.data.decode(errors="replace"))

    @property
    def exit_status(self) -> int | None:
        """bwrap's exit status once closed (128+N means killed by signal N)."""
        return self._exit_status

    def close(self, *, grace: float | None = None) -> None:
        """End the bot: close stdin, allow a short grace (``close_grace``, or
        ``grace`` when given), then kill everything.

        Idempotent; guarantees no process of this bot survives when it returns.
        """
        if self._closed:
            return
        self._closed = True
        popen = self.process.popen
        try:
            assert popen.stdin is not None
            popen.stdin.close()
        except OSError:
            pass
        wait = self.close_grace if grace is None else grace
        self._await_exit(time.monotonic() + wait)
        self._drain_stderr()
        self._exit_status = self.process.kill()
        for stream in (popen.stdout, popen.stderr):
            if stream is not None:
                stream.close()

    def _await_exit(self, deadline: float) -> None:
        """Give the bot until ``deadline`` to exit on its own, collecting stderr.

        Event-driven: stderr reaches EOF exactly when the last process holding it
        (the bot and bwrap) is gone, so there is no sleep-polling. Extra stdout is
        read and dropped so a bot blocked on a full stdout pipe can still exit.
        """
        popen = self.process.popen
        while popen.poll() is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            fds = [fd for fd in (self._err, self._out if self._out_open else None)
                   if fd is not None]  # fmt: skip
            if not fds:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    popen.wait(timeout=remaining)
                return
            ready, _, _ = select.select(fds, [], [], remaining)
            for fd in ready:
                if fd == self._err:
                    self._read_stderr()
                else:
                    self._discard_stdout()

    def _discard_stdout(self) -> None:
        try:
            chunk = os.read(self._out, 65536)
        except BlockingIOError:
            return
        if not chunk:
            self._out_open = False
            self._poll.unregister(self._out)

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        # Last resort for a caller that forgot close(): never leave a bot running.
        if not getattr(self, "_closed", True):
            with contextlib.suppress(Exception):
                self.close()
