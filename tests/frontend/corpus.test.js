// The board against real engine output: fixtures/duelo.json (committed) and,
// when KFA_FRONTEND_CORPUS names a file, a corpus freshly built by
// test_node_board.py from the engine and selectors as they are now.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as B from "../../static/js/boards/duelo.js";
import * as C from "../../static/js/boards/common.js";

const sources = [["fixture", path.join(import.meta.dirname, "fixtures", "duelo.json")]];
if (process.env.KFA_FRONTEND_CORPUS) sources.push(["fresh", process.env.KFA_FRONTEND_CORPUS]);

const BAD_TEXT = /undefined|NaN|\[object|null|Seat \d/;

for (const [label, file] of sources) {
  const corpus = JSON.parse(fs.readFileSync(file, "utf8"));
  const names = corpus.names;

  test(`${label}: the corpus is not empty`, () => {
    assert.ok(corpus.events.length >= 30, "events");
    assert.ok(corpus.actions.length >= 15, "action types");
    assert.ok(Object.keys(corpus.phases).length >= 17, "decision phases");
    assert.ok(Object.keys(corpus.seat_frames).length >= 5, "seat frames");
  });

  test(`${label}: the engine's event types are exactly the ones the log knows`, () => {
    const types = [...new Set(corpus.events.map((e) => e.type))].sort();
    assert.deepEqual(types, B.EVENT_TYPES);
  });

  test(`${label}: every event formats cleanly for its owner, a spectator and the full reveal`, () => {
    for (const event of corpus.events) {
      const owners = Object.keys(event.private).map(Number);
      for (const viewer of [null, ...owners]) {
        const own = viewer === null ? {} : event.private[String(viewer)];
        const filtered = { type: event.type, public: event.public, private: own };
        const entries = B.formatEvent(filtered, { names, viewer });
        assert.equal(entries[0].known, true, event.type);
        assert.equal(entries.length, viewer === null ? 1 : 2, event.type + " for " + viewer);
        if (viewer !== null) assert.equal(entries[1].scope, "private");
        for (const entry of entries) assert.doesNotMatch(entry.text, BAD_TEXT, JSON.stringify(event));
      }
      const full = B.formatEvent(event, { names, viewer: null, allPrivate: true, useYou: false });
      assert.equal(full.length, 1 + owners.length, event.type);
      full.slice(1).forEach((entry) => {
        assert.equal(entry.scope, "reveal");
        assert.doesNotMatch(entry.text, /\bYou\b|\bYour\b/, entry.text);
      });
    }
  });

  test(`${label}: every legal action type has its own control group and named seats`, () => {
    const groups = B.groupLegal(corpus.actions, { names, viewer: 0 });
    assert.equal(groups.length, corpus.actions.length, "one group per type");
    for (const group of groups) {
      assert.notEqual(group.title, "Choose", group.type);
      for (const action of group.actions) {
        assert.doesNotMatch(action.text, BAD_TEXT, action.id);
        if (group.kind === "cards") assert.ok(B.cardInfo(action.card), action.id);
        if (group.kind === "seats") assert.equal(typeof action.seat, "number");
      }
    }
    for (const [phase, sample] of Object.entries(corpus.phases)) {
      const grouped = B.groupLegal(sample.legal, { names, viewer: sample.view.seat });
      assert.ok(grouped.length >= 1, phase);
      assert.equal(grouped.reduce((n, g) => n + g.actions.length, 0), sample.legal.length, phase);
    }
  });

  test(`${label}: seat frames show your hand and your choices, nobody else's cards`, () => {
    for (const [phase, frame] of Object.entries(corpus.seat_frames)) {
      const model = B.boardModel(frame, { nowMs: Date.parse(frame.seats[0].deadline || "2026-01-01T00:00:00Z") });
      assert.equal(model.viewer, frame.seat);
      assert.deepEqual(model.hand, frame.view.hand, phase);
      assert.equal(model.seats.length, frame.seats.length);
      model.seats.forEach((seat) => {
        assert.equal(seat.name, frame.seats[seat.seat].name);
        assert.equal(seat.handCount, frame.view.seats[seat.seat].hand_count);
        if (seat.seat !== frame.seat) assert.equal(seat.hand, null, "no other hand is drawn face up");
      });
      if (phase === "waiting") {
        assert.equal(model.myTurn, false);
        assert.equal(model.groups.length, 0);
        assert.ok(frame.events.length > 0, "a frame after a move carries its events");
      } else {
        assert.equal(model.myTurn, true, phase);
        assert.equal(model.groups.reduce((n, g) => n + g.actions.length, 0), frame.legal.length, phase);
        assert.match(model.statusLine, /^Your move: /);
      }
      assert.equal(model.deckCount, frame.view.deck_count);
      assert.equal(model.discardTop, frame.view.discard.length ? frame.view.discard[frame.view.discard.length - 1] : null);
    }
  });

  test(`${label}: a duel shows the hidden card as hidden until it is revealed`, () => {
    const answer = corpus.seat_frames.answer;
    const model = B.boardModel(answer);
    assert.equal(model.table.kind, "duel");
    assert.equal(model.table.defender, answer.seat);
    assert.deepEqual(model.table.cards, [null, null], "the defender does not see the attacker's card");
    const face = B.boardModel(corpus.seat_frames.face);
    assert.equal(face.table.kind, "play");
    assert.equal(face.table.caption, "You are playing");
    assert.ok(face.table.card >= 1, "you see the card you are about to play");
    const upPhase = ["u_disciple", "drunk_put", "snake_target", "tiger_target"].find((p) => corpus.seat_frames[p]);
    assert.ok(upPhase, "the corpus has a face-up play");
    const up = B.boardModel(corpus.seat_frames[upPhase]);
    assert.equal(up.table.caption, "You played face up");
    const target = B.boardModel(corpus.seat_frames.target);
    assert.equal(target.table.cards[0], corpus.seat_frames.target.view.duel.cards[0]);
    assert.ok(target.table.cards[0] >= 1, "the attacker sees their own card");
  });

  test(`${label}: spectators get the public table and no controls`, () => {
    for (const frame of corpus.spectator_frames) {
      assert.equal(frame.seat, null);
      const model = B.boardModel(frame);
      assert.equal(model.spectator, true);
      assert.equal(model.hand, null);
      assert.equal(model.groups.length, 0);
      model.seats.forEach((seat) => assert.equal(seat.hand, null));
    }
  });

  test(`${label}: the finished match gives a results screen with the revealed seed`, () => {
    for (const frame of [corpus.finished_seat, corpus.finished_spectator]) {
      assert.equal(frame.status, "finished");
      const res = B.resultModel(frame);
      assert.equal(res.rows.length, names.length);
      assert.ok(res.rows[0].winner, "the first row is a winner");
      assert.deepEqual(res.rows.map((r) => r.place), [...res.rows.map((r) => r.place)].sort((a, b) => a - b));
      assert.ok(res.seed && res.seedHash && res.match);
      const model = B.boardModel(frame);
      assert.equal(model.groups.length, 0);
      assert.equal(model.statusLine, "The game is over.");
    }
  });

  test(`${label}: the published hash is sha256 of '<match>:<seed>'`, async () => {
    const frame = corpus.finished_seat;
    const check = await C.verifySeed(frame.match, frame.seed, frame.seed_hash, globalThis.crypto);
    assert.equal(check.ok, true, "computed " + check.computed);
  });

  test(`${label}: history steps format into a log ordered by version`, () => {
    const entries = B.formatSteps(corpus.history.steps, { names, viewer: 0 });
    assert.ok(entries.length >= corpus.history.steps.length);
    for (let i = 1; i < entries.length; i++) assert.ok(entries[i].version >= entries[i - 1].version);
    assert.ok(entries.some((e) => e.scope === "private"), "seat 0 saw something private");
    entries.forEach((e) => assert.doesNotMatch(e.text, BAD_TEXT));
  });
}
