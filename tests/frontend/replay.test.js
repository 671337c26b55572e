// The replay viewer's pure parts (static/js/replay.js) on real replay data.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as B from "../../static/js/boards/duelo.js";
import * as C from "../../static/js/boards/common.js";
import * as R from "../../static/js/replay.js";

const corpus = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", "duelo.json"), "utf8"));
const full = corpus.replay_full;
const seat = corpus.replay_seat;
const spectator = corpus.replay_spectator;

test("perspectives parse", () => {
  assert.deepEqual(R.parsePerspective("seat:3"), { kind: "seat", seat: 3 });
  assert.deepEqual(R.parsePerspective("spectator"), { kind: "spectator", seat: null });
  assert.deepEqual(R.parsePerspective("full"), { kind: "full", seat: null });
  assert.deepEqual(R.parsePerspective(undefined), { kind: "full", seat: null });
});

test("replay data is what the API serves: step 0 is the deal", () => {
  for (const data of [full, seat, spectator]) {
    assert.ok(data.steps.length > 5);
    assert.equal(data.steps[0].version, 0);
    assert.equal(data.steps[0].action_id, null);
    assert.deepEqual(data.players, corpus.names);
  }
  assert.equal(full.perspective, "full");
  assert.equal(seat.perspective, "seat:1");
});

test("full reveal draws every hand face up", () => {
  const index = 5;
  const frame = R.stepFrame(full, index);
  const model = B.boardModel(frame, { names: full.players, readOnly: true, useYou: false });
  assert.equal(model.viewer, null);
  model.seats.forEach((s, i) => {
    assert.deepEqual(s.hand, full.steps[index].hands[i]);
    assert.equal(s.hand.length, full.steps[index].view.seats[i].hand_count);
  });
  assert.equal(model.groups.length, 0, "read only");
});

test("what seat 1 knew: only seat 1's hand, and other seats' card choices hidden in labels", () => {
  for (let i = 0; i < seat.steps.length; i++) {
    const model = B.boardModel(R.stepFrame(seat, i), { names: seat.players, readOnly: true, useYou: false });
    model.seats.forEach((s) => {
      if (s.seat === 1) assert.deepEqual(s.hand, seat.steps[i].view.hand);
      else assert.equal(s.hand, null);
    });
    assert.equal(model.groups.length, 0);
  }
  const own = seat.steps.findIndex((s, i) => i > 0 && s.view.actors[0] === 1 && s.view.phase !== "over");
  assert.ok(own > 0, "the fixture has a step where seat 1 decides");
  const ownModel = B.boardModel(R.stepFrame(seat, own), { names: seat.players, readOnly: true, useYou: false });
  assert.match(ownModel.statusLine, new RegExp("^" + seat.players[1] + " is "), "names, not 'You', in a replay");
  assert.equal(ownModel.myTurn, false, "no controls in a replay");
  const other = seat.steps.findIndex((s) => s.seat !== 1 && /^card:/.test(s.action_id || ""));
  assert.ok(other > 0, "the fixture has another seat choosing a card");
  assert.match(R.stepLabel(B, seat, other), /chooses a card\.$/);
  assert.match(R.stepLabel(B, full, other), /chooses [A-Z][a-z]+.* \(\d\)\.$/, "the full reveal names the card");
});

test("the log grows with the step and marks the current step", () => {
  const short = R.replayLog(B, full, 0);
  assert.equal(short[0].text, "The cards are dealt: two cards to each player, one card set aside unseen.");
  assert.equal(short.filter((e) => e.scope === "reveal").length, full.players.length, "every dealt hand is shown");
  assert.ok(short.every((e) => e.current));
  const later = R.replayLog(B, full, 6);
  assert.ok(later.length > short.length);
  const current = later.filter((e) => e.current);
  assert.ok(current.length >= 1);
  assert.ok(current.every((e) => e.version === full.steps[6].version));
  assert.ok(later.filter((e) => !e.current).every((e) => e.version < full.steps[6].version));
});

test("the log of a seat perspective has its private entries and no one else's", () => {
  const entries = R.replayLog(B, seat, seat.steps.length - 1);
  assert.ok(entries.some((e) => e.scope === "private"));
  assert.ok(entries.every((e) => e.scope !== "reveal"));
  entries.filter((e) => e.scope === "private").forEach((e) => assert.doesNotMatch(e.text, /\bYou\b/));
  const spectatorEntries = R.replayLog(B, spectator, spectator.steps.length - 1);
  assert.ok(spectatorEntries.every((e) => e.scope === "public"));
});

test("step labels describe the move with names", () => {
  assert.match(R.stepLabel(B, full, 0), /^The deal: 3 players/);
  const step = full.steps[1];
  assert.match(R.stepLabel(B, full, 1), new RegExp("^Move " + step.version + ": " + full.players[step.seat] + " "));
});

test("the timeline: each step's server stamp as minutes, seconds and ms", () => {
  assert.equal(R.timeText(0), "0:00.000");
  assert.equal(R.timeText(4512), "0:04.512");
  assert.equal(R.timeText(61005), "1:01.005");
  assert.equal(R.timeText(null), "");
  assert.equal(R.timeText(-1), "");
  const data = { steps: [{ at_ms: 0 }, { at_ms: 1250 }, { at_ms: null }] };
  assert.equal(R.positionText(data, 0), "Step 0 of 2");
  assert.equal(R.positionText(data, 1), "Step 1 of 2 · at 0:01.250");
  assert.equal(R.positionText(data, 2), "Step 2 of 2", "a step without a stamp shows none");
});

test("clampStep and the URL hash", () => {
  assert.equal(R.clampStep(full, -4), 0);
  assert.equal(R.clampStep(full, 10000), full.steps.length - 1);
  assert.deepEqual(R.parseHash("#perspective=seat%3A2&step=7"), { perspective: "seat:2", step: "7" });
});

test("the replay's seed matches its published hash", async () => {
  const check = await C.verifySeed(full.match, full.seed, full.seed_hash, globalThis.crypto);
  assert.equal(check.ok, true);
});
