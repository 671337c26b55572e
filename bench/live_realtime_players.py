"""The players of ``bench/live_realtime.py``: eight seats a table, each a
WebSocket client choosing its next real-time intent from its newest frame.

What a seat does and how each intent's answer is timed is described in
``bench/live_realtime.py``'s docstring ("Players"); the socket client itself is
``bench/live_client.py``. The benchmark starts :func:`client_main` in its
client processes, one plan (tables, cookies, windows) each; every process
reports its records on the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import time
from collections import Counter
from typing import Any

from bench import live_client

THINK_S = tuple(
    float(x) for x in os.environ.get("LIVE_RT_THINK_S", "1.0,3.0").split(",")
)


CLICK_S = tuple(
    float(x) for x in os.environ.get("LIVE_RT_CLICK_S", "0.25,0.6").split(",")
)


ANSWER_TIMEOUT_S = 5.0


# Engine refusals: the intent met a state it no longer fits (real time).
REFUSALS = ("illegal_action", "not_your_turn")


class Pending:
    """One sent intent, waiting for its answer."""

    __slots__ = (
        "ack_version",
        "acked",
        "code",
        "refused_at",
        "rid",
        "sent",
        "shown",
        "since",
    )

    def __init__(self, rid: str, sent: float, since: int) -> None:
        self.rid = rid
        self.sent = sent
        self.since = since  # frames received before the send
        self.acked: float | None = None
        self.ack_version: int | None = None
        self.shown: float | None = None
        self.code: str | None = None
        self.refused_at: float | None = None


class Seat:
    """What one seat's connection has seen."""

    def __init__(self, ws, match_id: str) -> None:
        self.ws = ws
        self.match_id = match_id
        self.latest: dict[str, Any] | None = None
        self.frames: list[tuple[int, float]] = []  # (version, arrival) of state
        self.changed = asyncio.Event()
        self.done = asyncio.Event()
        self.pending: Pending | None = None
        self.plan: list[str] = []
        self.given_up: set[str] = set()  # request ids past the answer timeout
        self.closed = False
        self.closing = False
        self.menu: dict[str, Any] = {}  # the last menu (live_client.fill_menu)


def spells(hand: str, hits: str) -> bool:
    """The hand's first cards read as ``hits`` (Dragons wild)."""
    return len(hand) >= len(hits) and all(
        c == h or c == "D" for c, h in zip(hand, hits, strict=False)
    )


def choose(frame: dict[str, Any], seat: Seat, rnd: random.Random) -> str | None:
    """The seat's next intent from its newest frame (None: nothing to do)."""
    legal = [a["id"] for a in frame.get("legal") or []]
    if not legal:
        seat.plan = []
        return None
    ids = set(legal)
    view = frame["view"]
    hand = view.get("hand") or ""
    # A combination spelled by the arranged hand: claim it at once.
    for level, combo in (view.get("face_up") or {}).items():
        if combo and f"claim:{level}" in ids and spells(hand, combo["hits"]):
            seat.plan = []
            return f"claim:{level}"
    while seat.plan:
        step = seat.plan.pop(0)
        # A planned claim is made above once the hand spells it, never blind.
        if step in ids and not step.startswith("claim:"):
            return step
    draft = view.get("draft")
    if draft is not None:
        # An offer being built (ours): finish it, or drop it if it cannot go.
        if "send" in ids and (draft["give"] or draft["want"]):
            return "send"
        gives = [i for i in legal if i.startswith("give:")]
        wants = [i for i in legal if i.startswith("want:")]
        if not draft["give"] and gives:
            return rnd.choice(gives)
        if not draft["want"] and wants:
            return rnd.choice(wants)
        return "cancel" if "cancel" in ids else None
    weighted: list[tuple[str, float]] = []
    moves = [i for i in legal if i.startswith("move:")]
    if moves:
        weighted.append((rnd.choice(moves), 5))
    starts = [i for i in legal if i.startswith("to:")]
    if starts:
        weighted.append((rnd.choice(starts), 2))
    for kind, weight in (
        ("accept:", 3),
        ("decline:", 1),
        ("withdraw:", 1),
        ("fit:", 4),
    ):
        found = [i for i in legal if i.startswith(kind)]
        if found:
            weighted.append((rnd.choice(found), weight))
    if not weighted:
        return None
    action = rnd.choices(
        [a for a, _ in weighted], weights=[w for _, w in weighted], k=1
    )[0]
    if action.startswith("to:"):
        # Build it: one or two cards given, one or two asked for, send.
        have = [c for c in hand if c != "D"] or list(hand)
        lacking = [c for c in "TMCR" if c not in hand] or list("TMCR")
        give = rnd.sample(have, min(len(have), rnd.choice((1, 1, 2))))
        want = [rnd.choice(lacking) for _ in range(rnd.choice((1, 1, 2)))]
        seat.plan = [f"give:{c}" for c in give] + [f"want:{c}" for c in want]
        seat.plan.append("send")
    elif action.startswith("fit:"):
        seat.plan = ["claim:" + action.removeprefix("fit:")]
    return action


class Client:
    """One client process: its tables, their records, progress reports."""

    def __init__(self, plan: dict[str, Any], reports: mp.Queue) -> None:
        self.urls: list[tuple[str, str]] = plan["urls"]
        self.tables = plan["tables"]
        self.t0 = plan["t0"]
        self.stop_at = plan["stop_at"]
        self.reports = reports
        self.rnd = random.Random(os.getpid())
        # (sent, answer ms, ack ms, outcome, intent kind, error code)
        self.intents: list[tuple[float, float | None, float | None, str, str, str]] = []
        self.errors: list[tuple[float, str]] = []
        # When each state frame came (a socket write of the server's each).
        self.frame_times: list[float] = []
        self.late: Counter[str] = Counter()  # answers after the timeout
        self.acked: Counter[str] = Counter()
        self.connected = 0
        self.tables_done = 0
        self.request = 0

    def error(self, kind: str) -> None:
        self.errors.append((time.monotonic(), kind))

    async def run(self) -> None:
        reporter = asyncio.create_task(
            live_client.report_every_second(self.reports, self.intents, self.progress)
        )
        await asyncio.gather(*(self.play_table(t) for t in self.tables))
        reporter.cancel()
        live_client.put_report(
            self.reports,
            "result",
            {
                "intents": self.intents,
                "errors": self.errors,
                "frames": self.frame_times,
                "acked": dict(self.acked),
                "late": dict(self.late),
                "tables_done": self.tables_done,
            },
        )

    def progress(self, fresh: list[tuple]) -> dict[str, Any]:
        return {
            "intents": [(i[1], i[3]) for i in fresh],
            "errors": len(self.errors),
            "connected": self.connected,
        }

    async def play_table(self, table: dict[str, Any]) -> None:
        await asyncio.sleep(max(0.0, table["start"] - time.monotonic()))
        for match_id in table["match_ids"]:
            if time.monotonic() >= self.stop_at:
                return
            try:
                await self.play_match(match_id, table["cookies"], table["server"])
            except Exception as exc:  # counted; the table plays on
                self.error(f"client:{type(exc).__name__}")

    async def connect(self, match_id: str, cookie: str, server: int):
        url, origin = self.urls[server]
        return await live_client.open_match_socket(
            url=url, origin=origin, match_id=match_id, cookie=cookie, error=self.error
        )

    async def play_match(self, match_id: str, cookies: list[str], server: int) -> None:
        sockets = await asyncio.gather(
            *(self.connect(match_id, c, server) for c in cookies)
        )
        seats = [Seat(ws, match_id) for ws in sockets if ws is not None]
        self.connected += len(seats)
        try:
            await asyncio.gather(*(self.play_seat(seat) for seat in seats))
        finally:
            self.connected -= len(seats)
        if all(s.latest and s.latest["status"] != "active" for s in seats):
            self.tables_done += 1

    async def read_frames(self, seat: Seat) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in seat.ws:
                now = time.monotonic()
                frame = json.loads(raw)
                kind = frame.get("type")
                pending = seat.pending
                if kind == "state":
                    if not live_client.fill_menu(frame, seat.menu):
                        self.error("menu_missing")
                        await seat.ws.send('{"type":"sync"}')
                    version = frame["version"]
                    seat.frames.append((version, now))
                    self.frame_times.append(now)
                    if seat.latest is None or version >= seat.latest["version"]:
                        seat.latest = frame
                    if (
                        frame.get("ack") is True
                        and pending is not None
                        and frame.get("request_id") == pending.rid
                    ):
                        pending.acked = now
                        pending.ack_version = version
                    elif (
                        frame.get("ack") is True
                        and frame["request_id"] in seat.given_up
                    ):
                        seat.given_up.discard(frame["request_id"])
                        self.late["ack"] += 1
                        self.acked[seat.match_id] += 1
                    if (
                        pending is not None
                        and pending.ack_version is not None
                        and pending.shown is None
                        and version >= pending.ack_version
                    ):
                        pending.shown = now
                        seat.done.set()
                    seat.changed.set()
                elif frame.get("request_id") in seat.given_up:
                    seat.given_up.discard(frame["request_id"])
                    self.late[kind] += 1
                    if kind == "ack":
                        self.acked[seat.match_id] += 1
                elif kind == "ack":
                    if pending is not None and frame.get("request_id") == pending.rid:
                        pending.acked = now
                        pending.ack_version = frame.get("version")
                        # The frame may have come first.
                        for version, at in seat.frames[pending.since :]:
                            if version >= pending.ack_version:
                                pending.shown = at
                                break
                        if pending.shown is not None:
                            seat.done.set()
                elif kind == "error":
                    if pending is not None and frame.get("request_id") == pending.rid:
                        pending.code = frame.get("code") or "?"
                        pending.refused_at = now
                        seat.done.set()
                    else:
                        self.error(f"error:{frame.get('code')}")
                if len(seat.frames) > 256 and seat.pending is None:
                    seat.frames = seat.frames[-16:]
        except ConnectionClosed:
            pass  # the server closed the socket: counted just below
        if not seat.closing:
            self.error("disconnect")
        seat.closed = True
        seat.changed.set()
        seat.done.set()

    async def play_seat(self, seat: Seat) -> None:
        await live_client.run_seat(
            seat, read=lambda: self.read_frames(seat), act=lambda: self.act_loop(seat)
        )

    async def act_loop(self, seat: Seat) -> None:
        while True:
            if seat.closed or time.monotonic() >= self.stop_at:
                return
            frame = seat.latest
            if frame is not None and frame["status"] != "active":
                return
            if frame is None or not frame.get("legal"):
                # Not yet connected, paused for a claim, or out of play.
                seat.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(seat.changed.wait(), 2.0)
                continue
            await asyncio.sleep(self.rnd.uniform(*(CLICK_S if seat.plan else THINK_S)))
            frame = seat.latest
            if seat.closed or time.monotonic() >= self.stop_at:
                return
            if frame is None or frame["status"] != "active":
                continue
            action = choose(frame, seat, self.rnd)
            if action is not None:
                await self.send(seat, action, frame["version"])

    async def send(self, seat: Seat, action: str, version: int) -> None:
        self.request += 1
        rid = f"{os.getpid()}-{self.request}"
        # The ack folded into the state frame when the server can (as the
        # browser's client asks: docs/protocol/live.md).
        message = {"type": "act", "action": action, "version": version}
        message["request_id"] = rid
        message["ack"] = "state"
        seat.done.clear()
        sent = time.monotonic()
        pending = seat.pending = Pending(rid, sent, len(seat.frames))
        await seat.ws.send(json.dumps(message, separators=(",", ":")))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(seat.done.wait(), ANSWER_TIMEOUT_S)
        seat.pending = None
        ack = (pending.acked - sent) * 1000 if pending.acked else None
        kind = action.split(":", 1)[0]
        code = pending.code or ""
        if pending.code is not None:
            # An error frame sets both code and refused_at.
            assert pending.refused_at is not None
            answer = (pending.refused_at - sent) * 1000
            outcome = "refused" if pending.code in REFUSALS else "error"
            if outcome == "error":
                self.error(f"error:{pending.code}")
            seat.plan = []
        elif pending.shown is not None:
            answer = (pending.shown - sent) * 1000
            outcome = "applied"
            self.acked[seat.match_id] += 1
        elif pending.acked is not None:
            answer = None
            outcome = "lost"  # acknowledged, its frame never came
            self.acked[seat.match_id] += 1
            if not seat.closed:
                await seat.ws.send('{"type":"sync"}')
        else:
            answer = None
            outcome = "unanswered"
            seat.given_up.add(rid)
            if not seat.closed:
                self.error("timeout")
        self.intents.append((sent, answer, ack, outcome, kind, code))


def client_main(plan: dict[str, Any], reports: mp.Queue) -> None:
    live_client.run_client(Client(plan, reports).run)
