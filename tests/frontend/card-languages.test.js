// The card texts of the boards in the reader's language (issue 32 §1,
// docs/i18n.md "Card texts"): every text a board shows on or for a card (2013's
// effect texts, 2019's card texts and combinations, 2009's combination titles,
// hand titles and table counts) is made of whole messages from the catalogue,
// filled from the card data's codes and numbers; only the cards' names (kept
// English on purpose) and numbers and symbols sit inside them. A catalogue that
// brackets every message shows where the words came from. The board's English
// messages are held word for word to the card data's own English, so a new
// effect or combination kind fails here until the board has a message for it.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { boardSkeleton } from "./minidom.js";

// A pseudo-language: each message bracketed and its own words in capitals (the
// placeholders kept), so an English word that reaches the page as a
// placeholder's value shows up in lower case.
const shout = (m) => "⟦" + m.replace(/(%\(\w+\)s)|[^%]+|%/g, (part, ph) => (ph ? ph : part.toUpperCase())) + "⟧";
const BRACKETS = {
  gettext: (m) => shout(m),
  ngettext: (s, p, n) => shout(n === 1 ? s : p),
};
// Set before the boards load: their tables of words are read at load time.
globalThis.django = BRACKETS;

const B13 = await import("../../static/js/boards/kungfu2013.js");
const B19 = await import("../../static/js/boards/kungfu2019.js");
const B09 = await import("../../static/js/boards/kungfu2009.js");
const D13 = (await import("../../static/js/boards/data/kungfu2013-cards.js")).default;
const D19 = (await import("../../static/js/boards/data/kungfu2019-cards.js")).default;
const D09 = (await import("../../static/js/boards/data/kungfu2009-cards.js")).default;

function fixture(game) {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", game + ".json"), "utf8"));
}

/** English, as a page without the catalogue shows it. */
function english(fn) {
  globalThis.django = undefined;
  try {
    return fn();
  } finally {
    globalThis.django = BRACKETS;
  }
}

/** What is left of `text` outside every (nested) message. */
function outside(text) {
  let rest = String(text);
  for (let before = null; before !== rest;) {
    before = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, "");
  }
  return rest;
}

// The names that stay English (docs/i18n.md), longest first.
const NAMES = [...new Set([
  ...D13.cards.map((c) => c.name), ...D19.cards.map((c) => c.name), ...Object.values(D09.style_names),
  ...(fixture("duelo").names || []),
  ...["duelo", "kungfu2013", "kungfu2019", "kungfu2009"].flatMap((g) => (fixture(g).seat_frames ? Object.values(fixture(g).seat_frames) : []).flatMap((f) => (f.seats || []).map((s) => s.name || ""))),
])].filter(Boolean).sort((a, b) => b.length - a.length);

/**
 * `text` is whole messages: nothing but separators, numbers and symbols outside
 * them, and no English word inside them but the names that stay English.
 */
function assertWhole(text, what) {
  assert.ok(String(text).includes("⟦"), `${what}: no message in ${JSON.stringify(text)}`);
  assert.doesNotMatch(outside(text), /\p{L}/u, `${what}: words outside the catalogue in ${JSON.stringify(text)}`);
  let rest = String(text);
  for (const name of NAMES) rest = rest.split(name).join("");
  assert.doesNotMatch(rest, /\p{Ll}/u, `${what}: English inside a message in ${JSON.stringify(text)}`);
}

/**
 * The card texts of every card-like element under `root`: titles and accessible
 * names. A card that is an action's button is named by the action's label
 * (worded from the action, not from the card): left out here.
 */
function cardLabels(root, selector) {
  const out = [];
  for (const el of root.querySelectorAll(selector)) {
    if (el.hasAttribute("data-action")) continue;
    for (const name of ["title", "aria-label"]) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  return out;
}

function render(B, frame) {
  const { root } = boardSkeleton();
  const model = B.boardModel(frame, { nowMs: 0, names: (frame.seats || []).map((s, i) => s.name || "Seat " + i) });
  B.renderBoard(root, model, { onAct() {}, onPlan() {} });
  return root;
}

// --- Kung Fu 2013 ---------------------------------------------------------

test("kungfu2013: every effect kind of the card data has its message, word for word the data's English", () => {
  assert.deepEqual(Object.keys(B13.EFFECT_TEXTS).sort(), Object.keys(D13.effects).sort());
  for (const [code, text] of Object.entries(D13.effects)) {
    assert.equal(B13.EFFECT_TEXTS[code], text, code);
    assert.ok(B13.EFFECT_NAMES[code], `${code} has a name for the reference`);
    const help = B13.EFFECT_HELP[code];
    assert.ok(help && help.startsWith(text.charAt(0).toUpperCase() + text.slice(1)), `${code} reference: ${help}`);
  }
  for (const card of D13.cards) if (card.effect) assert.ok(B13.EFFECT_TEXTS[card.effect], card.code);
});

test("kungfu2013: every card's title and effect text is whole messages, from the card's codes and numbers", () => {
  let effects = 0;
  for (const card of D13.cards) {
    const title = B13.cardTitle(card);
    assertWhole(title, card.code);
    assert.ok(title.includes(card.name), `${card.code}: the name stays`);
    const effect = B13.effectText(card);
    if (card.effect || card.coins || card.rise !== null) {
      assertWhole(effect, card.code);
      effects += 1;
    } else assert.equal(effect, "", card.code);
    // The numbers come from the data: the cost and the coins are in the text.
    if (card.cost !== null) assert.ok(effect.includes("(COST " + card.cost + " COIN"), `${card.code}: ${effect}`);
    if (card.on_hit) assert.match(effect, /⟦IF THE OPPONENT LOSES LIFE: ⟦/, card.code);
  }
  assert.ok(effects > 30, "the data has cards with effects, coins and rises");
  // The same words in English, as before: the engine's effect text, the cost, the coins.
  const lotus = D13.cards.find((c) => c.rise !== null && c.coins);
  assert.equal(english(() => B13.effectText(lotus)), `value rises to ${lotus.rise} (cost ${lotus.cost} coin); ${lotus.coins} power coin`);
  const hook = D13.cards.find((c) => c.on_hit);
  assert.equal(english(() => B13.cardTitle(hook)),
    `${hook.name} (attack ${hook.value}): if the opponent loses life: ${D13.effects[hook.effect]} (cost ${hook.cost} coins)`);
});

test("kungfu2013: the cards on the table and the card reference speak the reader's language", () => {
  const corpus = fixture("kungfu2013");
  let seen = 0;
  for (const [key, frame] of Object.entries(corpus.seat_frames)) {
    const root = render(B13, frame);
    for (const label of cardLabels(root, ".kf13-card")) { assertWhole(label, key); seen += 1; }
    for (const el of root.querySelectorAll(".kcard-effect")) assertWhole(el.textContent, key);
  }
  assert.ok(seen > 10, "the fixture shows cards");
  const { root } = boardSkeleton();
  const ref = root.querySelector('[data-role="card-reference"]');
  B13.renderCardReference(ref);
  const [icons, list] = ref.querySelectorAll("table");
  for (const row of icons.querySelectorAll("tbody tr")) {
    for (const cell of row.querySelectorAll("td")) assertWhole(cell.textContent, "icon reference");
  }
  const rows = list.querySelectorAll("tbody tr");
  assert.equal(rows.length, D13.cards.length);
  rows.forEach((row, i) => {
    const cells = row.querySelectorAll("td");
    assertWhole(cells[1].textContent, D13.cards[i].code + " colour");
    if (cells[4].textContent !== "—") assertWhole(cells[4].textContent, D13.cards[i].code + " effect");
  });
});

// --- Kung Fu 2019 ---------------------------------------------------------

test("kungfu2019: every combination and effect of the card data has its message, word for word the data's English", () => {
  let combos = 0;
  for (const card of D19.cards) {
    for (const combo of card.combos) {
      assert.ok(B19.COMBO_KINDS.includes(combo.kind), `${card.code}: a message for the kind ${combo.kind}`);
      for (const field of Object.keys(combo.effect)) {
        assert.ok(field === "yy" || B19.EFFECT_TEXTS[field], `${card.code}: a message for the effect ${field}`);
      }
      assert.equal(english(() => B19.comboNeed(combo)), combo.label, card.code);
      assert.equal(english(() => B19.effectLabel(combo.effect)), combo.effect_label, card.code);
      combos += 1;
    }
  }
  assert.ok(combos >= 74, "every card has combinations");
  // A field without a message still shows (in the data's English), and the check above fails on it.
  assert.equal(english(() => B19.effectLabel({ zz: 2 })), "+2 ZZ");
});

test("kungfu2019: every card's text is whole messages, from the card's codes and numbers", () => {
  for (const card of D19.cards) {
    const text = B19.cardText(card.code);
    assertWhole(text, card.code);
    assert.ok(text.includes(card.name), `${card.code}: the name stays`);
    assert.ok(text.includes("INITIATIVE " + card.initiative + ","), `${card.code}: ${text}`);
    for (const combo of card.combos) assertWhole(B19.comboText(combo), card.code);
    // The card itself: each combination's effect is messages; the dice it needs are
    // messages or numbers and symbols only ("4/5/6", "✚").
    const { root } = boardSkeleton();
    const el = B19.cardEl(root.ownerDocument, card.code, "lg");
    for (const label of cardLabels(el, ".kf19-card").concat([el.getAttribute("title")])) assertWhole(label, card.code);
    for (const need of el.querySelectorAll(".kf19-combo-need")) assert.doesNotMatch(outside(need.textContent), /\p{L}/u, card.code);
    for (const effect of el.querySelectorAll(".kf19-combo-effect")) assertWhole(effect.textContent, card.code);
  }
  assert.equal(english(() => B19.cardText(D19.cards[0].code)),
    `${D19.cards[0].name}: initiative ${D19.cards[0].initiative}, bonus ${D19.cards[0].icon.toUpperCase()}; ` +
    D19.cards[0].combos.map((c) => c.label + ": " + c.effect_label).join("; "));
});

test("kungfu2019: the cards and combinations on the table and in the dice tray speak the reader's language", () => {
  const corpus = fixture("kungfu2019");
  let seen = 0, tray = 0;
  for (const [key, frame] of Object.entries(corpus.seat_frames)) {
    const root = render(B19, frame);
    for (const label of cardLabels(root, ".kf19-card")) {
      if (root.querySelector(".kf19-back") && label === root.querySelector(".kf19-back").getAttribute("aria-label")) continue;
      assertWhole(label, key);
      seen += 1;
    }
    for (const el of root.querySelectorAll(".kf19-combo-effect")) assertWhole(el.textContent, key);
    for (const el of root.querySelectorAll(".kf19-combo-static")) {
      assertWhole(el.textContent, key);
      if (el.getAttribute("title")) assertWhole(el.getAttribute("title"), key);
      tray += 1;
    }
  }
  assert.ok(seen > 10 && tray > 0, `the fixture shows cards (${seen}) and the dice tray (${tray})`);
});

// --- Kung Fu 2009 ---------------------------------------------------------

test("kungfu2009: every combination card's title is whole messages; the data's words are the board's", () => {
  for (const lv of D09.level_order) assert.equal(B09.LEVEL_TITLE[lv], D09.levels[lv].name, lv);
  assert.deepEqual(Object.keys(B09.BACKGROUND).sort(), [...D09.level_order].sort());
  for (const combo of D09.combinations) {
    assert.equal(B09.hitsText(combo.hits), combo.label, combo.code);
    const title = B09.comboTitle(combo);
    assertWhole(title, combo.code);
    const { root } = boardSkeleton();
    const el = B09.comboEl(root.ownerDocument, combo.code, "md");
    assertWhole(el.getAttribute("aria-label"), combo.code);
    assertWhole(el.getAttribute("title"), combo.code);
  }
  const first = D09.combinations[0];
  assert.equal(english(() => B09.comboTitle(first)),
    `${first.code}: ${first.level}, ${first.points} point${first.points === 1 ? "" : "s"}, ${first.label}`);
});

test("kungfu2009: the hand's cards, the claims, the piles and the table's counts speak the reader's language", () => {
  const corpus = fixture("kungfu2009");
  const seen = new Set();
  for (const [key, frame] of Object.entries(corpus.seat_frames)) {
    const root = render(B09, frame);
    // Every card's title: the hand, the claims' cards, the discards' little cards keep their
    // style's name alone (a card name); the rest is messages.
    for (const el of root.querySelectorAll(".kf09-hit")) {
      if (el.hasAttribute("data-action")) continue;
      for (const name of ["title", "aria-label"]) {
        const value = el.getAttribute(name);
        if (!value) continue;
        if (Object.values(D09.style_names).includes(value)) continue;
        assertWhole(value, `${key} ${el.className}`);
        seen.add(el.className.split(" ").find((c) => c.startsWith("kf09-hand") || c === "fits" || c === "misfit" || c.startsWith("kf09-want")) || "other");
      }
    }
    for (const label of cardLabels(root, ".kf09-combo")) assertWhole(label, key);
    for (const role of ["deck", "impasses", "unseen", "pile-easy", "pile-normal", "pile-difficult"]) {
      const el = root.querySelector(`[data-role="${role}"]`);
      if (el) { assertWhole(el.textContent, `${key} ${role}`); seen.add(role); }
    }
    const hints = [".kf09-faceup .pile-label", ".kf09-missing", ".kf09-ready-note"].flatMap((s) => root.querySelectorAll(s));
    for (const el of hints) {
      for (const piece of el.textContent.split(" · ")) assertWhole(piece, key);
    }
    for (const el of root.querySelectorAll(".kf09-claim-cards")) assertWhole(el.getAttribute("aria-label"), key);
  }
  for (const what of ["kf09-hand-card", "deck", "impasses", "unseen", "pile-easy"]) assert.ok(seen.has(what), `the fixture shows ${what}: ${[...seen]}`);
  const { root } = boardSkeleton();
  const ref = root.querySelector('[data-role="card-reference"]');
  B09.renderCardReference(ref, 4);
  const rows = ref.querySelectorAll("tbody tr");
  assert.equal(rows.length, D09.styles.length + D09.level_order.length);
  for (const row of rows) assertWhole(row.querySelectorAll("td")[1].textContent, "reference");
});

// --- Around the cards: piles, tracks, the dice tray, the references --------

test("kungfu2013: the piles, the hands' counts and the battle's sides speak the reader's language", () => {
  const corpus = fixture("kungfu2013");
  const seen = new Set();
  for (const [key, frame] of Object.entries(corpus.seat_frames)) {
    const root = render(B13, frame);
    for (const selector of [".pile-label", ".pile-count", ".duel-name", ".kf13-hand-count .small", ".kf13-front .muted"]) {
      for (const el of root.querySelectorAll(selector)) { assertWhole(el.textContent, `${key} ${selector}`); seen.add(selector); }
    }
    for (const el of root.querySelectorAll(".kcard-back")) {
      const label = el.getAttribute("aria-label");
      if (label) { assertWhole(label, `${key} card back`); seen.add("back"); }
    }
    for (const el of root.querySelectorAll(".kcard-empty")) if (/\p{L}/u.test(el.textContent)) assertWhole(el.textContent, key);
    for (const el of root.querySelectorAll("section.seat")) { assertWhole(el.getAttribute("aria-label"), `${key} seat`); seen.add("seat"); }
    // The table in words: the reader's own side of the battle in the second person.
    const model = B13.boardModel(frame, { nowMs: 0, names: (frame.seats || []).map((x, i) => x.name || "Seat " + i) });
    for (const line of B13.describeBoard(model)) assertWhole(line, `${key} in words`);
    for (const el of root.querySelectorAll(".kf13-life")) { assertWhole(el.textContent.replace(/^♥ \d+ /, ""), `${key} life`); seen.add("life"); }
  }
  for (const what of [".pile-label", ".pile-count", ".duel-name", ".kf13-hand-count .small", "back", "seat", "life"]) assert.ok(seen.has(what), `the fixture shows ${what}`);
});

test("kungfu2019: the tracks, HP, rolls, the dice tray and the icon reference speak the reader's language", () => {
  const corpus = fixture("kungfu2019");
  const seen = new Set();
  for (const [key, frame] of Object.entries(corpus.seat_frames)) {
    const root = render(B19, frame);
    const labelled = [[".kf19-track", "title"], [".kf19-hp", "aria-label"], [".kf19-dice", "aria-label"], [".kf19-back", "aria-label"]];
    for (const [selector, name] of labelled) {
      for (const el of root.querySelectorAll(selector)) { assertWhole(el.getAttribute(name), `${key} ${selector}`); seen.add(selector); }
    }
    for (const el of root.querySelectorAll(".kf19-die")) {
      if (el.hasAttribute("data-action") || !el.getAttribute("title")) continue;
      assertWhole(el.getAttribute("title"), `${key} die`);
      seen.add("die");
    }
    for (const el of root.querySelectorAll(".kf19-die-note")) if (el.textContent) { assertWhole(el.textContent, `${key} die note`); seen.add("note"); }
    for (const el of root.querySelectorAll('[data-role="open-set"]')) { assertWhole(el.textContent, `${key} open set`); seen.add("open"); }
    for (const el of root.querySelectorAll(".kf19-tray-head")) {
      for (const piece of el.textContent.split(" · ")) assertWhole(piece, `${key} tray head`);
      seen.add("head");
    }
    for (const el of root.querySelectorAll(".kf19-set-row")) { assertWhole(el.textContent, `${key} set`); seen.add("set"); }
    for (const el of root.querySelectorAll("section.seat")) { assertWhole(el.getAttribute("aria-label"), `${key} seat`); seen.add("seat"); }
  }
  for (const what of [".kf19-track", ".kf19-hp", ".kf19-dice", "die", "open", "head", "seat"]) assert.ok(seen.has(what), `the fixture shows ${what}: ${[...seen]}`);
  const { root } = boardSkeleton();
  const ref = root.querySelector('[data-role="card-reference"]');
  B19.renderCardReference(ref, 4);
  const rows = ref.querySelectorAll("tbody tr");
  assert.ok(rows.length >= D19.icons.length + 6);
  for (const row of rows) {
    const [symbol, meaning] = row.querySelectorAll("td");
    if (!/^[A-Z]+$/.test(symbol.textContent)) assertWhole(symbol.textContent, "reference symbol"); // the icons' names stay as printed
    assertWhole(meaning.textContent, "reference");
  }
  // The steps per space come from the data.
  for (const k of D19.icons) assert.ok(B19.iconReference(k).includes("(" + D19.track_step[k] + " "), k);
  assert.deepEqual(Object.keys(B19.STAT_HELP).sort(), [...D19.icons].sort());
});

test("kungfu2009: the seats, offers, claims, the offer being built and the clock speak the reader's language", () => {
  const corpus = fixture("kungfu2009");
  const seen = new Set();
  const names = new Set(NAMES);
  const check = (text, what) => {
    if (!text || names.has(text) || text === "KUNG FU!") return;
    assertWhole(text, what);
    seen.add(what.split(" ").pop());
  };
  const t0 = Date.parse("2026-12-04T10:00:00Z");
  const due = new Date(t0 + 17000).toISOString();
  for (const [key, base] of Object.entries(corpus.seat_frames)) {
    // Every deadline the table may show: the match's end, the claim's check, the
    // offer being built, the answers to the offers to this seat.
    const offers = ((base.view && base.view.offers) || []).filter((o) => o.from !== base.seat && (o.to === base.seat || o.to === null));
    const timers = [{ action: "end", seat: null, due }, { action: "check", seat: null, due }, { action: "cancel", seat: base.seat, due }]
      .concat(offers.map((o) => ({ action: "decline:" + o.id, seat: base.seat, due })));
    const frame = Object.assign({}, base, { status: "active", server_time: new Date(t0).toISOString(), timers });
    const { root } = boardSkeleton();
    B09.renderBoard(root, B09.boardModel(frame, { nowMs: t0 }), { onAct() {}, onPlan() {} });
    for (const el of root.querySelectorAll(".kf09-seat")) check(el.getAttribute("aria-label"), `${key} seat`);
    for (const el of root.querySelectorAll(".seat-name")) check(el.textContent, `${key} seat-name`);
    for (const el of root.querySelectorAll(".seat-badge")) check(el.textContent, `${key} badge`);
    for (const el of root.querySelectorAll(".kf09-points")) check(el.textContent, `${key} points`);
    for (const el of root.querySelectorAll(".kf09-backs")) check(el.getAttribute("aria-label"), `${key} backs`);
    for (const el of root.querySelectorAll(".kf09-won")) check(el.getAttribute("aria-label"), `${key} won`);
    for (const el of root.querySelectorAll(".kf09-offer-head")) for (const piece of el.textContent.split(" · ")) check(piece, `${key} offer-head`);
    for (const el of root.querySelectorAll(".kf09-offer-terms .small")) check(el.textContent, `${key} terms`);
    for (const el of root.querySelectorAll(".kf09-offer-terms .kf09-hits")) check(el.getAttribute("aria-label"), `${key} terms-cards`);
    for (const el of root.querySelectorAll(".kf09-real")) check(el.textContent, `${key} real`);
    for (const el of root.querySelectorAll(".kf09-offer .muted")) check(el.textContent, `${key} offer-note`);
    for (const el of root.querySelectorAll(".kf09-timer")) check(el.textContent, `${key} timer`);
    for (const el of root.querySelectorAll(".kf09-pause-title")) check(el.textContent, `${key} pause`);
    for (const el of root.querySelectorAll(".kf09-claim .small")) for (const piece of el.textContent.split(" · ")) if (!/^[EHND]\d\d$/.test(piece)) check(piece, `${key} claim`);
    for (const el of root.querySelectorAll("h3.pile-label")) check(el.textContent, `${key} heading`);
    for (const el of root.querySelectorAll('[data-role="server-draft"] p.small')) check(el.textContent, `${key} draft-terms`);
    for (const el of root.querySelectorAll(".kf09-open")) check(el.textContent.trim(), `${key} open-cards`);
    for (const el of root.querySelectorAll(".kf09-want-list .muted")) check(el.textContent, `${key} gift`);
    for (const el of root.querySelectorAll('[data-role="match-clock"]')) {
      check(el.getAttribute("title"), `${key} clock-title`);
      check(el.textContent.replace(/^ · /, ""), `${key} clock`);
    }
    for (const el of [...root.querySelectorAll(".kf09-hand-tools button"), ...root.querySelectorAll(".kf09-fit")]) check(el.textContent, `${key} hand-button`);
  }
  for (const what of ["seat", "badge", "points", "backs", "offer-head", "timer", "pause", "claim", "heading", "draft-terms", "open-cards", "clock-title", "clock"]) {
    assert.ok(seen.has(what), `the fixture shows ${what}: ${[...seen].sort()}`);
  }
  // English stays as it was, the live countdown inside the sentence.
  const { root } = boardSkeleton();
  const parts = english(() => B09.messageWith(english(() => B09.markers(["time"])).time + " left", { time: root }));
  assert.deepEqual(parts, [root, " left"]);
});

test("every board's deal line, the 2019 phase and fight headings and the results' reason are whole messages", async () => {
  const BD = await import("../../static/js/boards/duelo.js");
  let reasons = 0;
  for (const [game, B] of [["duelo", BD], ["kungfu2013", B13], ["kungfu2019", B19], ["kungfu2009", B09]]) {
    for (const players of [2, 4]) assertWhole(B.dealText(players), `${game} deal`);
    if (game === "duelo") continue;
    // A finished game, for a reason of the game's own.
    const reason = { kungfu2013: "knockout", kungfu2019: "rounds", kungfu2009: "time" }[game];
    const base = Object.values(fixture(game).seat_frames)[0];
    const frame = Object.assign({}, base, { status: "finished", result: { winners: [0], placements: [1, 2], engine: { reason: reason, scores: {} } } });
    const res = B.resultModel(frame, { names: ["Ana", "Bo"] });
    const { root } = boardSkeleton();
    const text = B.resultsEl(root.ownerDocument, res, {}).textContent;
    assert.ok(text.includes("⟦THE GAME ENDED BECAUSE ⟦"), `${game}: ${text}`);
    reasons += 1;
  }
  assert.equal(reasons, 3);
  const seen = new Set();
  for (const [key, frame] of Object.entries(fixture("kungfu2019").seat_frames)) {
    const root = render(B19, frame);
    for (const el of root.querySelectorAll(".kf19-phase")) if (el.textContent) { assertWhole(el.textContent, `${key} phase`); seen.add("phase"); }
    for (const el of root.querySelectorAll(".kf19-fight-title")) { assertWhole(el.textContent, `${key} fight`); seen.add("fight"); }
  }
  assert.deepEqual([...seen].sort(), ["fight", "phase"]);
  assert.equal(english(() => B19.dealText(3)), "Ten cards are dealt to each of the 3 players for the draft.");
});

test("duelo: the closed hands, the piles and the face-down cards speak the reader's language", async () => {
  const BD = await import("../../static/js/boards/duelo.js");
  const seen = new Set();
  for (const [key, frame] of Object.entries(fixture("duelo").seat_frames)) {
    const root = render(BD, frame);
    for (const el of root.querySelectorAll(".hand-closed")) { assertWhole(el.getAttribute("aria-label"), `${key} hand`); seen.add("hand"); }
    for (const el of root.querySelectorAll(".pile-count")) { assertWhole(el.textContent, `${key} pile`); seen.add("pile"); }
    for (const el of root.querySelectorAll(".kcard-back")) {
      const label = el.getAttribute("aria-label");
      if (label) { assertWhole(label, `${key} back`); seen.add("back"); }
    }
    const people = new Set([...(fixture("duelo").names || []), ...(frame.seats || []).map((x) => x.name)]);
    for (const el of root.querySelectorAll(".table-play .duel-name")) {
      if (people.has(el.textContent)) continue; // a player's own name
      assertWhole(el.textContent, `${key} table name`);
      seen.add("table");
    }
    for (const el of root.querySelectorAll(".table-play .muted")) if (el.textContent) { assertWhole(el.textContent, `${key} table note`); seen.add("note"); }
  }
  assert.deepEqual([...seen].sort(), ["back", "hand", "note", "pile", "table"]);
});
