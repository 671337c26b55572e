// The table's rough edges: the turn built before it is sent (take-back), the
// only opponent chosen without a click, claims on the server's clock, timeouts
// and forfeits in the live log, the offline badge, rating changes.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as B from "../../static/js/boards/duelo.js";
import * as L from "../../static/js/live-match.js";
import { boardSkeleton } from "./minidom.js";

const corpus = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", "duelo.json"), "utf8"));
const clone = (x) => JSON.parse(JSON.stringify(x));
const slot = (root, role) => root.querySelector(`[data-role="${role}"]`);

/** The card-phase frame with `players` seats, everyone alive and unprotected. */
function cardFrame(players, hand) {
  const frame = clone(corpus.seat_frames.card);
  frame.seats = frame.seats.slice(0, players);
  frame.view.seats = frame.view.seats.slice(0, players);
  frame.view.hand = hand || [3, 6];
  frame.legal = (hand || [3, 6]).map((f) => ({ id: "card:" + f, type: "card", card: f, label: B.cardInfo(f).label }));
  return frame;
}

test("turn builder: card, then face; both can be taken back; two players duel the only opponent", () => {
  const model = B.boardModel(cardFrame(2), { nowMs: 0 });
  const start = B.turnBuilder(model, null);
  assert.equal(start.step, "card");
  assert.deepEqual(start.choices.map((c) => c.id), ["card:3", "card:6"]);
  const face = B.turnBuilder(model, start.choices[1].stage);
  assert.equal(face.step, "face");
  assert.deepEqual(face.back, {}, "back goes to choosing the card again");
  assert.deepEqual(face.choices.map((c) => c.plan), [["card:6", "face:up"], ["card:6", "face:down", "target:1"]]);
  assert.match(face.choices[1].text, /duel Bruno/);
  assert.equal(B.turnBuilder(model, face.back).step, "card");
});

test("turn builder: with several opponents the target is a third step, and it can go back", () => {
  const model = B.boardModel(cardFrame(3), { nowMs: 0 });
  const face = B.turnBuilder(model, { card: "card:3" });
  const down = face.choices.find((c) => c.id === "face:down");
  assert.deepEqual(down.stage, { card: "card:3", face: "down" });
  const target = B.turnBuilder(model, down.stage);
  assert.equal(target.step, "target");
  assert.deepEqual(target.back, { card: "card:3" });
  assert.deepEqual(target.choices.map((c) => c.plan[2]), ["target:1", "target:2"]);
});

test("turn builder: a protected opponent cannot be dueled; nobody to duel means face up only", () => {
  const frame = cardFrame(3);
  frame.view.seats[1].protected = true;
  let model = B.boardModel(frame, { nowMs: 0 });
  const face = B.turnBuilder(model, { card: "card:3" });
  assert.deepEqual(face.choices[1].plan, ["card:3", "face:down", "target:2"]);
  frame.view.seats[2].protected = true;
  model = B.boardModel(frame, { nowMs: 0 });
  assert.deepEqual(B.turnBuilder(model, { card: "card:3" }).choices.map((c) => c.id), ["face:up"]);
  // A stage naming a card no longer in hand starts over.
  assert.equal(B.turnBuilder(model, { card: "card:8" }).step, "card");
  // Not the start of a turn: no builder.
  assert.equal(B.turnBuilder(B.boardModel(corpus.seat_frames.answer, { nowMs: 0 }), null), null);
});

test("the board draws the builder: hand cards stage, choices send the whole plan, back undoes", () => {
  const { root } = boardSkeleton();
  const model = B.boardModel(cardFrame(2), { nowMs: 0 });
  const log = { stage: [], plan: [], act: [] };
  const opts = (stage) => ({
    stage, onAct: (a) => log.act.push(a.id), onStage: (s) => log.stage.push(s), onPlan: (p) => log.plan.push(p),
  });
  B.renderBoard(root, model, opts(null));
  const hand = slot(root, "you").querySelectorAll("button");
  assert.equal(hand.length, 2);
  hand[1].click();
  assert.deepEqual(log.stage, [{ card: "card:6", copy: 1 }]);
  assert.deepEqual(log.act, [], "choosing a card sends nothing");
  B.renderBoard(root, model, opts({ card: "card:6" }));
  const staged = slot(root, "you").querySelectorAll("button")[1];
  assert.equal(staged.getAttribute("aria-pressed"), "true");
  assert.match(staged.className, /kcard-staged/);
  const buttons = slot(root, "prompt").querySelectorAll("button");
  const byChoice = (id) => buttons.find((b) => b.getAttribute("data-choice") === id);
  byChoice("back").click();
  assert.deepEqual(log.stage[1], {}, "take the card back");
  byChoice("face:down").click();
  assert.deepEqual(log.plan, [["card:6", "face:down", "target:1"]]);
  assert.deepEqual(log.act, []);
});

test("two copies of a card: the copy clicked is the chosen one; clicking it takes it back", () => {
  const { root } = boardSkeleton();
  const frame = cardFrame(2, [3, 6, 6]);
  frame.legal = [3, 6].map((f) => ({ id: "card:" + f, type: "card", card: f, label: B.cardInfo(f).label }));
  const model = B.boardModel(frame, { nowMs: 0 });
  const staged = [];
  const draw = (stage) => {
    B.renderBoard(root, model, { stage, onAct: () => {}, onStage: (s) => staged.push(s), onPlan: () => {} });
    return slot(root, "you").querySelectorAll("button");
  };
  const pressed = (hand) => hand.map((b) => b.getAttribute("aria-pressed"));
  draw(null)[1].click();
  assert.deepEqual(staged.at(-1), { card: "card:6", copy: 1 });
  let hand = draw(staged.at(-1));
  assert.deepEqual(pressed(hand), ["false", "true", "false"]);
  hand[2].click();  // the other copy: the same choice, that copy shown as chosen
  assert.deepEqual(staged.at(-1), { card: "card:6", copy: 2 });
  hand = draw(staged.at(-1));
  assert.deepEqual(pressed(hand), ["false", "false", "true"]);
  // A stage that names no copy (or a wrong one) shows the first copy chosen.
  assert.deepEqual(pressed(draw({ card: "card:6" })), ["false", "true", "false"]);
  assert.deepEqual(pressed(draw({ card: "card:6", copy: 0 })), ["false", "true", "false"]);
  // Further along (face down, choosing the target), the other copy keeps the step.
  draw({ card: "card:6", face: "down", copy: 1 })[2].click();
  assert.deepEqual(staged.at(-1), { card: "card:6", face: "down", copy: 2 });
  draw({ card: "card:6", copy: 2 })[2].click();
  assert.deepEqual(staged.at(-1), {}, "the chosen copy takes the choice back");
  draw({ card: "card:6", copy: 2 })[0].click();
  assert.deepEqual(staged.at(-1), { card: "card:3", copy: 0 }, "another card starts over");
});

test("the game over after a deck-out shows the revealed hands; before it, nobody's", () => {
  const frame = cardFrame(2);
  frame.view.rounds = [{ round: 1, reason: "deck_out", hands: [[3, 6], [5, 7]] }];
  let model = B.boardModel(frame, { nowMs: 0 });
  assert.equal(model.seats[1].hand, null, "the round record alone reveals nothing mid-game");
  frame.view.phase = "over";
  frame.status = "finished";
  frame.legal = [];
  model = B.boardModel(frame, { nowMs: 0 });
  assert.deepEqual(model.seats[1].hand, [5, 7]);
  const { root } = boardSkeleton();
  B.renderBoard(root, model, {});
  const open = slot(root, "opponents").querySelector(".hand-open");
  assert.match(open.getAttribute("aria-label"), /hand: Monkey Style \(5\), Dragon Style \(7\)/);
  // A round won by the last one standing reveals no hand.
  frame.view.rounds = [{ round: 1, reason: "last_standing" }];
  assert.equal(B.boardModel(frame, { nowMs: 0 }).seats[1].hand, null);
});

test("the only opponent to pick is picked without a click; a real choice is left to the player", () => {
  const target = clone(corpus.seat_frames.target);
  target.legal = [target.legal[0]];
  assert.equal(B.autoAction(B.boardModel(target, { nowMs: 0 })).id, target.legal[0].id);
  const several = clone(corpus.seat_frames.target);
  if (several.legal.length > 1) assert.equal(B.autoAction(B.boardModel(several, { nowMs: 0 })), null);
  // Swapping hands always includes yourself: never automatic.
  assert.equal(B.autoAction(B.boardModel(corpus.seat_frames.monkey_a, { nowMs: 0 })), null);
  assert.equal(B.autoAction(B.boardModel(corpus.seat_frames.face, { nowMs: 0 })), null);
});

test("claim state follows the server's claimable_at on the server's clock", () => {
  const at = "2026-12-01T10:01:00+00:00";
  const frame = { seats: [{ number: 0 }, { number: 1, claimable_at: at }] };
  const t = Date.parse(at);
  assert.deepEqual(L.claimState(frame, 0, t - 5000), { away: true, canClaim: false, waitMs: 5000 });
  assert.equal(L.claimState(frame, 0, t).canClaim, true);
  // A present opponent (or a bot) has no claimable_at: no claim, no countdown.
  const present = { seats: [{ number: 0 }, { number: 1, claimable_at: null }, { number: 2, claimable_at: at }] };
  assert.deepEqual(L.claimState(present, 0, t + 1), { away: false, canClaim: false, waitMs: null });
  // Forfeited seats do not count.
  present.seats[1].forfeited = true;
  assert.equal(L.claimState(present, 0, t + 1).canClaim, true);
  // The offset: server clock minus the local one.
  assert.equal(L.clockOffset({ server_time: "2026-12-01T10:00:10+00:00" }, Date.parse("2026-12-01T10:00:00+00:00")), 10000);
  assert.equal(L.clockOffset({}, 5), 0);
});

test("a live timeout is logged as one, with who ran out of time", () => {
  const seen = [];
  class Sock { constructor() { this.readyState = 1; } send() {} close() {} }
  const client = new L.LiveClient({ url: "ws://x", WebSocket: Sock, initialFrame: { version: 0, match: "m" }, onSteps: (s) => seen.push(...s), setTimeout: () => 0, clearTimeout: () => {} });
  client.handle({ type: "state", match: "m", version: 1, events: [], step: { kind: "timeout", seat: 1 } });
  assert.deepEqual(seen.map((s) => [s.kind, s.seat]), [["timeout", 1]]);
  const text = B.formatSteps(seen, { names: ["Ana", "Bruno"], viewer: 0 }).map((e) => e.text);
  assert.deepEqual(text, ["Bruno's clock ran out: the default choice was played."]);
});

test("forfeits are worded for the log; rating changes get signs", () => {
  assert.equal(L.forfeitText("Bruno", { forfeit_reason: "time forfeit" }), "Bruno ran out of time and lost the match.");
  assert.equal(L.forfeitText("Chen", { forfeit_reason: "left", replaced_by_bot: true }), "Chen left the match. A bot plays on in that seat.");
  assert.equal(L.forfeitText("Crane v1", { forfeit_reason: "bot crash", replaced_by_bot: true }), "Crane v1 crashed and is out of the match. A bot plays on in that seat.");
  assert.equal(L.forfeitText("Crane v1", { forfeit_reason: "bot sandbox unavailable", replaced_by_bot: true }), "Crane v1 could not be run safely (no sandbox) and is out of the match. A bot plays on in that seat.");
  const rows = L.ratingRows([{ name: "Ana", pool: "P", before: 1500, after: 1520, delta: 20 }, { name: "Bo", pool: "P", before: 1500, after: 1480, delta: -20 }]);
  assert.deepEqual(rows.map((r) => [r.delta, r.up, r.down]), [["+20.0", true, false], ["−20.0", false, true]]);
});

test("rating changes print one way: the cases the server's filter meets too", () => {
  const fixture = JSON.parse(fs.readFileSync(new URL("./fixtures/rating_deltas.json", import.meta.url), "utf8"));
  assert.ok(fixture.cases.length >= 10);
  for (const [delta, text] of fixture.cases) assert.equal(L.ratingDelta(delta), text, String(delta));
  const zero = L.ratingRows([{ name: "Heuristic bot", pool: "P", before: 1500, after: 1500, delta: 0 }])[0];
  assert.deepEqual([zero.delta, zero.up, zero.down], ["±0.0", false, false]);
});

test("going offline closes the socket at once and the client waits to reconnect", () => {
  const statuses = [];
  const sockets = [];
  class Sock { constructor() { this.readyState = 0; sockets.push(this); } send() {} close(code) { this.closed = code; } }
  const client = new L.LiveClient({ url: "ws://x", WebSocket: Sock, onStatus: (s) => statuses.push(s), setTimeout: () => 1, clearTimeout: () => {}, random: () => 0.5 });
  client.connect();
  sockets[0].readyState = 1;
  sockets[0].onopen();
  client.goOffline();
  assert.equal(sockets[0].closed, 4000);
  assert.equal(client.ws, null);
  assert.equal(statuses[statuses.length - 1], "waiting", "the badge shows offline at once");
});
