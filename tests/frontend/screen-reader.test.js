// The screen-reader mode (static/js/screen-reader.js) on every game's real
// frames: the table in words (each board's describeBoard), the clocks, and
// every legal action as a control named in people's words.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as SR from "../../static/js/screen-reader.js";
import { Document } from "./minidom.js";

const ROOT = path.join(import.meta.dirname, "..", "..");
const GAMES = ["duelo", "kungfu2009", "kungfu2013", "kungfu2019"];

async function board(game) {
  return import(path.join(ROOT, "static", "js", "boards", game + ".js"));
}

function seatFrames(game) {
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "frontend", "fixtures", game + ".json"), "utf8"));
  return Object.entries(fixture.seat_frames);
}

function names(frame) {
  return (frame.seats || []).map((s, i) => s.name || "Seat " + i);
}

function skeleton() {
  const doc = new Document();
  const box = doc.createElement("section");
  for (const role of ["sr-status", "sr-clocks", "sr-board", "sr-actions"]) {
    const el = doc.createElement(role === "sr-status" ? "p" : role === "sr-actions" ? "div" : "ul");
    el.setAttribute("data-role", role);
    box.appendChild(el);
  }
  return { doc, box };
}

for (const game of GAMES) {
  test(`${game}: every seat frame reads as words, and every legal action is a named control`, async () => {
    const B = await board(game);
    const frames = seatFrames(game);
    assert.ok(frames.length > 3, game);
    let withActions = 0;
    for (const [key, frame] of frames) {
      const model = B.boardModel(frame, { names: names(frame), nowMs: 0 });
      const srm = SR.srModel(frame, model, B);
      assert.ok(srm.board.length >= model.seats.length, `${game} ${key}: a line per seat at least`);
      for (const line of srm.board) {
        assert.equal(typeof line, "string");
        assert.doesNotMatch(line, /undefined|null|NaN|\[object/, `${game} ${key}: ${line}`);
      }
      // Each seat's line starts with the seat's name; the viewer's says "(you)".
      model.seats.forEach((s) => assert.ok(srm.board.some((l) => l.startsWith(s.name + (s.isYou ? " (you)" : "")))));
      assert.equal(srm.status, model.statusLine);
      const offered = srm.groups.flatMap((g) => g.actions.map((a) => a.id));
      // Kung Fu (2019)'s take-backs of a hidden choice come beside the menu.
      const retract = (model.retract || []).map((a) => a.id);
      if (model.myTurn && frame.status === "active") {
        assert.deepEqual(offered.filter((id) => !retract.includes(id)).sort(),
          (frame.legal || []).map((a) => a.id).sort(), `${game} ${key}`);
      } else {
        assert.equal((frame.legal || []).length && !model.myTurn ? offered.length : 0, 0, `${game} ${key}: no choice when it is not your move`);
      }
      // Labels name people: "seat 1" of the engine reads as that seat's name.
      for (const a of srm.groups.flatMap((g) => g.actions)) {
        assert.doesNotMatch(a.label, /\bseat \d\b/i, `${game} ${key}: ${a.label}`);
      }
      // Drawn: one button per action, or a list box with a button; a click sends the id.
      const { doc, box } = skeleton();
      const sent = [];
      SR.renderScreenReader(box, srm, { onAct: (id) => sent.push(id), pending: false });
      const buttons = box.querySelectorAll("button");
      const selects = box.querySelectorAll("select");
      const small = srm.groups.filter((g) => g.actions.length <= SR.MAX_BUTTONS);
      assert.equal(buttons.length, small.reduce((n, g) => n + g.actions.length, 0) + (srm.groups.length - small.length));
      assert.equal(selects.length, srm.groups.length - small.length);
      // (A list box's button sends the option chosen: the tiny DOM has no value.)
      const plain = buttons.filter((b) => !b.getAttribute("data-action").startsWith("group:"));
      if (plain.length) {
        plain[0].click();
        assert.equal(sent.length, 1);
        assert.ok(offered.includes(sent[0]), sent[0]);
        withActions += 1;
      }
      assert.equal(box.querySelectorAll('[data-role="sr-board"] li').length, srm.board.length);
      assert.ok(doc);
    }
    assert.ok(withActions > 0, `${game}: some frame offers a choice`);
  });
}

test("the clocks as one sentence", () => {
  assert.equal(SR.clocksSentence({ clocks: [] }), "No clocks at this table.");
  assert.equal(SR.clocksSentence({ clocks: [{ name: "Ana (you)", text: "4:05", running: true }, { name: "Bo", text: "3:59", running: false }] }),
    "Clocks: Ana (you): 4:05, running; Bo: 3:59.");
});

test("a redraw with nothing new keeps the drawn controls", () => {
  const { box } = skeleton();
  const srm = { status: "Your move.", myTurn: true, board: ["Ana (you): 2 cards in hand."], clocks: [], groups: [{ type: "card", title: "Card", actions: [{ id: "card:1", label: "Play Disciple (1)" }] }] };
  assert.equal(SR.renderScreenReader(box, srm, { onAct: () => {} }), true);
  const button = box.querySelector("button");
  assert.equal(SR.renderScreenReader(box, JSON.parse(JSON.stringify(srm)), { onAct: () => {} }), false);
  assert.equal(box.querySelector("button"), button);
  assert.equal(button.textContent, "Play Disciple (1)");
});

test("the replay's step in words: every step of each view, and no \"you\" in it", async () => {
  const R = await import(path.join(ROOT, "static", "js", "replay.js"));
  const B = await board("duelo");
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "frontend", "fixtures", "duelo.json"), "utf8"));
  for (const key of ["replay_full", "replay_seat", "replay_spectator"]) {
    const data = fixture[key];
    data.steps.forEach((_, i) => {
      const model = B.boardModel(R.stepFrame(data, i), { names: data.players, readOnly: true, useYou: false });
      const lines = B.describeBoard(model);
      assert.ok(lines.length > data.players.length, key);
      for (const line of lines) assert.doesNotMatch(line, /\(you\)|^Your |undefined|null|NaN/, `${key} step ${i}: ${line}`);
    });
  }
  // A seat's view names whose hand it is.
  const data = fixture.replay_seat;
  const model = B.boardModel(R.stepFrame(data, 1), { names: data.players, readOnly: true, useYou: false });
  const owner = data.players[model.viewer];
  assert.ok(B.describeBoard(model).some((l) => l.startsWith(owner + "'s hand: ") || l.startsWith(owner + "' hand: ")));
  // Drawn as a list, one item a line.
  const { box } = skeleton();
  const list = box.querySelector('[data-role="sr-board"]');
  SR.renderLines(list, ["One.", "Two."]);
  assert.equal(list.querySelectorAll("li").length, 2);
  SR.renderLines(list, ["Three."]);
  assert.equal(list.textContent, "Three.");
});
