// Every game's log in the viewer's language (issue 32 §1, docs/i18n.md): each
// public sentence and replay label comes whole from the catalogue, one message
// per person, so no English grammar is left around a translated message.
// A catalogue that brackets every message shows where the words came from.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { namedSeats } from "../../static/js/boards/common.js";

// Set before the boards load: their tables of words are read at load time.
globalThis.django = {
  gettext: (m) => "⟦" + m + "⟧",
  ngettext: (s, p, n) => "⟦" + (n === 1 ? s : p) + "⟧",
};

const WHOLE = /^⟦[\s\S]*⟧$/;
const BOARDS = ["duelo", "kungfu2013", "kungfu2019", "kungfu2009"];

function fixture(game) {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", game + ".json"), "utf8"));
}

for (const game of BOARDS) {
  test(`${game}: every public log sentence is whole messages, for each reader`, async () => {
    const B = await import(`../../static/js/boards/${game}.js`);
    const corpus = fixture(game);
    const events = Array.isArray(corpus.events) ? corpus.events : Object.values(corpus.events);
    const names = corpus.names || ["Ana", "Bo", "Cy", "Di"];
    const seen = new Set();
    for (const event of events) {
      for (const viewer of [null, ...names.map((_, i) => i)]) {
        for (const useYou of [true, false]) {
          const entry = B.formatEvent({ type: event.type, public: event.public, private: {} }, { names, viewer, useYou })[0];
          assert.equal(entry.known, true, event.type);
          assert.match(entry.text, WHOLE, `${event.type} for ${viewer}: ${entry.text}`);
          // The reader's own sentence is worded for them: no "You" in the third person.
          if (viewer === null || !useYou) assert.doesNotMatch(entry.text, /⟦You |⟦Your /, entry.text);
        }
      }
      seen.add(event.type);
    }
    assert.deepEqual([...seen].sort(), B.EVENT_TYPES.filter((type) => seen.has(type)));
    assert.ok(seen.size >= B.EVENT_TYPES.length - 1, `${game}: the fixture covers the events`);
  });
}

test("the replay's step labels come whole from the catalogue, per person", async () => {
  const labels = {
    duelo: ["card:3", "answer:4", "target:1", "swap:0", "face:up", "reveal:no", "guess:odd", "peek:bottom"],
    kungfu2013: ["initiative:keep", "draw:red", "attack:r01", "face:down", "effect:use", "reward:draw"],
    kungfu2019: ["pick:1", "play:1", "auto", "die:2", "up:0", "reopen"],
    kungfu2009: ["pass", "to:all", "to:1", "give:T:D", "want:M", "send", "accept:3", "move:0:2", "claim:E01", "impasse:no"],
  };
  for (const game of BOARDS) {
    const B = await import(`../../static/js/boards/${game}.js`);
    for (const id of labels[game]) {
      for (const actor of [0, 1]) {
        const text = B.describeAction(id, actor, { names: ["Ana", "Bo"], viewer: 0 }, "?");
        assert.match(text, WHOLE, `${game} ${id} by ${actor}: ${text}`);
      }
    }
  }
});

test("each engine prompt has the board's message for its phase, word for word", async () => {
  // The engines word view.prompt in English (they know no Django); the board
  // shows its own message for the phase, so the two must say the same.
  for (const game of ["duelo", "kungfu2013", "kungfu2019"]) {
    const B = await import(`../../static/js/boards/${game}.js`);
    const corpus = fixture(game);
    const frames = [];
    const collect = (value) => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === "object") {
        if (value.view && typeof value.view.prompt === "string") frames.push(value);
        Object.values(value).forEach(collect);
      }
    };
    collect(corpus);
    assert.ok(frames.length > 0, game);
    for (const frame of frames) {
      const message = B.PROMPTS[frame.view.phase];
      assert.equal(message, frame.view.prompt, `${game} ${frame.view.phase}`);
    }
    // Every waiting phase names the actor in one whole message.
    for (const message of Object.values(B.PHASE_WAIT)) assert.match(message, /^%\(name\)s /);
  }
});

test("the table in words (screen-reader mode) comes whole from the catalogue, and so does the status line", async () => {
  for (const game of BOARDS) {
    const B = await import(`../../static/js/boards/${game}.js`);
    const corpus = fixture(game);
    for (const [key, frame] of Object.entries(corpus.seat_frames || {})) {
      const names = (frame.seats || []).map((s, i) => s.name || "Seat " + i);
      const model = B.boardModel(frame, { names: names, nowMs: 0 });
      // The status line: whole messages (a suffix is a message of its own).
      assert.match(model.statusLine, /^⟦[\s\S]*⟧$/, `${game} ${key} status: ${model.statusLine}`);
      assert.doesNotMatch(model.statusLine.replace(/⟦[^⟦⟧]*⟧/g, "").replace(/⟦[^⟦⟧]*⟧/g, ""), /[a-z]{3,}/, `${game} ${key} status: ${model.statusLine}`);
      for (const line of B.describeBoard(model)) {
        // Duelo's "what you saw" note is the model's own (already translated) sentence.
        if (model.sight && line === model.sight.text) continue;
        assert.match(line, WHOLE, `${game} ${key}: ${line}`);
      }
    }
  }
});

test("what a seat alone saw, in a replay naming every seat, is a whole message about it", async () => {
  for (const game of BOARDS) {
    const B = await import(`../../static/js/boards/${game}.js`);
    // Every private sentence has its third-person message (no English rewording).
    assert.deepEqual(Object.keys(B.PRIVATE_THIRD).sort(), Object.keys(B.PRIVATE).sort(), game);
    const corpus = fixture(game);
    const events = Array.isArray(corpus.events) ? corpus.events : Object.values(corpus.events);
    const names = corpus.names || ["Ana", "Bo", "Cy", "Di"];
    let seen = 0;
    for (const event of events) {
      for (const entry of B.formatEvent(event, { names, viewer: null, allPrivate: true, useYou: false }).slice(1)) {
        assert.match(entry.text, WHOLE, `${game}: ${entry.text}`);
        assert.doesNotMatch(entry.text, /⟦You|⟦Your/, entry.text);
        seen += 1;
      }
    }
    assert.ok(seen > 0, `${game}: the fixture has private parts`);
  }
});

test("kungfu2019: every dice step, told about its owner in a full replay, is a whole message", async () => {
  const B = await import("../../static/js/boards/kungfu2019.js");
  for (const step of ["auto", "best", "done", "reset", "cancel", "set:1:0", "die:2", "up:0", "down:1", "drop:0", "other"]) {
    const event = { type: "assign", public: { seat: 1, done: false }, private: { 1: { step, sets: [[0, 0, [1]]] } } };
    const entry = B.formatEvent(event, { names: ["Ana", "Bo"], viewer: null, allPrivate: true, useYou: false })[1];
    assert.match(entry.text, /^⟦Bo [^⟧]*⟧ ⟦Bo's [^⟧]*⟧$/, `${step}: ${entry.text}`);
  }
});

// The English catalogue (no translation): what a board says without /jsi18n/.
function inEnglish(fn) {
  const saved = globalThis.django;
  globalThis.django = undefined;
  try {
    return fn();
  } finally {
    globalThis.django = saved;
  }
}

// The engine's words as a board says them: people's names for "seat N", the
// arrow the boards draw for a rising value ("3->5").
function engineWords(label, names) {
  return namedSeats({ names, viewer: null }, label).replace(/->/g, "→");
}

test("every kind of engine action label has the board's message, word for word the engine's in English", async () => {
  // The engines word action.label in English (they know no Django); each board
  // words what it shows from the action's type and parameters (actionText).
  // The fixtures hold one action per kind of label the engine makes
  // (tests/frontend/label_kinds.py), and every menu of their frames.
  for (const game of BOARDS) {
    const B = await import(`../../static/js/boards/${game}.js`);
    const corpus = fixture(game);
    const names = corpus.names || ["Ana", "Bo", "Cy", "Di"];
    const actions = Object.values(corpus.labels);
    assert.ok(actions.length >= 15, `${game}: the fixture has its label kinds`);
    for (const frame of Object.values(corpus.seat_frames)) actions.push(...(frame.legal || []), ...(frame.retract || []));
    const own = new Set(B.LABELS_OWN_WORDS || []);
    const types = new Set();
    for (const action of actions) {
      const ctx = { names, viewer: null };
      const text = B.actionText(action, ctx);
      types.add(action.type);
      // A card to play in Duelo is named by the card alone (names stay English).
      if (!(game === "duelo" && action.type === "card")) assert.match(text, WHOLE, `${game} ${action.id}: ${text}`);
      if (own.has(action.type)) continue;
      assert.equal(inEnglish(() => B.actionText(action, ctx)), engineWords(action.label, names), `${game} ${action.id}`);
    }
    // The screen-reader panel titles every kind of choice with a message.
    for (const type of types) {
      assert.ok(B.GROUP_TITLES[type], `${game}: no group title for ${type}`);
      assert.match(B.GROUP_TITLES[type], WHOLE, `${game} ${type}: ${B.GROUP_TITLES[type]}`);
    }
  }
});

test("the screen-reader panel reads the board's words for every action, and a message for every group", async () => {
  const SR = await import("../../static/js/screen-reader.js");
  for (const game of BOARDS) {
    const B = await import(`../../static/js/boards/${game}.js`);
    const corpus = fixture(game);
    let read = 0;
    for (const [key, frame] of Object.entries(corpus.seat_frames)) {
      const names = (frame.seats || []).map((s, i) => s.name || "Seat " + i);
      const model = B.boardModel(frame, { names, nowMs: 0 });
      for (const group of SR.srModel(frame, model, B).groups) {
        assert.match(group.title, WHOLE, `${game} ${key}: ${group.title}`);
        for (const a of group.actions) {
          if (!(game === "duelo" && group.type === "card")) assert.match(a.label, WHOLE, `${game} ${key}: ${a.label}`);
          read += 1;
        }
      }
    }
    assert.ok(read > 0, `${game}: the fixture's frames offer actions`);
  }
});

test("the analysis panel words each menu's actions through the board, in the reader's language", async () => {
  const { Document } = await import("./minidom.js");
  const A = await import("../../static/js/analysis.js");
  const B = await import("../../static/js/boards/kungfu2013.js");
  const corpus = fixture("kungfu2013");
  const legal = corpus.seat_frames.pay.legal;
  const fields = (a) => Object.fromEntries(Object.entries(a).filter(([k]) => k !== "id" && k !== "label"));
  const d = {
    version: 9, seat: 0, grade: "mistake", loss: 0.12, best: legal[0].id,
    taken: legal[1].id, taken_label: legal[1].label, taken_action: fields(legal[1]),
    menu: legal.map((a) => ({ id: a.id, label: a.label, action: fields(a), value: 0.5, visits: 3 })),
  };
  const box = A.menuEl(new Document(), d, ["Ana", "Bo"], B);
  const cells = box.querySelectorAll("tr").slice(1).map((row) => row.childNodes[0].textContent);
  assert.equal(cells.length, legal.length);
  for (const cell of cells) assert.match(cell, WHOLE, cell);
  assert.ok(box.textContent.includes(B.actionText(legal[1])), box.textContent);
  // An analysis stored before the actions' fields were kept: the engine's label.
  const old = A.menuEl(new Document(), Object.assign({}, d, { taken_action: undefined, menu: [{ id: "x", label: "Pay with X (1 coin)", value: 0.5 }] }), [], B);
  assert.ok(old.textContent.includes("Pay with X (1 coin)"), old.textContent);
});
