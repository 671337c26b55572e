// The scripts' words in the page's language (static/js/i18n.js, docs/i18n.md):
// t() and tn() read Django's JavaScript catalogue (`django.gettext`) when the
// page has loaded it, fill named placeholders, and fall back to English.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import { format, t, tn } from "../../static/js/i18n.js";

const PT = {
  "You drew %(card)s.": "Você comprou %(card)s.",
  "Choose the card to play": "Escolha a carta para jogar",
  "%(n)s card": ["%(n)s carta", "%(n)s cartas"],
  "You draw a card (%(n)s card left in the deck).": ["Você compra uma carta (resta %(n)s carta no baralho).", "Você compra uma carta (restam %(n)s cartas no baralho)."],
  "%(name)s draws a card (%(n)s card left in the deck).": ["%(name)s compra uma carta (resta %(n)s carta no baralho).", "%(name)s compra uma carta (restam %(n)s cartas no baralho)."],
  "%(name)s challenges you to a duel.": "%(name)s desafia você para um duelo.",
  "You duel %(other)s.": "Você duela com %(other)s.",
};

function withCatalogue(fn) {
  globalThis.django = {
    gettext: (m) => (typeof PT[m] === "string" ? PT[m] : m),
    ngettext: (s, p, n) => (PT[s] ? PT[s][n === 1 ? 0 : 1] : n === 1 ? s : p),
  };
  try { fn(); } finally { delete globalThis.django; }
}

test("without a catalogue the English text comes back, placeholders filled", () => {
  assert.equal(t("You drew %(card)s.", { card: "Crane Style" }), "You drew Crane Style.");
  assert.equal(tn("%(n)s card", "%(n)s cards", 2, { n: 2 }), "2 cards");
  assert.equal(format("%(a)s and %(missing)s", { a: 1 }), "1 and %(missing)s");
});

test("with the page's catalogue the translation is used, in the reader's word order", () => {
  withCatalogue(() => {
    assert.equal(t("You drew %(card)s.", { card: "Crane Style" }), "Você comprou Crane Style.");
    assert.equal(tn("%(n)s card", "%(n)s cards", 1, { n: 1 }), "1 carta");
    assert.equal(tn("%(n)s card", "%(n)s cards", 3, { n: 3 }), "3 cartas");
    assert.equal(t("Not in the catalogue"), "Not in the catalogue");
  });
});

test("Duelo's log and menus are worded in the viewer's language", async () => {
  // base.html loads the catalogue before any module: the board's tables of
  // words (menus) are read when the module loads, so load it inside.
  globalThis.django = {
    gettext: (m) => (typeof PT[m] === "string" ? PT[m] : m),
    ngettext: (s, p, n) => (PT[s] ? PT[s][n === 1 ? 0 : 1] : n === 1 ? s : p),
  };
  const B = await import("../../static/js/boards/duelo.js");
  try {
    const ctx = { names: ["Ana", "Bo"], viewer: 1 };
    const event = { type: "draw", public: { seat: 1, deck_count: 12 }, private: { card: 3 } };
    const mine = B.formatEvent(event, ctx).filter((e) => e.scope === "private");
    assert.equal(mine.length, 1);
    assert.equal(mine[0].text, "Você comprou Crane Style (3).");
    const groups = B.groupLegal([{ id: "card:3", type: "card", card: 3 }], ctx);
    assert.equal(groups[0].title, "Escolha a carta para jogar");
    // The public sentences: one whole message per person, chosen by who reads.
    const mineText = B.formatEvent(event, ctx)[0].text;
    assert.equal(mineText, "Você compra uma carta (restam 12 cartas no baralho).");
    const theirs = B.formatEvent(event, { names: ["Ana", "Bo"], viewer: 0 })[0].text;
    assert.equal(theirs, "Bo compra uma carta (restam 12 cartas no baralho).");
    const one = { type: "draw", public: { seat: 0, deck_count: 1 } };
    assert.equal(B.formatEvent(one, ctx)[0].text, "Ana compra uma carta (resta 1 carta no baralho).");
    const duel = { type: "challenge", public: { attacker: 0, defender: 1 } };
    assert.equal(B.formatEvent(duel, ctx)[0].text, "Ana desafia você para um duelo.");
    // The replay's step labels too.
    assert.equal(B.describeAction("target:0", 1, ctx), "Você duela com Ana.");
  } finally {
    delete globalThis.django;
  }
});
