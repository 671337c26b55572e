// The Kung Fu (2009) board (static/js/boards/kungfu2009.js) on real engine
// frames (fixtures/kungfu2009.json, built by tests/frontend/kungfu2009_fixture.py).
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as B from "../../static/js/boards/kungfu2009.js";
import { renderLog, tickClocks } from "../../static/js/boards/common.js";
import CARDS from "../../static/js/boards/data/kungfu2009-cards.js";
import { boardSkeleton } from "./minidom.js";

const corpus = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", "kungfu2009.json"), "utf8"));
const frames = corpus.seat_frames;
const slot = (root, role) => root.querySelector(`[data-role="${role}"]`);
const BAD_TEXT = /undefined|NaN|\[object|null|Seat -?\d|\bseat \d/;

function draw(frame, opts) {
  const { root } = boardSkeleton();
  const model = B.boardModel(frame, { nowMs: 0 });
  const chosen = [];
  const plans = [];
  B.renderBoard(root, model, Object.assign({ onAct: (a) => chosen.push(a.id), onPlan: (ids) => plans.push(ids) }, opts || {}));
  return { root, model, chosen, plans };
}

const ids = (frame) => frame.legal.map((a) => a.id);
const offered = (root) => root.querySelectorAll("[data-action]").map((el) => el.getAttribute("data-action"));
const handCards = (root) => slot(root, "my-hand").querySelectorAll("[data-index]");
const fire = (el, type, ev) => (el.listeners[type] || []).forEach((fn) => fn(Object.assign({ target: el, preventDefault() {} }, ev || {})));

test("the card file holds the 52 combinations: 24 easy, 20 normal, 8 difficult", () => {
  assert.equal(CARDS.combinations.length, 52);
  const count = {};
  for (const c of CARDS.combinations) {
    count[c.level] = (count[c.level] || 0) + 1;
    assert.equal(c.hits.length, CARDS.levels[c.level].size, c.code);
    assert.ok(B.comboInfo(c.code), c.code);
  }
  assert.deepEqual(count, { easy: 24, normal: 20, difficult: 8 });
  assert.equal(Object.values(CARDS.hit_counts).reduce((a, b) => a + b, 0), 68);
});

test("every event type the engine emits has a clean sentence for its owner, a spectator and the full reveal", () => {
  const types = Object.keys(corpus.events).filter((t) => t !== "trade_cheated").sort();
  assert.deepEqual(types, B.EVENT_TYPES);
  for (const [key, ev] of Object.entries(corpus.events)) {
    const owners = Object.keys(ev.private).map(Number);
    for (const viewer of [null, ...owners]) {
      const own = viewer === null ? {} : ev.private[String(viewer)];
      const entries = B.formatEvent({ type: ev.type, public: ev.public, private: own }, { names: corpus.names, viewer });
      assert.ok(entries[0].known, key + " has a formatter");
      assert.equal(entries.length, viewer === null ? 1 : 2, key);
      for (const e of entries) assert.doesNotMatch(e.text, BAD_TEXT, key + ": " + e.text);
    }
    const full = B.formatEvent(ev, { names: corpus.names, viewer: null, allPrivate: true, useYou: false });
    assert.equal(full.length, 1 + owners.length, key);
    full.slice(1).forEach((e) => assert.doesNotMatch(e.text, /\bYou\b|\bYour\b/, e.text));
  }
});

test("innocent cheating: the cheated receiver is told the real cards, the others only the declared ones", () => {
  const ev = corpus.events.trade_cheated;
  const to = ev.public.to;
  const mine = B.formatEvent({ type: "trade", public: ev.public, private: ev.private[String(to)] }, { names: corpus.names, viewer: to });
  assert.match(mine[1].text, /^Innocent cheating! You received /);
  const real = ev.private[String(to)].received;
  assert.ok(mine[1].text.includes(B.cardList(real)));
  const spectator = B.formatEvent({ type: "trade", public: ev.public, private: {} }, { names: corpus.names, viewer: null });
  assert.ok(spectator[0].text.includes("declared " + B.cardList(ev.public.declared)), spectator[0].text);
  assert.doesNotMatch(spectator[0].text, /cheat/i);
  // The receiver's board says so in the news line of the frame that carried it.
  const frame = Object.assign({}, frames.play, { seat: to, events: [{ type: "trade", public: ev.public, private: ev.private[String(to)] }] });
  const { root } = draw(frame);
  assert.match(slot(root, "news").textContent, /Innocent cheating!/);
});

test("the log leaves out the steps of building an offer and others' rearranging, but not one's own", () => {
  const draft = corpus.events.draft;
  const owner = Number(Object.keys(draft.private)[0]);
  const steps = [{ version: 3, seat: owner, kind: "move", events: [{ type: "draft", public: draft.public, private: draft.private[String(owner)] }] }];
  const mine = B.formatSteps(steps, { names: corpus.names, viewer: owner });
  assert.deepEqual(mine.map((e) => e.scope), ["private"]);
  const theirs = B.formatSteps([{ version: 3, seat: owner, kind: "move", events: [{ type: "draft", public: draft.public, private: {} }] }], { names: corpus.names, viewer: null });
  assert.equal(theirs.length, 0);
  const offer = corpus.events.offer;
  assert.equal(B.formatSteps([{ version: 4, seat: 0, kind: "move", events: [{ type: "offer", public: offer.public, private: {} }] }], { names: corpus.names, viewer: null }).length, 1);
});

test("in every frame, each control the board offers is a legal intent of that frame, offered once", () => {
  for (const [key, frame] of Object.entries(frames)) {
    const { root } = draw(frame);
    const shown = offered(root);
    const legal = new Set(ids(frame));
    for (const id of shown) assert.ok(legal.has(id), key + ": " + id + " is not legal");
    assert.equal(new Set(shown).size, shown.length, key + ": a control twice: " + shown.join(" "));
    for (const id of ids(frame)) {
      const text = B.describeAction(id, frame.seat, { names: corpus.names, viewer: null });
      assert.ok(text.length > 5 && !BAD_TEXT.test(text), id + ": " + text);
    }
  }
});

test("every kind of intent is reachable: the menu's accept, decline, withdraw, fit, claim, impasse, forfeit and draft steps are buttons", () => {
  const want = {
    play: ["accept:", "decline:", "withdraw:", "impasse"],
    fit: ["fit:"],
    // A card declared as another style ("give:C:T") is the composer's: below.
    draft: ["give:", "want:", "open", "send", "cancel"],
    forfeit: ["forfeit:"],
    voted: ["impasse:no"],
  };
  for (const [key, prefixes] of Object.entries(want)) {
    const frame = frames[key];
    const { root } = draw(frame);
    const shown = offered(root);
    for (const p of prefixes) {
      const legal = ids(frame).filter((id) => (id === p || (p.endsWith(":") && id.startsWith(p))) && !/^give:.:./.test(id));
      assert.ok(legal.length, key + " has " + p);
      for (const id of legal) assert.ok(shown.includes(id), key + ": no control for " + id);
    }
  }
  // A hand that makes a face-up combination gets its KUNG FU button (one per combination it makes).
  const { root, chosen } = draw(frames.ready);
  const big = slot(root, "kungfu").querySelectorAll("[data-action]");
  assert.ok(big.length >= 1);
  big[0].click();
  assert.match(chosen[0], /^claim:(easy|normal|difficult)$/);
  const level = chosen[0].split(":")[1];
  const combo = frames.ready.view.face_up[level];
  assert.ok(B.makes(frames.ready.view.hand.slice(0, combo.hits.length), combo.hits));
});

test("a claim button only for a combination the arranged hand makes (a wrong claim is never one click away)", () => {
  for (const [key, frame] of Object.entries(frames)) {
    const { root } = draw(frame);
    for (const id of offered(root).filter((i) => i.startsWith("claim:"))) {
      const c = frame.view.face_up[id.split(":")[1]];
      assert.ok(B.makes(frame.view.hand.slice(0, c.hits.length), c.hits), key + ": " + id);
    }
  }
});

test("one click accepts an offer to you; decline and withdraw are one click too", () => {
  const frame = frames.play;
  const { root, chosen } = draw(frame);
  const incoming = slot(root, "offers-to-me");
  assert.ok(incoming, "offers to you are in the side panel");
  incoming.querySelector(".kf09-accept").click();
  const accept = ids(frame).find((id) => id.startsWith("accept:"));
  assert.deepEqual(chosen, [accept]);
  slot(root, "offer-board").querySelector(".kf09-withdraw").click();
  assert.equal(chosen[1], ids(frame).find((id) => id.startsWith("withdraw:")));
});

test("arranging the hand: select then click a place, arrow keys, or drag and drop, each one move intent", () => {
  const frame = frames.play;
  let { root, chosen } = draw(frame);
  assert.equal(handCards(root).length, frame.view.hand.length);
  handCards(root)[0].click(); // select
  assert.equal(handCards(root)[0].getAttribute("aria-pressed"), "true");
  assert.ok(slot(root, "hand-tools"), "the selected card's tools");
  handCards(root)[2].click(); // move it there
  assert.deepEqual(chosen, ["move:0:2"]);
  fire(handCards(root)[1], "keydown", { key: "ArrowRight" });
  fire(handCards(root)[1], "keydown", { key: "ArrowLeft" });
  assert.deepEqual(chosen.slice(1), ["move:1:2", "move:1:0"]);
  const store = {};
  const dt = { setData: (k, v) => { store[k] = v; }, getData: (k) => store[k] };
  fire(handCards(root)[3], "dragstart", { dataTransfer: dt });
  fire(handCards(root)[0], "drop", { dataTransfer: dt });
  assert.deepEqual(chosen.slice(3), ["move:3:0"]);
  for (const id of chosen) assert.ok(ids(frame).includes(id), id);
  // The selected card's buttons move it too.
  ({ root, chosen } = draw(frame));
  handCards(root)[1].click();
  slot(root, "hand-tools").querySelectorAll("[data-action]").forEach((b) => b.click());
  assert.deepEqual(chosen, ["move:1:0", "move:1:2"]);
});

test("the offer composer: partner, cards dragged or picked to give, one declared as another style, cards asked for, open cards, sent as the engine's steps", () => {
  const frame = frames.play;
  const hand = frame.view.hand;
  let { root, plans } = draw(frame);
  const composer = slot(root, "composer");
  assert.ok(composer);
  assert.ok(slot(root, "send-offer").disabled, "nothing to send yet");
  const partner = frame.legal.find((a) => a.type === "to" && a.seat !== null);
  composer.querySelector(`[data-partner="${partner.seat}"]`).click();
  // Drag card 0 into the give zone; pick card 2 and put it in the offer.
  const store = {};
  const dt = { setData: (k, v) => { store[k] = v; }, getData: (k) => store[k] };
  fire(handCards(root)[0], "dragstart", { dataTransfer: dt });
  fire(slot(root, "give-zone"), "drop", { dataTransfer: dt });
  handCards(root)[2].click();
  slot(root, "give-selected").click();
  assert.equal(slot(root, "give-zone").querySelectorAll(".kf09-given").length, 2);
  // Innocent cheating: declare the first given card as another style.
  const other = ["T", "M", "C", "R", "D"].find((s) => s !== hand[0]);
  const say = slot(root, "give-zone").querySelector(".kf09-say");
  fire(say, "change", { target: { value: other } });
  slot(root, "composer").querySelector('[data-want="D"]').click();
  slot(root, "composer").querySelector('[data-want="T"]').click();
  assert.equal(slot(root, "send-offer").disabled, false);
  slot(root, "send-offer").click();
  assert.deepEqual(plans, [[
    "to:" + partner.seat, "give:" + hand[0] + ":" + other, "give:" + hand[2], "want:D", "want:T", "send",
  ]]);
  // One step per card, honest or not: a cheating offer takes no extra step.
  const honest = B.offerPlan({ to: "1", give: [0, 2], say: {}, want: "DT", open: false }, hand);
  assert.equal(honest.length, plans[0].length);
  assert.ok(plans[0].every((id) => !id.startsWith("say")));
  assert.ok(ids(frame).includes(plans[0][0]));
  // Sent: the composer is empty again.
  assert.equal(slot(root, "give-zone").querySelectorAll(".kf09-given").length, 0);
  // Open cards, a plea (asking only), to everyone.
  ({ root, plans } = draw(frame));
  slot(root, "composer").querySelector('[data-partner="all"]').click();
  slot(root, "composer").querySelector('[data-want="C"]').click();
  fire(slot(root, "open-cards"), "change", { target: { checked: true } });
  slot(root, "send-offer").click();
  assert.deepEqual(plans, [["to:all", "want:C", "open", "send"]]);
  assert.deepEqual(B.offerPlan({ to: null, give: [], say: {}, want: "T", open: false }, hand), null);
});

test("an offer the server is holding (half sent): its steps are buttons, the composer waits", () => {
  for (const key of ["draft", "draft_cheat"]) {
    const frame = frames[key];
    const { root, chosen } = draw(frame);
    assert.equal(slot(root, "composer"), null, key);
    const box = slot(root, "server-draft");
    assert.ok(box, key);
    box.querySelector('[data-action="send"]').click();
    assert.deepEqual(chosen, ["send"]);
  }
  const { root } = draw(frames.draft_cheat);
  assert.match(slot(root, "server-draft").textContent, /declared as/);
});

test("the pause: the claim being checked with its cards marked, nobody may act", () => {
  for (const key of ["paused", "queued", "unseen"]) {
    const frame = frames[key];
    const { root, model } = draw(frame);
    assert.equal(frame.legal.length, 0, key);
    assert.equal(offered(root).length, 0, key);
    assert.match(model.statusLine, /^Paused: .* KUNG FU is being checked/, key);
    const pause = slot(root, "pause");
    assert.ok(pause, key);
    frame.view.claims.forEach((c) => {
      const el = slot(pause, "claim-" + c.seat);
      assert.equal(el.querySelectorAll(".kf09-claim-cards .kf09-hit").length, c.cards.length, key);
    });
  }
  assert.equal(slot(draw(frames.queued).root, "pause").querySelectorAll("li").length, 2);
  // A claim left waiting for a combination someone else completed meanwhile is shown as void.
  for (const key of ["paused", "queued", "unseen"]) {
    const { root, model } = draw(frames[key]);
    model.claims.forEach((c) => {
      const taken = !frames[key].view.face_up[c.level] || frames[key].view.face_up[c.level].code !== c.code;
      assert.equal(/is void/.test(slot(root, "claim-" + c.seat).textContent), taken, key);
    });
  }
});

test("cards drawn during the pause are backs until play resumes", () => {
  const frame = frames.unseen;
  assert.ok(frame.view.unseen > 0);
  const { root } = draw(frame);
  assert.equal(slot(root, "my-hand").querySelectorAll(".kf09-back").length, frame.view.unseen);
  assert.equal(slot(root, "my-hand").querySelectorAll("[data-style]").length, frame.view.hand.length);
  assert.match(slot(root, "unseen").textContent, /when play resumes/);
});

test("punishment: the seat's badge, no controls; severe: the combinations to give up", () => {
  const punished = draw(frames.punished);
  assert.match(punished.model.statusLine, /out of play/);
  assert.equal(offered(punished.root).length, 0);
  assert.ok(slot(punished.root, "punished-" + frames.punished.seat));
  const { root, model, chosen } = draw(frames.forfeit);
  assert.match(model.statusLine, /choose the completed combination you lose/);
  const buttons = slot(root, "prompt").querySelectorAll("[data-action]");
  assert.deepEqual(buttons.map((b) => b.getAttribute("data-action")).sort(), ids(frames.forfeit).sort());
  buttons[0].click();
  assert.deepEqual(chosen, [ids(frames.forfeit)[0]]);
});

test("the impasse vote: who voted, the count, the take-back", () => {
  const frame = frames.voted;
  const { root, chosen } = draw(frame);
  frame.view.votes.forEach((v, i) => assert.equal(!!slot(root, "vote-" + i), v, "vote badge " + i));
  slot(root, "prompt").querySelector('[data-action="impasse:no"]').click();
  assert.deepEqual(chosen, ["impasse:no"]);
  assert.match(slot(root, "impasses").textContent, new RegExp("of " + frame.view.impasse_limit));
});

test("every seat's hand size, points and completed combinations; the face-up combinations and piles", () => {
  const frame = frames.play;
  const { root } = draw(frame);
  frame.view.hand_sizes.forEach((n, i) => {
    assert.equal(slot(root, "hand-size-" + i).querySelectorAll(".kf09-back-xs").length, n);
    assert.match(slot(root, "points-" + i).textContent, new RegExp("^" + frame.view.points[i] + " point"));
    const won = slot(root, "won-" + i);
    assert.equal(won ? won.querySelectorAll("[data-code]").length : 0, frame.view.won[i].length);
  });
  for (const lv of ["easy", "normal", "difficult"]) {
    const el = slot(root, "faceup-" + lv);
    assert.equal(el.querySelector("[data-code]").getAttribute("data-code"), frame.view.face_up[lv].code);
    assert.match(slot(el, "pile-" + lv).textContent, new RegExp("^" + frame.view.piles[lv] + " card"));
  }
  assert.match(slot(root, "deck").textContent, new RegExp(String(frame.view.deck)));
});

test("no frame makes the board show a card its viewer was not shown", () => {
  for (const [key, frame] of Object.entries(frames)) {
    const { root } = draw(frame);
    const v = frame.view;
    // Nobody's hit cards but the viewer's appear as cards in the seats.
    assert.equal(slot(root, "opponents").querySelectorAll("[data-style]").length, 0, key);
    const hand = slot(root, "my-hand");
    if (hand) assert.equal(hand.querySelectorAll("[data-style]").length, (v.hand || "").length, key);
    // Offers show declared cards; the real ones only to their maker or when open.
    v.offers.forEach((o) => {
      const el = root.querySelector(`[data-offer="${o.id}"]`);
      assert.ok(el, key + " offer " + o.id);
      if (o.cards === null) assert.doesNotMatch(el.textContent, /Really hands over/, key);
      else assert.ok(o.open || o.from === frame.seat, key);
    });
    // The claim cards on the table are public; the count of hit pictures is
    // what the view holds, nothing more.
    const shown = root.querySelectorAll(".kf09-hit[data-style]").length;
    const composer = slot(root, "composer");
    const pickers = composer ? composer.querySelectorAll(".kf09-want-add").length : 0;
    const draft = slot(root, "server-draft");
    const draftIcons = draft ? draft.querySelectorAll("[data-style]").length : 0;
    const offerIcons = v.offers.reduce((n, o) => n + o.declared.length + o.want.length, 0);
    const claimIcons = v.claims.reduce((n, c) => n + c.cards.length, 0);
    const discardIcons = 5;
    assert.equal(shown, (v.hand || "").length + offerIcons + claimIcons + discardIcons + pickers + draftIcons, key);
  }
});

test("a spectator sees the table but no hand, no composer, no choices", () => {
  const frame = frames.spectator;
  assert.equal(frame.view.hand, null);
  const { root, model } = draw(frame);
  assert.equal(model.viewer, null);
  assert.ok(slot(root, "you").hidden);
  assert.equal(root.querySelectorAll("[data-action]").length, 0);
  assert.equal(slot(root, "composer"), null);
  assert.ok(frame.view.offers.length > 0 && frame.view.offers.every((o) => o.open || o.cards === null));
});

test("while pending, the controls are shown but disabled; a replay offers none", () => {
  const { root, chosen } = draw(frames.play, { pending: true });
  const buttons = root.querySelectorAll("[data-action]");
  assert.ok(buttons.length > 0);
  buttons.forEach((b) => b.click());
  handCards(root).forEach((b) => b.click());
  assert.deepEqual(chosen, []);
  const { root: ro } = boardSkeleton();
  B.renderBoard(ro, B.boardModel(frames.play, { nowMs: 0, readOnly: true, useYou: false }), {});
  assert.equal(ro.querySelectorAll("[data-action]").length, 0);
  assert.equal(slot(ro, "composer"), null);
});

test("the end: a finished frame and the results table with points and tiebreaks", () => {
  const frame = frames.over;
  const { model, root } = draw(frame);
  assert.equal(model.myTurn, false);
  assert.equal(offered(root).length, 0);
  const result = frame.view.result;
  const res = B.resultModel({
    seat: 0, status: "finished", seats: frame.seats,
    result: { winners: result.winners, placements: result.placements, engine: result },
  });
  assert.match(res.headline, /wins?!|share the win!/);
  assert.equal(res.rows.length, frame.seats.length);
  assert.deepEqual(res.rows.map((r) => r.points).sort(), result.scores.points.slice().sort());
  assert.ok(res.gameReason && !BAD_TEXT.test(res.gameReason));
  const { doc } = boardSkeleton();
  const el = B.resultsEl(doc, res, {});
  assert.equal(el.querySelectorAll("tbody tr").length, frame.seats.length);
});

test("the reference explains the five styles and the three kinds of combination", () => {
  const { root } = boardSkeleton();
  const ref = slot(root, "card-reference");
  B.renderCardReference(ref, 4);
  for (const word of ["Tiger", "Monkey", "Crab", "Crane", "Dragon", "Wild", "Easy", "Normal", "Difficult", "jungle", "steppe", "mountains"]) {
    assert.match(ref.textContent, new RegExp(word));
  }
  assert.match(B.dealText(4), /Five hit cards/);
  assert.equal(B.cardList("TD"), "Tiger, Dragon");
});

test("a frame arriving during a drag does not pull the card from under the player; the seat is redrawn when the drag ends", () => {
  const frame = frames.play;
  const { root } = draw(frame);
  const card = handCards(root)[2];
  fire(card, "dragstart", { dataTransfer: { setData() {}, getData: () => "" } });
  // Another seat's step: the same hand, new frame.
  const next = Object.assign({}, frame, { version: frame.version + 1 });
  B.renderBoard(root, B.boardModel(next, { nowMs: 0 }), { onAct() {}, onPlan() {} });
  assert.equal(handCards(root)[2], card, "the dragged card is the same element");
  fire(card, "dragend");
  assert.notEqual(handCards(root)[2], card, "redrawn after the drag");
  // A changed hand is drawn at once, even mid-drag (its positions mean other cards).
  const after = handCards(root)[0];
  fire(after, "dragstart", { dataTransfer: { setData() {}, getData: () => "" } });
  const view = Object.assign({}, frame.view, { hand: frame.view.hand.slice(1) + frame.view.hand[0] });
  B.renderBoard(root, B.boardModel(Object.assign({}, next, { view }), { nowMs: 0 }), { onAct() {}, onPlan() {} });
  assert.notEqual(handCards(root)[0], after);
});

test("keyboard focus survives redraws and follows the card it moved", () => {
  const frame = frames.play;
  const { root, chosen } = draw(frame);
  const doc = root.ownerDocument;
  root.contains = (el) => { for (let n = el; n; n = n.parentNode) if (n === root) return true; return false; };
  const focusable = () => root.querySelectorAll("button").forEach((b) => { b.focus = function () { doc.activeElement = this; }; });
  focusable();
  handCards(root)[1].focus();
  fire(handCards(root)[1], "keydown", { key: "ArrowRight" });
  assert.deepEqual(chosen, ["move:1:2"]);
  // The page redraws (the move is on its way, then applied): the focus is on position 2.
  const hand = frame.view.hand;
  const moved = hand[0] + hand[2] + hand[1] + hand.slice(3);
  const next = Object.assign({}, frame, { version: frame.version + 1, view: Object.assign({}, frame.view, { hand: moved }) });
  const origCreate = doc.createElement.bind(doc);
  doc.createElement = (tag) => { const el = origCreate(tag); el.focus = function () { doc.activeElement = this; }; return el; };
  B.renderBoard(root, B.boardModel(next, { nowMs: 0 }), { onAct() {}, onPlan() {} });
  assert.equal(doc.activeElement.getAttribute("data-index"), "2");
  assert.ok(root.contains(doc.activeElement));
  // Another frame: the focus stays where it is.
  B.renderBoard(root, B.boardModel(Object.assign({}, next, { version: next.version + 1 }), { nowMs: 0 }), { onAct() {}, onPlan() {} });
  assert.equal(doc.activeElement.getAttribute("data-index"), "2");
  assert.ok(root.contains(doc.activeElement));
  doc.createElement = origCreate;
});

test("with three open offers the composer gives way to a note (the engine allows three at once)", () => {
  const frame = JSON.parse(JSON.stringify(frames.play));
  const mine = frame.view.offers.find((o) => o.from === frame.seat);
  for (const id of [901, 902]) frame.view.offers.push(Object.assign({}, mine, { id }));
  frame.legal = frame.legal.filter((a) => a.type !== "to");
  const { root } = draw(frame);
  assert.equal(slot(root, "composer"), null);
  assert.match(slot(root, "offer-limit").textContent, /3 open offers/);
});

test("the match clock, the timers that concern you and the warning before the end (issue 26 §1.3)", () => {
  const iso = (ms) => new Date(ms).toISOString();
  const base = frames.play;
  const toMe = base.view.offers.find((o) => o.from !== base.seat && (o.to === base.seat || o.to === null));
  assert.ok(toMe, "the play frame has an offer to this seat");
  const other = base.view.offers.find((o) => o.from === base.seat);
  const t0 = Date.parse("2026-12-04T10:00:00Z");
  const frame = Object.assign({}, base, {
    status: "active",
    server_time: iso(t0),
    timers: [
      { action: "decline:" + toMe.id, seat: base.seat, due: iso(t0 + 17000) },
      { action: "end", seat: null, due: iso(t0 + 272000) },
    ],
  });
  const { root } = boardSkeleton();
  B.renderBoard(root, B.boardModel(frame, { nowMs: t0 }), { onAct() {}, onPlan() {} });
  assert.equal(slot(root, "match-clock").textContent, " · 4:32 left");
  assert.equal(slot(root, "answer-timer-" + toMe.id).textContent, "Answer within 0:17: then it is declined for you.");
  if (other) assert.equal(slot(root, "answer-timer-" + other.id), null, "your own offer has no answer timer of yours");
  const warning = slot(root, "time-warning");
  assert.ok(warning.hidden, "no warning with 4:32 left");
  assert.equal(warning.getAttribute("role"), "alert");
  // Half-second ticks keep them current without a frame.
  tickClocks(root, frame, t0 + 213000);
  assert.equal(slot(root, "match-clock").textContent, " · 0:59 left");
  assert.equal(warning.hidden, false, "the warning in the last minute");
  assert.match(warning.textContent, /Less than a minute left/);
  assert.ok(slot(root, "match-clock").querySelector(".kf09-countdown").classList.contains("low"));
  assert.equal(slot(root, "answer-timer-" + toMe.id).textContent, "Answer within 0:00: then it is declined for you.");
  // A client clock 30 s behind the server's counts on the server's time.
  const { root: late } = boardSkeleton();
  B.renderBoard(late, B.boardModel(frame, { nowMs: t0 - 30000 }), {});
  assert.equal(slot(late, "match-clock").textContent, " · 4:32 left");
  tickClocks(late, frame, t0 - 30000 + 2000);
  assert.equal(slot(late, "match-clock").textContent, " · 4:30 left");
  // Another seat's timers never come (the server sends only yours); a finished match shows none.
  const over = Object.assign({}, frame, { status: "finished" });
  const { root: done } = boardSkeleton();
  B.renderBoard(done, B.boardModel(over, { nowMs: t0 }), {});
  assert.equal(slot(done, "match-clock"), null);
  assert.equal(slot(done, "time-warning"), null);
});

test("the pause shows when the claim is checked; a half-built offer and a severe choice show their timers", () => {
  const iso = (ms) => new Date(ms).toISOString();
  const t0 = Date.parse("2026-12-04T10:00:00Z");
  const cases = [
    ["paused", { action: "check", seat: null }, "check-timer", "The table checks the claim in 0:02."],
    ["draft", { action: "cancel", seat: frames.draft.seat }, "draft-timer", "Dropped in 0:02 unless you take a step."],
    ["forfeit", { action: "forfeit:X", seat: frames.forfeit.seat }, "forfeit-timer", "Choose within 0:02: then the least valuable is lost."],
  ];
  for (const [key, timer, role, text] of cases) {
    const frame = Object.assign({}, frames[key], {
      status: "active", server_time: iso(t0), timers: [Object.assign({ due: iso(t0 + 2000) }, timer)],
    });
    const { root } = boardSkeleton();
    B.renderBoard(root, B.boardModel(frame, { nowMs: t0 }), { onAct() {}, onPlan() {} });
    assert.equal(slot(root, role).textContent, text, key);
  }
});

test("the log folds a run of your own rearrangements (and an offer's steps) into one line", () => {
  const { root } = boardSkeleton();
  const list = slot(root, "log");
  const ctx = { names: corpus.names, viewer: 0 };
  const arrange = (v, hand) => ({ version: v, seat: 0, kind: "move", events: [{ type: "arrange", public: { seat: 0 }, private: { hand } }] });
  const othersArrange = (v) => ({ version: v, seat: 1, kind: "move", events: [{ type: "arrange", public: { seat: 1 }, private: {} }] });
  const draft = (v, want) => ({ version: v, seat: 0, kind: "move", events: [{ type: "draft", public: {}, private: { draft: { to: 1, give: "", say: "", want, open: false } } }] });
  const trade = corpus.events.trade;
  const steps = [arrange(1, "TMCRD"), arrange(2, "MTCRD"), othersArrange(3), arrange(4, "MCTRD")];
  renderLog(list, B.formatSteps(steps, ctx));
  let lines = list.querySelectorAll("li").map((li) => li.textContent);
  assert.deepEqual(lines, ["Only youYour hand, left to right: Monkey, Crab, Tiger, Crane, Dragon."]);
  // Frame by frame, as the live page adds them: still one line per run.
  renderLog(list, B.formatSteps([arrange(5, "CMTRD")], ctx));
  renderLog(list, B.formatSteps([{ version: 6, seat: 1, kind: "move", events: [{ type: "trade", public: trade.public, private: {} }] }], ctx));
  renderLog(list, B.formatSteps([arrange(7, "TCMRD"), arrange(8, "DCMRT")], ctx));
  renderLog(list, B.formatSteps([draft(9, "M"), draft(10, "MT")], ctx));
  lines = list.querySelectorAll("li").map((li) => li.textContent);
  assert.equal(lines.length, 4, lines.join("\n"));
  assert.match(lines[0], /Crab, Monkey, Tiger, Crane, Dragon/);
  assert.doesNotMatch(lines[1], /Your hand/);
  assert.match(lines[2], /Dragon, Crab, Monkey, Crane, Tiger/);
  assert.match(lines[3], /asks Monkey, Tiger|asks a Monkey and a Tiger|Monkey.*Tiger/);
  assert.equal(list.querySelectorAll("li")[2].getAttribute("data-version"), "8");
});

test("KUNG FU heads the prompt (pinned on a phone); a card leaves the offer by its own × beside it", () => {
  const { root } = draw(frames.ready);
  const bar = slot(slot(root, "prompt"), "kungfu");
  assert.ok(bar, "the KUNG FU button is in the prompt");
  assert.equal(slot(slot(root, "you"), "kungfu"), null);
  assert.equal(root.querySelectorAll('[data-role="kungfu"]').length, 1);
  const { root: r2 } = draw(frames.play);
  handCards(r2)[0].click();
  slot(r2, "give-selected").click();
  const given = slot(r2, "give-zone").querySelector(".kf09-given");
  const x = given.querySelector("button");
  assert.equal(x.textContent, "×");
  assert.ok(!x.classList.contains("link-dismiss"), "not the error box's corner button");
  x.click();
  assert.equal(slot(r2, "give-zone").querySelectorAll(".kf09-given").length, 0);
});

test("a timer step says which timer ran out, never a clock nobody sees", () => {
  const ctx = (viewer) => ({ names: corpus.names, viewer });
  const step = (events) => ({ version: 9, seat: 1, kind: "timeout", events });
  const declined = step([{ type: "offer_declined", public: { offer: 4, seat: 1 }, private: {} }]);
  const forfeit = step([corpus.events.forfeit].map((ev) => Object.assign({}, ev, { public: Object.assign({}, ev.public, { seat: 1 }) })));
  const dropped = step([{ type: "draft", public: {}, private: { draft: null } }]);
  const first = (s, viewer) => B.formatSteps([s], ctx(viewer))[0].text;
  assert.match(first(declined, 0), /^Bo did not answer offer 4 within 20 s: it is declined\.$/);
  assert.match(first(declined, 1), /^You did not answer offer 4/);
  assert.match(first(forfeit, 0), /did not choose within 15 s: the least valuable combination is lost\./);
  assert.equal(first(dropped, 1), "Your offer being built was dropped: 30 s without a step.");
  // Another player's half-built offer is its secret.
  const seen = B.formatSteps([{ version: 9, seat: 1, kind: "timeout", events: [{ type: "draft", public: {}, private: {} }] }], ctx(0));
  assert.deepEqual(seen.map((e) => e.text), ["Bo's timer ran out."]);
  for (const s of [declined, forfeit, dropped]) {
    for (const e of B.formatSteps([s], ctx(0))) assert.doesNotMatch(e.text, /clock ran out/);
  }
});

test("buttons' tooltips name people, not the engine's seat numbers", () => {
  const frame = frames.play;
  const { root } = draw(frame);
  const titles = root.querySelectorAll("[data-action]").map((el) => el.getAttribute("title") || "");
  assert.ok(titles.some((t) => t.startsWith("Accept offer")), "an accept button with its tooltip");
  for (const t of titles) assert.doesNotMatch(t, /\bseat \d/i, t);
});

test("a void offer says why from the engine's code, one sentence per reader", () => {
  const ctx = (viewer) => ({ names: corpus.names, viewer });
  const ev = corpus.events.offer_void;
  assert.equal(ev.public.why, "traded");
  const line = (pub, viewer) => B.formatSteps([{ version: 9, seat: 1, kind: "move", events: [{ type: "offer_void", public: pub, private: {} }] }], ctx(viewer))[0].text;
  const id = ev.public.offer;
  assert.equal(line(ev.public, 1), `Offer ${id} is off: you traded the cards away.`);
  assert.equal(line(ev.public, 0), `Offer ${id} is off: ${corpus.names[1]} traded the cards away.`);
  const claimed = Object.assign({}, ev.public, { why: "claimed", seat: 2 });
  assert.equal(line(claimed, 0), `Offer ${id} is off: ${corpus.names[2]} put the cards down for a claim.`);
  const out = Object.assign({}, ev.public, { why: "out_of_play", seat: 0 });
  assert.equal(line(out, 0), `Offer ${id} is off: you are out of play.`);
  // An event stored before the engine gave codes keeps its English reason.
  const old = { offer: id, reason: "seat 1 traded the cards away" };
  assert.equal(line(old, 0), `Offer ${id} is off: ${corpus.names[1]} traded the cards away.`);
});
