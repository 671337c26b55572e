// The Kung Fu (2013) board (static/js/boards/kungfu2013.js) on real engine
// frames (fixtures/kungfu2013.json, built by tests/frontend/kungfu2013_fixture.py).
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as B from "../../static/js/boards/kungfu2013.js";
import DATA from "../../static/js/boards/data/kungfu2013-cards.js";
import { boardSkeleton } from "./minidom.js";

const corpus = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", "kungfu2013.json"), "utf8"));
const slot = (root, role) => root.querySelector(`[data-role="${role}"]`);

function draw(frame) {
  const { root } = boardSkeleton();
  const model = B.boardModel(frame, { nowMs: 0 });
  const chosen = [];
  B.renderBoard(root, model, { onAct: (a) => chosen.push(a.id) });
  return { root, model, chosen };
}

test("every event type the engine emits has a sentence", () => {
  for (const [type, ev] of Object.entries(corpus.events)) {
    const entries = B.formatEvent(ev, { names: ["Ana", "Bo"], viewer: 0 });
    assert.ok(entries[0].known, type + " has a formatter");
    assert.ok(!/undefined|NaN|\[object/.test(entries.map((e) => e.text).join(" ")), type);
  }
  assert.deepEqual(Object.keys(corpus.events).sort(), B.EVENT_TYPES);
});

test("each decision: the prompt offers exactly the legal actions, and a click sends one", () => {
  for (const [phase, frame] of Object.entries(corpus.seat_frames)) {
    const { root, model, chosen } = draw(frame);
    assert.ok(model.myTurn, phase);
    assert.match(model.statusLine, /^Your move: /);
    const offered = slot(root, "prompt").querySelectorAll("[data-action]");
    assert.equal(offered.length, frame.legal.length, phase);
    offered[offered.length - 1].click();
    assert.deepEqual(chosen, [frame.legal[frame.legal.length - 1].id], phase);
    for (const action of frame.legal) {
      const text = B.describeAction(action.id, frame.seat, { names: ["Ana", "Bo"], viewer: null });
      assert.ok(text.length > 5 && !/undefined/.test(text), action.id);
      // Card names, never the engine's codes ("pays with r12").
      assert.doesNotMatch(text, /\b[rb]\d\d\b/, action.id);
    }
  }
});

test("replay step labels name cards, not codes", () => {
  const ctx = { names: ["Ana", "Bo"], viewer: null };
  const name = (code) => B.cardName(DATA.cards.find((c) => c.code === code));
  assert.equal(B.describeAction("pay:r12", 0, ctx), "Ana pays with " + name("r12") + ".");
  assert.equal(B.describeAction("attack:r20", 1, ctx), "Bo chooses " + name("r20") + " to attack.");
  assert.equal(B.describeAction("attack:r20", 1, Object.assign({ hideCards: true }, ctx)), "Bo chooses an attack card.");
  assert.equal(B.describeAction("block:b21", 0, ctx), "Ana blocks with " + name("b21") + ".");
  assert.equal(B.describeAction("target:b05", 0, ctx), "Ana discards the coin card " + name("b05") + ".");
  assert.equal(B.describeAction("pay:zz", 0, ctx), "Ana pays with a card.");
});

test("the table shows life, both decks and discards, the opponent's hand size", () => {
  const frame = corpus.seat_frames.block;
  const { root, model } = draw(frame);
  for (const role of ["deck-red", "deck-blue", "discard-red", "discard-blue", "battle", "my-hand"]) {
    assert.ok(slot(root, role), role);
  }
  const other = 1 - frame.seat;
  assert.match(slot(root, "life-" + other).textContent, new RegExp(String(frame.view.life[other])));
  assert.match(slot(root, "hand-count-" + other).textContent, new RegExp(String(model.seats[other].handCount)));
  // The defender's hand cards are the block buttons.
  assert.ok(slot(root, "my-hand").querySelectorAll("[data-action]").length > 0);
});

test("a face-down attack stays a card back for the defender", () => {
  const frame = corpus.seat_frames.block;
  if (frame.view.battle.face !== "down") return;
  const { model } = draw(frame);
  assert.equal(model.table.attack, null);
  assert.ok(model.table.faceDown);
});

test("results: the winner, life per player and the reason", () => {
  const res = B.resultModel({
    seat: 0, status: "finished", seats: [{ name: "Ana" }, { name: "Bo" }],
    result: { winners: [1], placements: [2, 1], engine: { scores: { life: [0, 4] }, reason: "knockout" } },
  });
  assert.equal(res.headline, "Bo wins!");
  assert.deepEqual(res.rows.map((r) => [r.name, r.life]), [["Bo", 4], ["Ana (you)", 0]]);
  assert.match(res.gameReason, /last life/);
});
