// The Kung Fu (2019) board (static/js/boards/kungfu2019.js) on real engine
// frames (fixtures/kungfu2019.json, built by tests/frontend/kungfu2019_fixture.py).
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as B from "../../static/js/boards/kungfu2019.js";
import CARDS from "../../static/js/boards/data/kungfu2019-cards.js";
import { boardSkeleton } from "./minidom.js";

const corpus = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", "kungfu2019.json"), "utf8"));
const frames = corpus.seat_frames;
const slot = (root, role) => root.querySelector(`[data-role="${role}"]`);
const BAD_TEXT = /undefined|NaN|\[object|null|Seat -?\d/;

function draw(frame, opts) {
  const { root } = boardSkeleton();
  const model = B.boardModel(frame, { nowMs: 0 });
  const chosen = [];
  B.renderBoard(root, model, Object.assign({ onAct: (a) => chosen.push(a.id) }, opts || {}));
  return { root, model, chosen };
}

function names(frame) {
  return frame.seats.map((s) => s.name);
}

/** Every card code the frame's view (and legal list) shows its viewer. */
function visibleCodes(frame) {
  const v = frame.view;
  const out = new Set();
  const add = (codes) => (codes || []).forEach((c) => out.add(c));
  add(v.hand);
  add(v.discard);
  add(v.dummy);
  (v.played || []).forEach(add);
  if (v.draft) { add(v.draft.pack); if (v.draft.pick) out.add(v.draft.pick); }
  if (v.commits) add(v.commits.mine);
  (frame.legal || []).forEach((a) => a.card && out.add(a.card));
  return out;
}

test("the card file holds the 74 cards with their combinations", () => {
  assert.equal(CARDS.cards.length, 74);
  for (const card of CARDS.cards) {
    assert.ok(card.combos.length >= 2, card.code);
    assert.ok(B.cardInfo(card.code), card.code);
  }
});

test("every event type the engine emits has a clean sentence for its owner, a spectator and the full reveal", () => {
  assert.deepEqual(Object.keys(corpus.events).sort(), B.EVENT_TYPES);
  for (const [type, ev] of Object.entries(corpus.events)) {
    const n = ev.public.tracks ? ev.public.tracks.length : 5;
    const ctxNames = corpus.names.slice(0, Math.max(n, 5));
    const owners = Object.keys(ev.private).map(Number);
    for (const viewer of [null, ...owners]) {
      const own = viewer === null ? {} : ev.private[String(viewer)];
      const entries = B.formatEvent({ type, public: ev.public, private: own }, { names: ctxNames, viewer });
      assert.ok(entries[0].known, type + " has a formatter");
      assert.equal(entries.length, viewer === null ? 1 : 2, type);
      for (const e of entries) assert.doesNotMatch(e.text, BAD_TEXT, type + ": " + e.text);
    }
    const full = B.formatEvent(ev, { names: ctxNames, viewer: null, allPrivate: true, useYou: false });
    assert.equal(full.length, 1 + owners.length, type);
    full.slice(1).forEach((e) => assert.doesNotMatch(e.text, /\bYou\b|\bYour\b/, e.text));
  }
});

test("each decision: the prompt offers exactly the legal actions, once each, and a click sends one", () => {
  for (const key of ["draft", "play", "play_more", "assign", "assign_open", "assign_adjust", "dummy"]) {
    const frame = frames[key];
    const { root, model, chosen } = draw(frame);
    assert.ok(model.myTurn, key);
    assert.match(model.statusLine, /^Your move: /, key);
    const offered = slot(root, "prompt").querySelectorAll("[data-action]").map((el) => el.getAttribute("data-action"));
    assert.deepEqual([...offered].sort(), frame.legal.concat(frame.retract).map((a) => a.id).sort(), key);
    const buttons = slot(root, "prompt").querySelectorAll("[data-action]");
    buttons[buttons.length - 1].click();
    assert.deepEqual(chosen, [buttons[buttons.length - 1].getAttribute("data-action")], key);
    for (const action of frame.legal) {
      const text = B.describeAction(action.id, frame.seat, { names: names(frame), viewer: null });
      assert.ok(text.length > 5 && !BAD_TEXT.test(text), action.id);
    }
  }
});

test("while pending, the choices are shown but disabled", () => {
  const { root, chosen } = draw(frames.assign, { pending: true });
  const buttons = slot(root, "prompt").querySelectorAll("[data-action]");
  assert.ok(buttons.length > 0);
  buttons.forEach((b) => b.click());
  assert.deepEqual(chosen, []);
});

test("the draft: your pack as cards to keep, everyone's pick shown only as picked", () => {
  const frame = frames.draft;
  const { root, model } = draw(frame);
  const pack = slot(root, "my-pack");
  assert.equal(pack.querySelectorAll("[data-action]").length, frame.view.draft.pack.length);
  assert.equal(model.seats.length, 3);
  assert.equal(model.pack.length, frame.view.draft.pack.length);
});

test("the tray: seven dice, the points left, the best-assignment buttons, the three cards' combinations", () => {
  const frame = frames.assign;
  const { root, model } = draw(frame);
  const tray = slot(root, "tray");
  assert.ok(tray, "the dice tray is in the prompt");
  assert.equal(tray.querySelectorAll(".kf19-tray-dice .kf19-die").length, 7);
  const mine = frame.view.fight.mine;
  assert.equal(slot(root, "points-left").textContent, (mine.budget - mine.spent) + " of " + mine.budget);
  for (const id of ["auto", "best", "done"]) assert.ok(tray.querySelector(`[data-action="${id}"]`), id);
  assert.equal(tray.querySelectorAll(".kf19-tray-card").length, 3);
  assert.match(tray.textContent, /(Attack|Defence) so far: \d+/);
  assert.equal(model.assign.total >= frame.view.status[frame.seat][model.assign.attacking ? "atk" : "def"], true);
});

test("a set being built: its dice highlighted, the turn buttons under them", () => {
  const frame = frames.assign_adjust;
  const { root, model } = draw(frame);
  assert.ok(model.assign.open, "a set is open");
  assert.ok(slot(root, "open-set"));
  assert.ok(root.querySelectorAll(".kf19-adjust button").length >= 1);
  assert.equal(root.querySelectorAll(".kf19-tray-dice .in-open").length, model.assign.open.dice.length);
});

test("dice roll in once per attack", () => {
  const frame = frames.spectator;
  const { root } = boardSkeleton();
  const model = B.boardModel(frame, { nowMs: 0 });
  B.renderBoard(root, model, {});
  assert.ok(root.querySelectorAll(".kf19-rolling").length > 0, "first frame of the attack rolls");
  B.renderBoard(root, B.boardModel(frame, { nowMs: 0 }), {});
  assert.equal(root.querySelectorAll(".kf19-rolling").length, 0, "the same attack does not roll again");
  const fighters = frame.view.fight.fighters;
  assert.equal(slot(root, "fight").querySelectorAll(".kf19-die").length, 7 * fighters.length);
  const face = slot(root, "fight").querySelector(".kf19-die");
  const value = Number(face.getAttribute("data-value"));
  assert.equal(face.querySelectorAll(".on").length, value, "a die shows as many pips as its value");
});

test("HP bars, tracks and the attack order for every seat", () => {
  const frame = frames.assign;
  const { root, model } = draw(frame);
  frame.view.hp.forEach((hp, i) => {
    assert.match(slot(root, "hp-" + i).textContent, new RegExp("♥ " + hp));
    assert.match(slot(root, "tracks-" + i).textContent, new RegExp("ATK" + frame.view.status[i].atk));
  });
  const order = slot(root, "attack-order");
  assert.equal(order.querySelectorAll("li").length, frame.view.order.length);
  assert.equal(order.querySelectorAll(".current").length, 1);
  assert.equal(model.order[frame.view.attack_index].seat, frame.view.fight.attacker);
});

test("a seat waiting on the others: their commits are counts, its own cards are shown", () => {
  const frame = frames.waiting;
  const { root, model } = draw(frame);
  assert.equal(model.myTurn, false);
  assert.match(model.statusLine, /choosing cards to play/);
  assert.equal(frame.legal.length, 0);
  assert.deepEqual(slot(root, "prompt").querySelectorAll("[data-action]").map((el) => el.getAttribute("data-action")),
    frame.retract.map((a) => a.id), "only the take-backs of its own commits");
  frame.view.commits.counts.forEach((count, i) => {
    if (i === frame.seat) return;
    const el = slot(root, "commits-" + i);
    assert.equal(el.querySelectorAll(".kf19-back").length, count);
    assert.equal(el.querySelectorAll("[data-code]").length, 0, "no face of another seat's commit");
  });
  assert.equal(slot(root, "my-commits").querySelectorAll("[data-code]").length, frame.view.commits.mine.length);
});

test("no frame makes the board show a card its viewer was not shown", () => {
  const byName = new Map(CARDS.cards.map((c) => [c.name, c.code]));
  for (const [key, frame] of Object.entries(frames)) {
    const { root } = draw(frame);
    const visible = visibleCodes(frame);
    root.querySelectorAll("[data-code]").forEach((el) => {
      assert.ok(visible.has(el.getAttribute("data-code")), key + ": " + el.getAttribute("data-code"));
    });
    const text = root.textContent;
    for (const [name, code] of byName) {
      if (text.includes(name) && !visible.has(code)) {
        // A longer name may contain a shorter one ("Tiger Claw" / "Tiger Sweep" do not).
        const longer = [...byName.keys()].some((other) => other !== name && other.includes(name) && text.includes(other) && visible.has(byName.get(other)));
        assert.ok(longer, key + ": the board names " + name);
      }
    }
  }
});

test("a spectator sees the table but no hand, no tray, no choices", () => {
  const frame = frames.spectator;
  assert.equal(frame.view.hand, null);
  const { root, model } = draw(frame);
  assert.equal(model.viewer, null);
  assert.equal(model.assign, null);
  assert.ok(slot(root, "you").hidden);
  assert.equal(root.querySelectorAll("[data-action]").length, 0);
});

test("two players: the dummy's cards and its place in the attack order", () => {
  const frame = frames.dummy;
  const { root, model } = draw(frame);
  assert.ok(slot(root, "dummy"));
  assert.equal(slot(root, "dummy").querySelectorAll("[data-code]").length, 3);
  assert.ok(model.order.some((o) => o.dummy && o.name === "The dummy"));
});

test("the end: a finished frame and the results table with HP", () => {
  const frame = frames.over;
  const { model } = draw(frame);
  assert.equal(model.myTurn, false);
  assert.equal(model.groups.length, 0);
  const result = frame.view.result;
  const res = B.resultModel({
    seat: 0, status: "finished", seats: frame.seats,
    result: { winners: result.winners, placements: result.placements, engine: result },
  });
  assert.match(res.headline, /wins?!|share the win!/);
  assert.equal(res.rows.length, 3);
  assert.deepEqual(res.rows.map((r) => r.hp).sort(), result.scores.hp.slice().sort());
  assert.ok(res.gameReason && !BAD_TEXT.test(res.gameReason));
});

test("the card reference explains every icon", () => {
  const { doc, root } = boardSkeleton();
  const ref = slot(root, "card-reference");
  B.renderCardReference(ref, 3);
  for (const word of ["HP", "ATK", "DEF", "HIT", "AVO", "Red cross", "Yin-yang", "Initiative"]) {
    assert.match(ref.textContent, new RegExp(word));
  }
  assert.ok(doc);
});

test("take-backs: the card kept in the draft, a committed card, a finished dice assignment", () => {
  for (const [key, type] of [["draft_waiting", "unpick"], ["play_more", "unplay"], ["waiting", "unplay"], ["assign_done", "reopen"]]) {
    const frame = frames[key];
    assert.ok(frame.retract.length >= 1 && frame.retract.every((a) => a.type === type), key);
    const { root, chosen } = draw(frame);
    const button = slot(root, "prompt").querySelector(".kf19-retract");
    assert.ok(button, key);
    button.click();
    assert.deepEqual(chosen, [frame.retract[0].id], key);
    // A replay or a finished table offers none.
    const { root: ro } = boardSkeleton();
    B.renderBoard(ro, B.boardModel(frame, { nowMs: 0, readOnly: true }), {});
    assert.equal(ro.querySelectorAll(".kf19-retract").length, 0, key);
  }
});

test("the log leaves out the small steps of an assignment being built", () => {
  const step = { type: "assign", public: { seat: 1, done: false }, private: {} };
  const done = { type: "assign", public: { seat: 1, done: true }, private: {} };
  const entries = B.formatSteps([{ version: 3, seat: 1, kind: "move", events: [step] }, { version: 4, seat: 1, kind: "move", events: [done] }], { names: ["Ana", "Bo", "Chen"], viewer: 0 });
  assert.deepEqual(entries.map((e) => e.text), ["Bo has assigned the dice."]);
});
