/* The player's socket bookkeeping (static/js/player-socket.js), without a DOM. */
"use strict";
import test from "node:test";
import assert from "node:assert";
import { PlayerState, decideStart } from "../../static/js/player-socket.js";

function turn(match, version, yourMove, status) {
  return { type: "turn", match, url: `/matches/${match}/`, version, your_move: yourMove, status: status || "active" };
}

test("hello sets the games waiting for my move and the unread count", () => {
  const s = new PlayerState();
  s.hello({ your_move: [{ match: "a", url: "/matches/a/", version: 3 }], unread: 2 });
  assert.strictEqual(s.count(), 1);
  assert.strictEqual(s.unread, 2);
});

test("turn frames add and remove games; the count follows", () => {
  const s = new PlayerState();
  s.hello({ your_move: [], unread: 0 });
  assert.strictEqual(s.turn(turn("a", 1, true)), true);
  assert.strictEqual(s.turn(turn("b", 4, true)), true);
  assert.strictEqual(s.count(), 2);
  assert.strictEqual(s.turn(turn("a", 2, false)), true);
  assert.strictEqual(s.count(), 1);
  assert.strictEqual(s.turn(turn("b", 4, true)), false, "a repeat changes nothing");
});

test("an older frame arriving late is ignored", () => {
  const s = new PlayerState();
  s.hello({ your_move: [], unread: 0 });
  s.turn(turn("a", 5, false));
  assert.strictEqual(s.turn(turn("a", 4, true)), false);
  assert.strictEqual(s.count(), 0);
});

test("a finished match stays off the badge", () => {
  const s = new PlayerState();
  s.hello({ your_move: [{ match: "a", url: "/matches/a/", version: 7 }], unread: 0 });
  assert.strictEqual(s.turn(turn("a", 7, false, "finished")), true);
  assert.strictEqual(s.turn(turn("a", 7, true)), false);
  assert.strictEqual(s.count(), 0);
});

test("a started match takes the page there, except from my own game in play", () => {
  const frame = { url: "/matches/x/" };
  assert.strictEqual(decideStart(frame, { path: "/games/", atOwnLiveGame: false }), "go");
  assert.strictEqual(decideStart(frame, { path: "/matches/y/", atOwnLiveGame: true }), "toast");
  assert.strictEqual(decideStart(frame, { path: "/matches/x/", atOwnLiveGame: false }), "stay");
});

test("a waiting table's frame does not close the match for good", () => {
  const s = new PlayerState();
  s.hello({ your_move: [], unread: 0 });
  assert.strictEqual(s.turn(turn("a", 0, false, "waiting")), false);
  assert.strictEqual(s.turn(turn("a", 0, true)), true);
  assert.strictEqual(s.count(), 1);
});

test("a hello sets the rows of games whose turn frame never came", () => {
  const s = new PlayerState();
  s.hello({ your_move: [], unread: 0 });
  s.turn(turn("a", 4, true));
  s.hello({
    your_move: [],
    in_play: [
      { match: "a", version: 5, your_move: false, turns: true },
      { match: "b", version: 2, your_move: true, turns: true },
      { match: "rt", version: 90, your_move: false, turns: false },
    ],
    in_play_complete: true,
    unread: 0,
  });
  assert.deepStrictEqual(s.rowFromHello("a", "active"),
    { match: "a", status: "active", your_move: false, version: 5 });
  assert.strictEqual(s.rowFromHello("b", "active").your_move, true);
  assert.strictEqual(s.rowFromHello("rt", "active"), null, "real time stays In play");
  assert.deepStrictEqual(s.rowFromHello("gone", "active"), { match: "gone", status: "finished" });
  assert.strictEqual(s.turn(turn("gone", 9, true)), false, "an ended match stays over");
  assert.strictEqual(s.rowFromHello("table", "waiting"), null, "a waiting table is left alone");
});

test("a hello older than a turn already shown, or cut short, changes no row", () => {
  const s = new PlayerState();
  s.hello({ your_move: [], unread: 0 });
  s.turn(turn("a", 8, true));
  s.hello({
    your_move: [],
    in_play: [{ match: "a", version: 7, your_move: false, turns: true }],
    in_play_complete: false,
    unread: 0,
  });
  assert.strictEqual(s.rowFromHello("a", "active"), null);
  assert.strictEqual(s.rowFromHello("b", "active"), null, "a cut list proves nothing");
});
