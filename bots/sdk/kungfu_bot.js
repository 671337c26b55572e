// Kung Fu Arena bot SDK for JavaScript (Node): protocol v1, no dependencies.
//
// The platform puts this file next to your main.js unless you ship your own
// copy. A whole bot is:
//
//     const kungfu_bot = require("./kungfu_bot.js");
//     const GAME = "duelo";
//     kungfu_bot.run((turn) => turn.legal_ids[0]);
//
// `run` answers the hello, calls `choose(turn)` for every request to act and
// sends back the id it returns (or the value of the promise it returns), and
// resolves when the game is over. Print debugging output with `log` (stderr,
// kept for you on the bot page): stdout carries the protocol. The same shape
// as the Python SDK (kungfu_bot.py): Hello, Turn, GameOver, log, run, PASS.
// The full protocol is in docs/protocol/bots.md.
"use strict";

const readline = require("node:readline");

// Real time: the intent that does nothing this tick (always in the menu).
const PASS = "pass";

class Hello {
  constructor(raw) {
    this.raw = raw;
    this.game = raw.game;
    this.seat = raw.seat;
    this.players = raw.players;
    this.rules_version = raw.rules_version;
    this.config = raw.config || {};
    this.time = raw.time || {};
  }
}

class Turn {
  constructor(raw) {
    this.raw = raw;
    this.step = raw.step;
    this.observation = raw.observation;
    this.events = raw.events;
    this.legal = raw.legal;
    this.deadline_ms = raw.deadline_ms;
    // Every seat choosing at this moment, yours included.
    this.actors = raw.actors || [];
    // Real time: the tick of the match's clock (null in turn-based games).
    this.tick = raw.tick === undefined ? null : raw.tick;
    // Real time: your intents refused since your previous request.
    this.refused = raw.refused || [];
  }

  get realtime() {
    return this.tick !== null;
  }

  // The ids you may answer with, in menu order.
  get legal_ids() {
    return this.legal.map((action) => action.id);
  }
}

class GameOver {
  constructor(raw) {
    this.raw = raw;
    this.result = raw.result;
    this.reason = raw.reason || "";
    this.observation = raw.observation || {};
  }
}

// Print to stderr, which the platform keeps (bounded) for the bot's owner.
function log(...parts) {
  process.stderr.write(parts.map(String).join(" ") + "\n");
}

function send(message) {
  // Writes to a pipe are synchronous in Node on Linux: the answer is out
  // before the next line is read.
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Play one match: answer hello, then one action id per request, until the end.
// `choose(turn)` must return (or resolve to) one of `turn.legal_ids` before
// `turn.deadline_ms`. Options: `onHello(hello)`, `onGameOver(gameOver)`.
function run(choose, { onHello = null, onGameOver = null } = {}) {
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  return new Promise((resolve, reject) => {
    let queue = Promise.resolve();
    lines.on("line", (line) => {
      queue = queue
        .then(async () => {
          const message = JSON.parse(line);
          if (message.type === "act") {
            send({ action: await choose(new Turn(message)) });
          } else if (message.type === "hello") {
            if (onHello) await onHello(new Hello(message));
            send({ ready: true });
          } else if (message.type === "game_over") {
            if (onGameOver) await onGameOver(new GameOver(message));
            lines.close();
            resolve();
          }
        })
        .catch((error) => {
          lines.close();
          reject(error);
        });
    });
    lines.on("close", () => queue.then(() => resolve()));
  });
}

module.exports = { PASS, Hello, Turn, GameOver, log, run };
