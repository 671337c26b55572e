#!/usr/bin/env python3
"""Connect a stdin/stdout bot program to Kung Fu Arena through the bot API.

The program is the same one you would upload: it speaks protocol v1
(docs/protocol/bots.md) on stdin and stdout. This client runs it on your
machine, one process per game, and translates: the server's NDJSON streams
(docs/protocol/bot-api.md) become the program's ``hello``, ``act`` and
``game_over`` messages, and its answers become moves. So one program runs
locally (``manage.py botmatch``), uploaded, or connected, unchanged::

    export KFA_BOT_TOKEN=kfb_...      # a bot token with the read and play scopes
    python connect.py --server https://arena.example.com -- python3 my_bot.py

Standard library only (Python 3.10+). Challenges to the bot are accepted
(``--decline`` declines them); every game the bot is seated in is played,
``--concurrency`` at a time; ``--games N`` stops after N games. A dropped
stream is opened again: the event stream tells the games in play again,
a game stream resumes after the last version this client saw.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any

#: Without a time control the match has no clock; the program is told this.
UNTIMED_PER_MOVE_MS = 60_000
RETRY_SECONDS = (0.5, 1, 2, 5, 10)


def log(*parts: object) -> None:
    print("[connect]", *parts, file=sys.stderr, flush=True)


class Api:
    """The few HTTP calls the client makes, with the token."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.token = token

    def _request(self, path: str, body: dict | None = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server + path, data=data)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/x-ndjson, application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def post(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        """(status, JSON answer); a refusal is an answer, not an exception."""
        request = self._request(path, body if body is not None else {})
        for attempt, pause in enumerate((*RETRY_SECONDS, None)):
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, json.loads(response.read() or b"{}")
            except urllib.error.HTTPError as exc:
                answer = json.loads(exc.read() or b"{}")
                if exc.code == 429 and pause is not None:
                    time.sleep(float(exc.headers.get("Retry-After") or pause))
                    continue
                return exc.code, answer
            except OSError as exc:
                if pause is None:
                    raise
                log(f"POST {path} failed ({exc}); retry {attempt + 1}")
                time.sleep(pause)
        raise AssertionError("unreachable")

    def stream(self, path: str):
        """The JSON objects of an NDJSON stream (a keep-alive line is ``{}``);
        ends when the server ends the stream."""
        request = self._request(path)
        with urllib.request.urlopen(request, timeout=60) as response:
            for raw in response:
                yield json.loads(raw) if raw.strip() else {}


class Program:
    """The bot program: one process, protocol v1 lines both ways."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def send(self, message: dict) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
        self.process.stdin.flush()

    def answer(self) -> dict:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the bot program exited ({self.process.poll()})")
        return json.loads(line)

    def close(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _time(time_control: dict) -> dict:
    per_move = time_control.get("per_move")
    total = time_control.get("total")
    return {
        "startup_ms": 0,
        "per_move_ms": per_move * 1000 if per_move else UNTIMED_PER_MOVE_MS,
        "bank_ms": total * 1000 if total else 0,
    }


def _events(steps: list[dict]) -> list[dict]:
    """The protocol's flat event list from the stream's per-step groups."""
    return [event for step in steps for event in step["events"]]


class Game:
    """One game: the program is told every change and asked when it is to act."""

    def __init__(self, api: Api, match: str, command: list[str]) -> None:
        self.api = api
        self.match = match
        self.command = command
        self.version = 0  # the last version this client has seen
        self.answered = -1  # the last version the program answered
        self.step = 0
        self.seat = -1
        self.time: dict = {}
        self.pending: list[dict] = []
        self.view: Any = None
        self.program: Program | None = None
        self.result: dict | None = None

    def play(self) -> dict:
        retries = iter(RETRY_SECONDS)
        try:
            while self.result is None:
                path = f"/api/bot/game/stream/{self.match}?version={self.version}"
                try:
                    for line in self.api.stream(path):
                        self._on(line)
                        if self.result is not None:
                            break
                except (OSError, ValueError) as exc:
                    pause = next(retries, None)
                    if pause is None:
                        raise
                    log(f"game {self.match}: stream dropped ({exc}); resuming")
                    time.sleep(pause)
        finally:
            if self.program is not None:
                self.program.close()
        return self.result

    def _on(self, line: dict) -> None:
        kind = line.get("type")
        if kind == "gameFull":
            self._hello(line)
        elif kind == "gameState":
            self.pending += _events(line["events"])
            self.version = max(self.version, line["version"])
            self.view = line["view"]
            if (
                self.seat in line["actors"]
                and line["legal"]
                and line["version"] > self.answered
                and line["status"] == "active"
            ):
                self._act(line)
        elif kind == "gameEnd":
            self._over(line)
        elif kind == "revoked":
            raise SystemExit("the bot token was revoked")

    def _hello(self, full: dict) -> None:
        if self.program is not None:
            return  # a resumed stream: the program is already playing
        self.seat = full["seat"]
        self.time = _time(full["time_control"] or {})
        self.program = Program(self.command)
        self.program.send(
            {
                "type": "hello",
                "protocol": 1,
                "game": full["game"],
                "rules_version": full["rules_version"],
                "seat": full["seat"],
                "players": full["players"],
                "config": full["config"],
                "time": self.time,
            }
        )
        if not self.program.answer().get("ready"):
            raise RuntimeError("the bot program did not answer hello with ready")

    def _act(self, state: dict) -> None:
        assert self.program is not None
        self.step += 1
        self.program.send(
            {
                "type": "act",
                "step": self.step,
                "version": state["version"],
                "actors": state["actors"],
                "observation": state["view"],
                "events": self.pending,
                "legal": state["legal"],
                "deadline_ms": self.time["per_move_ms"],
                "per_move_ms": self.time["per_move_ms"],
                "bank_ms": self.time["bank_ms"],
            }
        )
        self.pending = []
        action = self.program.answer().get("action")
        self.answered = state["version"]
        code, answer = self.api.post(
            f"/api/bot/game/{self.match}/act",
            {"action": action, "version": state["version"]},
        )
        if code != 200:
            # The server decides: a refused move changes nothing, and the
            # game's clock runs on. The next state asks again if it can.
            log(f"game {self.match}: move {action!r} refused: {answer}")

    def _over(self, end: dict) -> None:
        placements = {p["seat"]: p["placement"] for p in end["placements"]}
        self.result = {
            "match": self.match,
            "seat": self.seat,
            "placement": placements.get(self.seat),
            "status": end["status"],
            "reason": end["end_reason"],
        }
        if self.program is None:
            return
        # The program may have exited already: nothing more to tell it then.
        with contextlib.suppress(OSError):
            self.program.send(
                {
                    "type": "game_over",
                    "result": {
                        "placements": [placements[s] for s in sorted(placements)],
                        "winners": [s for s, p in placements.items() if p == 1],
                        "forfeited": [
                            p["seat"] for p in end["placements"] if p.get("forfeited")
                        ],
                    },
                    "reason": end["end_reason"] or "completed",
                    "observation": self.view,
                    "events": self.pending,
                }
            )


class Client:
    """The event stream: answers challenges, plays every game it is seated in."""

    def __init__(self, api: Api, command: list[str], args: argparse.Namespace) -> None:
        self.api = api
        self.command = command
        self.args = args
        self.playing: set[str] = set()
        self.finished: list[dict] = []
        self.slots = threading.Semaphore(args.concurrency)
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.game = ""

    def run(self) -> list[dict]:
        retries = iter(RETRY_SECONDS)
        while not self.done.is_set():
            try:
                for line in self.api.stream("/api/bot/stream/event"):
                    self._on(line)
                    if self.done.is_set():
                        break
            except (OSError, ValueError) as exc:
                pause = next(retries, None)
                if pause is None:
                    raise
                log(f"event stream dropped ({exc}); reconnecting")
                time.sleep(pause)
        return self.finished

    def _on(self, line: dict) -> None:
        kind = line.get("type")
        if kind == "hello":
            log(f"connected as {line['account']} ({line['game']})")
            self.game = line["game"]
        elif kind == "challenge":
            answer = "decline" if self.args.decline else "accept"
            code, _body = self.api.post(f"/api/bot/challenge/{line['id']}/{answer}")
            log(f"challenge {line['id']} from {line['from']}: {answer} ({code})")
        elif kind == "gameStart":
            with self.lock:
                if line["match"] in self.playing:
                    return
                self.playing.add(line["match"])
            threading.Thread(
                target=self._game, args=(line["match"],), daemon=True
            ).start()
        elif kind == "revoked":
            raise SystemExit("the bot token was revoked")

    def _game(self, match: str) -> None:
        with self.slots:
            try:
                result = Game(self.api, match, self.command).play()
                log(f"game {match} over: {result}")
            except Exception as exc:
                log(f"game {match} failed: {exc!r}")
                result = {"match": match, "error": repr(exc)}
        with self.lock:
            self.finished.append(result)
            if self.args.games and len(self.finished) >= self.args.games:
                self.done.set()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="%(prog)s [options] -- COMMAND [ARGS...]",
    )
    parser.add_argument("--server", default=os.environ.get("KFA_SERVER", ""))
    parser.add_argument(
        "--token",
        default=os.environ.get("KFA_BOT_TOKEN", ""),
        help="the bot token (default: $KFA_BOT_TOKEN, kept off the command line)",
    )
    parser.add_argument("--games", type=int, default=0, help="stop after N games")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--decline", action="store_true", help="decline challenges")
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or not args.server or not args.token:
        parser.error("give --server, a token and the bot's command after --")
    client = Client(Api(args.server, args.token), command, args)
    try:
        results = client.run()
    except KeyboardInterrupt:
        results = client.finished
    if args.json:
        print(json.dumps(results))
    return 0 if all("error" not in r for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
