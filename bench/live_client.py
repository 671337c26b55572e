"""The WebSocket player client the live benchmarks share.

``bench/live_load.py`` (Duelo pairs) and ``bench/live_realtime.py`` (Kung Fu
(2009) tables of 8) each play their own game with their own bookkeeping
(what a pending intent waits for, what counts as lost, what is reported), but
the way a benchmark seat talks to the server is one and the same, and a
protocol change (a new frame field, a new handshake header) has to reach both
or the two figures stop being comparable. That part lives here:

* :func:`open_match_socket`: the seat's socket to ``/ws/match/<id>/`` with its
  session cookie and the page's Origin, three attempts, every failure counted;
* :func:`fill_menu`: putting back a menu a step's frame left out (named by
  ``legal_digest``), as the live page does;
* :func:`run_seat`: one seat's reader and act loop side by side, the socket
  closed in order at the end;
* :func:`put_report` and :func:`report_every_second`: the messages a client
  process sends its parent's collector, ``(kind, pid, payload)`` with kind
  ``progress`` (each second) or ``result`` (once, at the end);
* :func:`run_client`: a client process's entry (uvloop when installed).

Each benchmark keeps its own frame reader and act loop: what answers an
intent differs (Duelo: any newer version; Kung Fu: the version the ack names,
the frame possibly before the ack, late answers counted apart), so those only
look alike. The server side (database, Redis, uvicorn, CPU accounting, the
ordered tear-down) stays in ``bench/live_load.py``, which ``live_realtime.py``
and ``live_move_cpu.py`` import it from.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol


class SeatSocket(Protocol):
    """What :func:`run_seat` needs of a seat's record."""

    ws: Any
    closing: bool


async def open_match_socket(
    *,
    url: str,
    origin: str,
    match_id: str,
    cookie: str,
    error: Callable[[str], None],
):
    """The seat's socket, or None after three failed attempts (each counted
    through ``error`` as ``connect:<exception>``)."""
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    for attempt in range(3):
        try:
            return await connect(
                f"{url}/ws/match/{match_id}/",
                origin=Origin(origin),
                additional_headers={"Cookie": f"sessionid={cookie}"},
                proxy=None,
                ping_interval=None,
                open_timeout=10,
                max_size=2**22,
            )
        except Exception as exc:  # every failure is counted
            error(f"connect:{type(exc).__name__}")
            await asyncio.sleep(1.0 + attempt)
    return None


def fill_menu(frame: dict[str, Any], held: dict[str, Any]) -> bool:
    """Put back the menu a step's frame left out (docs/protocol/live.md: it
    names the seat's unchanged menu by ``legal_digest``), as the page does.
    ``held`` keeps the last menu ({"digest", "legal"}). False: the frame names
    a menu we do not hold (no choices until a full frame: ask with ``sync``).
    A frame older than the held menu's (it crossed a newer one on the way) is
    not shown, so it neither replaces the menu nor needs one."""
    digest = frame.get("legal_digest")
    version = frame.get("version", 0)
    if version < held.get("version", -1):
        frame.setdefault("legal", [])
        return True
    if "legal" in frame:
        if digest is not None:
            held.update(digest=digest, legal=frame["legal"], version=version)
        return True
    if digest is not None and held.get("digest") == digest:
        frame["legal"] = held["legal"]
        held["version"] = version
        return True
    frame["legal"] = []
    return False


async def run_seat(
    seat: SeatSocket,
    *,
    read: Callable[[], Coroutine[Any, Any, None]],
    act: Callable[[], Awaitable[None]],
) -> None:
    """Run the seat's reader beside its act loop until the act loop ends;
    then close the socket (``closing`` first, so the reader does not count
    our own close as a disconnect) and wait for the reader."""
    from websockets.exceptions import ConnectionClosed

    reader = asyncio.create_task(read())
    try:
        # A closed socket ends the act loop; the reader has counted it.
        with contextlib.suppress(ConnectionClosed):
            await act()
    finally:
        seat.closing = True
        with contextlib.suppress(Exception):
            await seat.ws.close()
        with contextlib.suppress(asyncio.CancelledError):
            await reader


def put_report(reports: Any, kind: str, payload: dict[str, Any]) -> None:
    """One message to the parent's collector (``reports`` is its queue)."""
    reports.put((kind, os.getpid(), payload))


async def report_every_second(
    reports: Any,
    records: list[Any],
    progress: Callable[[list[Any]], dict[str, Any]],
) -> None:
    """Until cancelled: a ``progress`` report each second, its payload
    ``progress(fresh)``, fresh being what was appended to ``records`` (the
    client's list of measured intents, only ever appended to) since the last
    report."""
    reported = 0
    while True:
        await asyncio.sleep(1.0)
        fresh = records[reported:]
        reported += len(fresh)
        put_report(reports, "progress", progress(fresh))


def run_client(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """A client process's entry: run ``main()`` on uvloop when installed.
    SIGINT is ignored: the parent stops its clients in order.

    Without the cyclic garbage collector: a client holds every seat's latest
    frame (parsed JSON, hundreds of containers each), so its full collections
    took 7-20 ms, a pause in which none of its 200 sockets' frames is read
    and every round trip in flight is measured that much longer (seen as
    bursts of slow answers that no server-side delay explained). A client
    lives a couple of minutes and its cyclic garbage is small; the server's
    collector is untouched."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()
    gc.disable()
    try:
        import uvloop

        uvloop.run(main())
    except ImportError:
        asyncio.run(main())
