// Every game's log in the viewer's language (issue 32 §1, docs/i18n.md): each
// public sentence and replay label comes whole from the catalogue, one message
// per person, so no English grammar is left around a translated message.
// A catalogue that brackets every message shows where the words came from.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";

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

test("duelo: what a seat alone saw, in a replay naming every seat, is a whole message about it", async () => {
  const B = await import("../../static/js/boards/duelo.js");
  const corpus = fixture("duelo");
  let seen = 0;
  for (const event of corpus.events) {
    for (const entry of B.formatEvent(event, { names: corpus.names, viewer: null, allPrivate: true, useYou: false }).slice(1)) {
      assert.match(entry.text, WHOLE, entry.text);
      assert.doesNotMatch(entry.text, /⟦You|⟦Your/, entry.text);
      seen += 1;
    }
  }
  assert.ok(seen > 5, "the fixture has private parts");
});

test("kungfu2013: the two-way choices' buttons are the board's messages, word for word the engine's labels", async () => {
  const B = await import("../../static/js/boards/kungfu2013.js");
  const corpus = fixture("kungfu2013");
  let checked = 0;
  for (const frame of Object.values(corpus.seat_frames)) {
    for (const action of frame.legal || []) {
      if (!B.CHOICE_LABELS[action.id]) continue;
      assert.equal(B.CHOICE_LABELS[action.id], action.label, action.id);
      const group = B.groupLegal([action], {}).find((g) => g.actions.length);
      assert.match(group.actions[0].text, WHOLE, action.id);
      checked += 1;
    }
  }
  assert.ok(checked > 0, "the fixture has two-way choices");
});
