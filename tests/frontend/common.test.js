// The shared board helpers (static/js/boards/common.js) and the boards that use
// them: every game's script takes the log, clocks, seed check and side panel
// from common.js instead of carrying its own copy, and they behave the same on
// each game's frames.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import nodeCrypto from "node:crypto";
import * as C from "../../static/js/boards/common.js";
import { boardSkeleton } from "./minidom.js";

const BOARDS_DIR = path.join(import.meta.dirname, "..", "..", "static", "js", "boards");
const GAMES = fs.readdirSync(BOARDS_DIR).filter((f) => f.endsWith(".js") && f !== "common.js").map((f) => f.slice(0, -3));
// A board's own version of a common.js name that calls common's (the 2019
// dummy and the 2009 table are "seats" common.js does not know).
const WRAPPERS = new Set(["resultModel", "subj", "possessive"]);
const BOARD_API = ["boardModel", "renderBoard", "resultModel", "resultsEl", "formatSteps", "renderCardReference", "describeAction", "cardList", "dealText", "describeBoard"];
const slot = (root, role) => root.querySelector(`[data-role="${role}"]`);

test("every game's board module has the functions the pages call", async () => {
  assert.ok(GAMES.length >= 2, GAMES.join(","));
  for (const game of GAMES) {
    const B = await import(path.join(BOARDS_DIR, game + ".js"));
    for (const name of BOARD_API) assert.equal(typeof B[name], "function", game + "." + name);
  }
});

test("no board keeps its own copy of a common.js helper", () => {
  for (const game of GAMES) {
    const source = fs.readFileSync(path.join(BOARDS_DIR, game + ".js"), "utf8");
    const defined = [...source.matchAll(/^(?:function|const|let) (\w+)/gm)].map((m) => m[1]);
    assert.deepEqual(defined.filter((name) => name in C && !WRAPPERS.has(name)), [], game);
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
  assert.equal(C.turnStatus(b, { block: "%(name)s is choosing a block card." }).statusLine, "Bo is choosing a block card.");
  // Without a message for the phase: the engine's prompt, after the name.
  assert.equal(C.turnStatus(b, {}).statusLine, "Bo to move: choose a block.");
  // The prompt by its phase's message, not the engine's English words.
  const worded = C.turnStatus(b, {}, "", { block: "choose your block card" });
  assert.equal(worded.prompt, "choose your block card");
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

test("ordinal: every place a table or a tournament can have", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111, 112].map(C.ordinal),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th", "112th"]);
});

test("resultModel: one model for every game, names as written", () => {
  const game = { winnersText: (ctx, w) => C.winnersText(ctx, w, "share the win"), reasons: { out: "all out" }, columns: (s, seat) => ({ hp: C.seatScore(s, "hp", seat) }) };
  const frame = {
    status: "finished", seat: 2, end_reason: "completed", seats: [{ name: "mei" }, { name: "bo" }, { name: "Chen" }],
    result: { placements: [1, null, 1], winners: [0, 2], forfeited: [1], engine: { reason: "out", scores: { hp: [3, 0] } } },
  };
  const res = C.resultModel(frame, {}, game);
  assert.equal(res.headline, "mei and You share the win!");
  assert.equal(res.youWon, true);
  assert.equal(res.gameReason, "all out");
  // A seat without a place comes last with no place text (not "nullth"); a
  // missing score is null.
  assert.deepEqual(res.rows.map((r) => [r.name, r.placeText, r.winner, r.forfeited, r.hp]), [
    ["mei", "1st", true, false, 3], ["Chen (you)", "1st", true, false, null], ["bo", "", false, true, 0],
  ]);
  const three = C.winnersText({ names: ["a", "b", "c"], viewer: null }, [0, 1, 2], "share the win");
  assert.equal(three, "a, b and c share the win");
  const aborted = C.resultModel({ ...frame, status: "aborted" }, {}, game);
  assert.equal(aborted.headline, "Match called off: no result.");
  assert.deepEqual(aborted.rows, []);
});

test("results table: star and place, forfeits and the game's note, empty cells for missing scores", () => {
  const { doc } = boardSkeleton();
  const res = { rows: [
    { name: "Ana", placeText: "1st", winner: true, forfeited: false, hp: 4, out: false },
    { name: "Bo", placeText: "2nd", winner: false, forfeited: true, hp: null, out: true },
  ] };
  const table = C.resultsTableEl(doc, res, [{ title: "HP", value: (row) => row.hp }], (row) => (row.out ? " (knocked out)" : ""));
  const cells = Array.from(table.querySelectorAll("tbody tr"), (tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent));
  assert.deepEqual(cells, [["★ 1st", "Ana", "4"], ["2nd", "Bo (forfeited) (knocked out)", ""]]);
  assert.deepEqual(Array.from(table.querySelectorAll("th"), (th) => th.textContent), ["Place", "Player", "HP"]);
  assert.equal(C.resultsTableEl(doc, { rows: [] }, []), null);
  assert.equal(C.cardListText([], String), "no cards");
  assert.equal(C.cardListText("TD", (s) => ({ T: "Tiger", D: "Dragon" })[s]), "Tiger, Dragon");
});

test("engine words name people: 'seat N' becomes the seat's name, 'you' for the viewer", () => {
  const ctx = { names: ["Ana", "Bo", "Cy"], viewer: 0 };
  assert.equal(C.namedSeats(ctx, "offer 12 is not open (declined by seat 1)"),
    "offer 12 is not open (declined by Bo)");
  assert.equal(C.namedSeats(ctx, "offer 3 is seat 2's, not yours"), "offer 3 is Cy's, not yours");
  assert.equal(C.namedSeats(ctx, "offer 4 is not addressed to seat 0"), "offer 4 is not addressed to you");
  assert.equal(C.namedSeats(ctx, "Seat 2 is out of play"), "Cy is out of play");
  // A number that is no seat here, and words that merely contain "seat", stay.
  assert.equal(C.namedSeats(ctx, "seat 7 is not another seat at this table"),
    "seat 7 is not another seat at this table");
  assert.equal(C.namedSeats(ctx, "unseat 1"), "unseat 1");
  assert.equal(C.namedSeats({ names: ["Ana", "Bo"], viewer: null }, "declined by seat 0"), "declined by Ana");
  // Possessives: "seat 1's KUNG FU" is "Bo's", the viewer's is "your".
  assert.equal(C.namedSeats(ctx, "the game is paused while seat 1's KUNG FU is checked"),
    "the game is paused while Bo's KUNG FU is checked");
  assert.equal(C.namedSeats(ctx, "while seat 0's KUNG FU is checked"), "while your KUNG FU is checked");
  assert.equal(C.namedSeats(ctx, "Seat 0's offer"), "Your offer");
  assert.equal(C.namedSeats(ctx, "Seat 0 moved"), "You moved");
});
