/* The player's socket bookkeeping (static/js/player-socket.js), without a DOM. */
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const { PlayerState, decideStart } = require("../../static/js/player-socket.js");

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
