// The shared board helpers (static/js/boards/common.js) and the boards that use
// them: every game's script takes the log, clocks, seed check and side panel
// from common.js instead of carrying its own copy, and they behave the same on
// each game's frames.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const nodeCrypto = require("node:crypto");
const C = require("../../static/js/boards/common.js");
const { boardSkeleton } = require("./minidom.js");

const BOARDS_DIR = path.join(__dirname, "..", "..", "static", "js", "boards");
const GAMES = fs.readdirSync(BOARDS_DIR).filter((f) => f.endsWith(".js") && f !== "common.js").map((f) => f.slice(0, -3));
const SHARED = ["renderLog", "tickClocks", "formatClock", "clockRemaining", "endReasonText", "sha256Hex", "verifySeed", "h"];
const slot = (root, role) => root.querySelector(`[data-role="${role}"]`);

test("every game's board exports the shared helpers from common.js, not copies", () => {
  assert.ok(GAMES.length >= 2, GAMES.join(","));
  for (const game of GAMES) {
    const B = require(path.join(BOARDS_DIR, game + ".js"));
    for (const name of SHARED) assert.equal(B[name], C[name], game + "." + name);
    for (const name of ["boardModel", "renderBoard", "resultsEl", "formatSteps", "renderCardReference"]) {
      assert.equal(typeof B[name], "function", game + "." + name);
    }
  }
});

test("side panel: status line, round, spectator delay and the pending note", () => {
  const { doc, root } = boardSkeleton();
  const model = { statusLine: "Your move: block.", myTurn: true, spectator: false, delayedBy: 3 };
  C.renderPanel(root, model, { pending: true }, doc.createElement("fieldset"), "Round 4");
  assert.equal(slot(root, "round").textContent, "Round 4");
  assert.equal(slot(root, "delay").hidden, false);
  assert.equal(slot(root, "delay").textContent, "Delayed by 3 moves");
  const prompt = slot(root, "prompt");
  assert.equal(prompt.querySelector(".prompt-text").textContent, "Your move: block.");
  assert.ok(prompt.querySelector("fieldset"));
  assert.match(prompt.textContent, /Sending your choice…/);
  assert.equal(root.classList.contains("is-my-turn"), true);
  C.renderPanel(root, Object.assign({}, model, { myTurn: false, spectator: true, delayedBy: null }), {}, null, "");
  assert.equal(slot(root, "delay").hidden, true);
  assert.doesNotMatch(prompt.textContent, /Sending/);
  assert.equal(root.classList.contains("is-spectator"), true);
});

test("turn status: benched seats watch, the actor's phase is worded, the suffix is added to my move", () => {
  const frame = {
    seat: 0, status: "active", seats: [{ name: "Ana" }, { name: "Bo" }],
    view: { actors: [1], phase: "block", prompt: "choose a block" },
  };
  const b = C.frameBasics(frame, {});
  assert.equal(C.turnStatus(b, { block: "choosing a block card" }).statusLine, "Bo is choosing a block card.");
  const mine = C.frameBasics(Object.assign({}, frame, { view: Object.assign({}, frame.view, { actors: [0] }) }), {});
  const turn = C.turnStatus(mine, {}, " (2 cards to draw)");
  assert.equal(turn.myTurn, true);
  assert.equal(turn.statusLine, "Your move: choose a block. (2 cards to draw)");
  const benched = C.frameBasics(Object.assign({}, mine.frame, { seats: [{ name: "Ana", forfeited: true }, { name: "Bo" }] }), {});
  assert.equal(C.turnStatus(benched, {}).myTurn, false);
  assert.match(C.turnStatus(benched, {}).statusLine, /a bot plays your seat/);
});

test("results panel: the game's table, seed, a verify button that checks the hash, the replay link", async () => {
  const { doc } = boardSkeleton();
  const res = { headline: "Ana wins!", seed: 42, seedHash: null, match: "m1", aborted: false };
  res.seedHash = nodeCrypto.createHash("sha256").update("m1:42").digest("hex");
  const el = C.resultsPanelEl(doc, res, "A player resigned.", doc.createElement("table"), { replayUrl: "/r/" });
  assert.equal(el.querySelector("h2").textContent, "Ana wins!");
  assert.ok(el.querySelector("table"));
  assert.equal(el.querySelector("a.button").getAttribute("href"), "/r/");
  assert.match(el.textContent, new RegExp(res.seedHash));
  assert.deepEqual(await C.verifySeed("m1", 42, res.seedHash, nodeCrypto.webcrypto), { ok: true, computed: res.seedHash });
  assert.equal((await C.verifySeed("m1", 43, res.seedHash, nodeCrypto.webcrypto)).ok, false);
  const aborted = C.resultsPanelEl(doc, Object.assign({}, res, { aborted: true, seed: null }), "", null, { replayUrl: "/r/" });
  assert.equal(aborted.querySelector("a.button"), null);
  assert.equal(aborted.querySelector("button"), null);
});
