// The DOM renderers of boards/duelo.js on real frames, through a tiny DOM.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as B from "../../static/js/boards/duelo.js";
import * as C from "../../static/js/boards/common.js";
import { boardSkeleton } from "./minidom.js";

const corpus = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", "duelo.json"), "utf8"));
const slot = (root, role) => root.querySelector(`[data-role="${role}"]`);

function draw(frame, opts) {
  const { doc, root } = boardSkeleton();
  const model = B.boardModel(frame, { nowMs: 0 });
  const chosen = [];
  B.renderBoard(root, model, Object.assign({ onAct: (a) => chosen.push(a.id) }, opts || {}));
  return { doc, root, model, chosen };
}

test("your decision: one real <button> per legal action, and clicking sends that action", () => {
  for (const [phase, frame] of Object.entries(corpus.seat_frames)) {
    if (phase === "waiting") continue;
    const { root, chosen } = draw(frame);
    const buttons = slot(root, "prompt").querySelectorAll("button");
    assert.equal(buttons.length, frame.legal.length, phase);
    buttons.forEach((b) => {
      assert.equal(b.tagName, "BUTTON");
      assert.equal(b.getAttribute("type"), "button");
      assert.ok((b.getAttribute("aria-label") || b.textContent).length > 2, phase + ": the button has a name");
    });
    buttons[buttons.length - 1].click();
    assert.deepEqual(chosen, [frame.legal[frame.legal.length - 1].id], phase);
  }
});

test("choosing a card from your hand: the hand cards are buttons too", () => {
  const frame = corpus.seat_frames.card;
  const { root, chosen } = draw(frame);
  const handButtons = slot(root, "you").querySelectorAll("button.kcard");
  assert.equal(handButtons.length, frame.view.hand.length, "every card in hand is playable");
  handButtons[0].click();
  assert.deepEqual(chosen, ["card:" + frame.view.hand[0]]);
});

test("while a choice is on its way every control is disabled", () => {
  const { root, chosen } = draw(corpus.seat_frames.face, { pending: true });
  const buttons = slot(root, "prompt").querySelectorAll("button");
  assert.ok(buttons.length >= 1);
  buttons.forEach((b) => assert.equal(b.disabled, true));
  buttons[0].click();
  assert.deepEqual(chosen, []);
});

test("waiting for someone else: no controls, and the actor's seat is highlighted", () => {
  const frame = corpus.seat_frames.waiting;
  const { root, model } = draw(frame);
  assert.equal(slot(root, "prompt").querySelectorAll("button").length, 0);
  const actor = frame.actors[0];
  const seats = root.querySelectorAll("section.seat");
  assert.equal(seats.length, frame.seats.length, "opponents plus your own seat");
  const highlighted = seats.filter((s) => s.classList.contains("is-actor"));
  assert.equal(highlighted.length, 1);
  assert.equal(highlighted[0].getAttribute("data-seat"), String(actor));
  assert.match(slot(root, "prompt").textContent, new RegExp(model.names[actor]));
});

test("spectators: every seat as an opponent, no hand, no buttons", () => {
  const frame = corpus.spectator_frames[corpus.spectator_frames.length - 1];
  const { root } = draw(frame);
  assert.equal(slot(root, "you").hidden, true);
  assert.equal(slot(root, "opponents").querySelectorAll("section.seat").length, frame.seats.length);
  assert.equal(root.querySelectorAll("button").length, 0);
  assert.equal(root.classList.contains("is-spectator"), true);
  assert.equal(root.querySelectorAll(".hand-open").length, 0, "no hand is drawn face up");
});

test("the log marks private entries and tags them", () => {
  const { doc } = boardSkeleton();
  const list = doc.createElement("ol");
  C.renderLog(list, B.formatSteps(corpus.history.steps, { names: corpus.names, viewer: 0 }));
  const items = list.querySelectorAll("li");
  assert.ok(items.length > 5);
  const mine = list.querySelectorAll("li.log-private");
  assert.ok(mine.length >= 1);
  mine.forEach((li) => assert.equal(li.querySelector(".log-tag").textContent, "Only you"));
  list.querySelectorAll("li.log-public").forEach((li) => assert.equal(li.querySelector(".log-tag"), null));
  C.renderLog(list, [{ scope: "public", text: "again", version: 99 }], { replace: true });
  assert.equal(list.querySelectorAll("li").length, 1);
});

test("results: placements table, seed, verify button and the replay link", () => {
  const { doc } = boardSkeleton();
  const frame = corpus.finished_seat;
  const el = B.resultsEl(doc, B.resultModel(frame), { replayUrl: "/matches/x/replay/" });
  assert.equal(el.querySelectorAll("tbody tr").length, frame.seats.length);
  assert.equal(el.querySelector("a.button").getAttribute("href"), "/matches/x/replay/");
  assert.equal(el.querySelector("button").textContent, "Verify seed");
  assert.match(el.textContent, new RegExp(frame.seed_hash));
});

test("the card reference lists the eight cards", () => {
  const { root } = boardSkeleton();
  const container = slot(root, "card-reference");
  B.renderCardReference(container, 3);
  const rows = container.querySelectorAll("tbody tr");
  assert.equal(rows.length, 8);
  assert.match(rows[7].textContent, /Master of Kung Fu/);
});
