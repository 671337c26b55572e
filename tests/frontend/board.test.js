// Unit tests for the pure functions of static/js/boards/duelo.js.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import nodeCrypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as B from "../../static/js/boards/duelo.js";
import * as C from "../../static/js/boards/common.js";

const NAMES = ["Ana", "Bruno", "Chen"];
const ctx = (viewer, extra) => Object.assign({ names: NAMES, viewer: viewer }, extra || {});
const ev = (type, pub, priv) => ({ type, public: pub, private: priv || {} });

test("card data: eight cards, rulebook counts, doubled deck for 5+ players", () => {
  const table = B.cardTable(4);
  assert.equal(table.length, 8);
  assert.deepEqual(table.map((c) => c.focus), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(table.map((c) => c.name), [
    "Disciple", "Drunken Fists", "Crane Style", "Snake Style",
    "Monkey Style", "Tiger Style", "Dragon Style", "Master of Kung Fu",
  ]);
  assert.equal(table.reduce((n, c) => n + c.count, 0), 24);
  assert.equal(B.cardTable(5).reduce((n, c) => n + c.count, 0), 47);
  assert.equal(B.cardInfo(8, 8).count, 1, "the second Master is removed");
  for (const c of table) {
    assert.ok(c.discard.length > 10 && c.combat.length > 10, c.name + " has effect texts");
    assert.equal(c.className, "kcard kcard-" + c.focus);
    assert.equal(c.label, c.name + " (" + c.focus + ")");
  }
  assert.equal(B.cardInfo(9), null);
  assert.equal(B.cardInfo(0), null);
});

test("card names and lists", () => {
  assert.equal(B.cardName(6), "Tiger Style (6)");
  assert.equal(B.cardList([1, 8]), "Disciple (1), Master of Kung Fu (8)");
  assert.equal(B.cardList([]), "no cards");
});

test("private parts: what only the viewer saw, marked private", () => {
  const entries = B.formatEvent(ev("draw", { seat: 1, deck_count: 12 }, { card: 6 }), ctx(1));
  assert.equal(entries.length, 2);
  assert.deepEqual(entries.map((e) => e.scope), ["public", "private"]);
  assert.equal(entries[0].text, "You draw a card (12 cards left in the deck).");
  assert.equal(entries[1].text, "You drew Tiger Style (6).");
  assert.equal(entries[1].tag, "Only you");
});

test("public view of the same event names the player and adds nothing private", () => {
  const entries = B.formatEvent(ev("draw", { seat: 1, deck_count: 1 }, {}), ctx(0));
  assert.equal(entries.length, 1);
  assert.equal(entries[0].text, "Bruno draws a card (1 card left in the deck).");
  assert.equal(entries[0].scope, "public");
});

// Every event type with its exact public sentence (viewer: seat 0 = "You").
const PUBLIC_CASES = [
  [ev("round_start", { round: 2, starter: 1, deck_count: 17 }), "Round 2 begins: Bruno starts (17 cards in the deck)."],
  [ev("turn", { seat: 2, turn: 4 }), "Turn 5: Chen's turn."],
  [ev("turn", { seat: 0, turn: 0 }), "Turn 1: Your turn."],
  [ev("protection_ends", { seat: 1 }), "Bruno's Crane Style protection ends."],
  [ev("draw", { seat: 2, deck_count: 3 }), "Chen draws a card (3 cards left in the deck)."],
  [ev("reshuffle", { deck_count: 9 }), "The discard pile is shuffled into a new deck of 9 cards."],
  [ev("play_up", { seat: 1, card: 3 }), "Bruno plays Crane Style (3) face up."],
  [ev("play_down", { seat: 0 }), "You play a card face down to duel."],
  [ev("challenge", { attacker: 1, defender: 0 }), "Bruno challenges you to a duel."],
  [ev("duel_reveal", { attacker: 1, defender: 2, cards: [5, 2] }), "Duel revealed: Bruno's Monkey Style (5) against Chen's Drunken Fists (2)."],
  [ev("disciple_look", { seat: 2, source: "deck" }), "Chen looks at the top card of the deck (Disciple)."],
  [ev("disciple_look", { seat: 2, source: "set_aside" }), "Chen looks at the card set aside (the deck is empty) (Disciple)."],
  [ev("disciple_reveal", { seat: 1, card: 7 }), "Bruno reveals Dragon Style (7) and copies it (Disciple)."],
  [ev("monkey_redraw", { seat: 1, hand_count: 2 }), "Bruno puts 2 cards under the deck and draws as many; Monkey Style becomes Focus 1."],
  [ev("put_under", { seat: 1, deck_count: 10 }), "Bruno puts a card under the deck."],
  [ev("duel_result", { attacker: 1, defender: 2, cards: [5, 2], focus: [1, 2], winner: 1, tie: false, reason: "lowest_focus" }),
    "Bruno wins the duel against Chen (Focus 1 against 2): Drunken Fists: lowest Focus wins."],
  [ev("duel_result", { attacker: 0, defender: 1, cards: [1, 1], focus: [6, 1], winner: null, tie: true, reason: "same_name" }),
    "The duel is a tie (Focus 6 against 1): same card: a tie. Both take the other's card as a prize."],
  [ev("duel_result", { attacker: 2, defender: 0, cards: [4, 5], focus: [4, 5], winner: 2, tie: false, reason: "snake" }),
    "Chen wins the duel against you (Focus 4 against 5): Snake Style defeats odd Focus."],
  [ev("duel_result", { attacker: 2, defender: 0, cards: [3, 6], focus: [3, 6], winner: 0, tie: false, reason: "highest_focus" }),
    "You win the duel against Chen (Focus 6 against 3): highest Focus wins."],
  [ev("dragon_extra", { seat: 1 }), "Bruno draws an extra card (Dragon Style)."],
  [ev("eliminated", { seat: 2, reason: "master_lost", hand: [1, 4] }),
    "Chen is eliminated: a duel lost with the Master of Kung Fu. Discarded hand: Disciple (1), Snake Style (4)."],
  [ev("eliminated", { seat: 0, reason: "no_cards", hand: [] }), "You are eliminated: no cards left in hand at the end of a turn."],
  [ev("protected", { seat: 1 }), "Bruno is protected by Crane Style until their next turn."],
  [ev("fizzles", { seat: 1, card: 6 }), "Bruno's Tiger Style (6) has no effect: no opponent can be chosen."],
  [ev("snake_target", { seat: 1, target: 0 }), "Bruno makes you separate a card (Snake Style)."],
  [ev("snake_separated", { seat: 2 }), "Chen separates a card."],
  [ev("snake_guess", { seat: 1, target: 2, guess: "odd", correct: true, card: 5 }), "Bruno guesses ODD: right! Chen discards Monkey Style (5)."],
  [ev("snake_guess", { seat: 1, target: 2, guess: "even", correct: false }), "Bruno guesses EVEN: wrong, the card stays in Chen's hand."],
  [ev("hands_swapped", { seat: 1, seats: [1, 2], hand_counts: [3, 2] }), "Bruno swaps hands with Chen (Monkey Style): 3 cards and 2 cards."],
  [ev("tiger_mark", { seat: 2, target: 1 }), "Chen will look at Bruno's hand next turn (Tiger Style)."],
  [ev("tiger_look", { seat: 2, target: 0 }), "Chen looks at your hand (Tiger Style)."],
  [ev("tiger_fizzles", { seat: 2, target: 1 }), "Chen's Tiger Style look at Bruno's hand fails: protected or out of the round."],
  [ev("dragon_look", { seat: 1 }), "Bruno looks at the top card of the deck (Dragon Style)."],
  [ev("dragon_look", { seat: 1, empty: true }), "Bruno finds the deck empty (Dragon Style)."],
  [ev("dragon_peek", { seat: 1, to_bottom: true }), "Bruno puts the card under the deck."],
  [ev("dragon_peek", { seat: 1, to_bottom: false }), "Bruno leaves the card on top of the deck."],
  [ev("put_on_top", { seat: 2, deck_count: 8 }), "Chen puts a card on top of the deck (Drunken Fists)."],
  [ev("round_over", { round: 1, reason: "deck_out", hands: [[2], null, [7, 8]], winners: [2], placements: [2, 3, 1], points: [1, 0, 3], prize_focus: [4, 0, 9], face_down_prizes: [[], [], [8]] }),
    "Round 1 over (the deck ran out): Chen wins. Hands revealed: You: Drunken Fists (2); Chen: Dragon Style (7), Master of Kung Fu (8). Points: You 1, Bruno 0, Chen 3."],
  [ev("round_over", { round: 1, reason: "last_standing", winners: [0], placements: [1, 3, 2], points: [2, 0, 1], prize_focus: [5, 0, 2], face_down_prizes: [[], [], []] }),
    "Round 1 over (one player left standing): You win. Points: You 2, Bruno 0, Chen 1."],
  [ev("game_over", { winners: [1, 2], placements: [3, 1, 1], scores: {}, reason: "deck_out" }), "Game over: Bruno and Chen win (the deck ran out)."],
];

test("every event type has its own public sentence", () => {
  const covered = new Set();
  for (const [event, expected] of PUBLIC_CASES) {
    const entries = B.formatEvent(event, ctx(0));
    assert.equal(entries[0].scope, "public");
    assert.equal(entries[0].known, true, event.type);
    assert.equal(entries[0].text, expected, event.type);
    covered.add(event.type);
  }
  assert.deepEqual([...covered].sort(), B.EVENT_TYPES, "the cases cover exactly the known event types");
});

// Every private part the engine produces, as its owner reads it.
const PRIVATE_CASES = [
  [ev("round_start", { round: 1, starter: 0, deck_count: 17 }, { hand: [2, 6] }), "Your hand: Drunken Fists (2), Tiger Style (6)."],
  [ev("draw", { seat: 0, deck_count: 5 }, { card: 8 }), "You drew Master of Kung Fu (8)."],
  [ev("play_down", { seat: 0 }, { card: 4 }), "You played Snake Style (4) face down."],
  [ev("disciple_look", { seat: 0, source: "deck" }, { card: 7, source: "deck" }), "You saw Dragon Style (7) on top of the deck."],
  [ev("disciple_look", { seat: 0, source: "set_aside" }, { card: 3, source: "set_aside" }), "You saw Crane Style (3) (the card set aside)."],
  [ev("put_under", { seat: 0, deck_count: 4 }, { card: 1 }), "You put Disciple (1) under the deck."],
  [ev("snake_separated", { seat: 0 }, { card: 5 }), "You separated Monkey Style (5)."],
  [ev("snake_guess", { seat: 1, target: 0, guess: "odd", correct: false }, { card: 4 }), "The separated card was Snake Style (4)."],
  [ev("hands_swapped", { seat: 1, seats: [0, 1], hand_counts: [2, 3] }, { hand: [3, 5, 7] }), "Your new hand: Crane Style (3), Monkey Style (5), Dragon Style (7)."],
  [ev("tiger_look", { seat: 0, target: 2 }, { target: 2, hand: [1, 6] }), "You saw Chen's hand: Disciple (1), Tiger Style (6)."],
  [ev("dragon_look", { seat: 0 }, { card: 2 }), "You saw Drunken Fists (2) on top of the deck."],
  [ev("put_on_top", { seat: 0, deck_count: 6 }, { card: 6 }), "You put Tiger Style (6) on top of the deck."],
];

test("every private part reads as what you alone saw", () => {
  for (const [event, expected] of PRIVATE_CASES) {
    const entries = B.formatEvent(event, ctx(0));
    assert.equal(entries.length, 2, event.type);
    assert.equal(entries[1].scope, "private");
    assert.equal(entries[1].seat, 0);
    assert.equal(entries[1].text, expected, event.type);
  }
});

test("full reveal: raw per-seat private parts become named 'reveal' entries", () => {
  const raw = ev("hands_swapped", { seat: 1, seats: [0, 2], hand_counts: [1, 2] }, { 0: { hand: [4] }, 2: { hand: [1, 8] } });
  const entries = B.formatEvent(raw, ctx(null, { allPrivate: true, useYou: false }));
  assert.deepEqual(entries.map((e) => e.scope), ["public", "reveal", "reveal"]);
  assert.equal(entries[0].text, "Bruno swaps the hands of Ana and Chen (Monkey Style): 1 card and 2 cards.");
  assert.equal(entries[1].text, "Ana's new hand: Snake Style (4).");
  assert.equal(entries[1].tag, "Secret");
  assert.equal(entries[2].text, "Chen's new hand: Disciple (1), Master of Kung Fu (8).");
  const draw = B.formatEvent(ev("draw", { seat: 2, deck_count: 3 }, { 2: { card: 6 } }), ctx(null, { allPrivate: true, useYou: false }));
  assert.equal(draw[1].text, "Chen drew Tiger Style (6).");
  const guess = B.formatEvent(ev("snake_guess", { seat: 1, target: 0, guess: "even", correct: false }, { 1: { card: 5 }, 0: { card: 5 } }), ctx(null, { allPrivate: true }));
  assert.equal(guess.length, 3);
  assert.match(guess[1].text, /seen by Ana\) was Monkey Style \(5\)/);
});

test("a spectator never gets a private entry, even if handed a seat's part", () => {
  const entries = B.formatEvent(ev("draw", { seat: 1, deck_count: 3 }, {}), ctx(null));
  assert.equal(entries.length, 1);
  assert.equal(entries[0].text, "Bruno draws a card (3 cards left in the deck).");
});

test("what seat N knew: names instead of 'You' when useYou is off", () => {
  const entries = B.formatEvent(ev("draw", { seat: 1, deck_count: 3 }, { card: 2 }), ctx(1, { useYou: false }));
  assert.equal(entries[0].text, "Bruno draws a card (3 cards left in the deck).");
  assert.equal(entries[1].scope, "private");
  assert.equal(entries[1].text, "Bruno drew Drunken Fists (2).");
  assert.equal(entries[1].tag, "Only Bruno");
});

test("unknown event types are shown plainly and flagged", () => {
  const [entry] = B.formatEvent(ev("new_thing", {}), ctx(0));
  assert.equal(entry.known, false);
  assert.equal(entry.text, "Event: new thing.");
});

test("formatSteps numbers entries by version and explains timeouts and takeovers", () => {
  const entries = B.formatSteps([
    { version: 3, seat: 1, kind: "timeout", events: [ev("play_up", { seat: 1, card: 1 })] },
    { version: 4, seat: 2, kind: "takeover", events: [] },
  ], ctx(0));
  assert.deepEqual(entries.map((e) => e.version), [3, 3, 4]);
  assert.equal(entries[0].text, "Bruno's clock ran out: the default choice was played.");
  assert.equal(entries[1].text, "Bruno plays Disciple (1) face up.");
  assert.equal(entries[2].text, "A bot moved for Chen, who left the match.");
});

test("groupLegal: hand choices as cards, targets as seats, the rest as buttons", () => {
  const legal = [
    { id: "card:1", label: "Disciple (1)", type: "card", card: 1 },
    { id: "card:6", label: "Tiger Style (6)", type: "card", card: 6 },
  ];
  const groups = B.groupLegal(legal, ctx(0));
  assert.equal(groups.length, 1);
  assert.equal(groups[0].kind, "cards");
  assert.equal(groups[0].title, "Choose the card to play");
  assert.deepEqual(groups[0].actions.map((a) => [a.id, a.card, a.text]), [["card:1", 1, "Disciple (1)"], ["card:6", 6, "Tiger Style (6)"]]);

  const seats = B.groupLegal([
    { id: "target:1", label: "Duel seat 1", type: "target", seat: 1 },
    { id: "target:2", label: "Duel seat 2", type: "target", seat: 2 },
  ], ctx(0));
  assert.equal(seats[0].kind, "seats");
  assert.deepEqual(seats[0].actions.map((a) => a.text), ["Duel Bruno", "Duel Chen"]);

  const swap = B.groupLegal([
    { id: "swap:0", label: "Swap the hand of seat 0", type: "swap", seat: 0 },
    { id: "swap:2", label: "Swap the hand of seat 2", type: "swap", seat: 2 },
  ], ctx(0));
  assert.deepEqual(swap[0].actions.map((a) => a.text), ["Your own hand", "Chen's hand"]);

  const yesNo = B.groupLegal([
    { id: "face:up", label: "Play face up (discard effect)", type: "face", face: "up" },
    { id: "face:down", label: "Play face down (duel)", type: "face", face: "down" },
  ], ctx(0));
  assert.equal(yesNo[0].kind, "choice");
  assert.deepEqual(yesNo[0].actions.map((a) => a.text), ["Play face up (discard effect)", "Play face down (duel)"]);
  assert.deepEqual(B.groupLegal([], ctx(0)), []);
});

test("describeAction: replay labels, with cards hidden when the perspective could not see them", () => {
  const c = ctx(null, { useYou: false });
  assert.equal(B.describeAction("card:7", 1, c), "Bruno chooses Dragon Style (7).");
  assert.equal(B.describeAction("card:7", 1, Object.assign({}, c, { hideCards: true })), "Bruno chooses a card.");
  assert.equal(B.describeAction("target:2", 1, c), "Bruno duels Chen.");
  assert.equal(B.describeAction("swap:1", 1, c), "Bruno picks their own hand to swap.");
  assert.equal(B.describeAction("face:down", 0, c), "Ana plays the card face down.");
  assert.equal(B.describeAction("guess:odd", 2, c), "Chen guesses ODD.");
  assert.equal(B.describeAction("dragon:two", 2, c), "Chen draws two cards.");
  assert.equal(B.describeAction("reveal:no", 2, c), "Chen does not reveal.");
  assert.equal(B.describeAction("card:3", 0, ctx(0)), "You choose Crane Style (3).");
  assert.equal(B.describeAction("mystery:1", 0, c, "fallback label"), "fallback label");
});

test("clocks: a running deadline counts down, a total clock shows its store", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  const seat = { deadline: "2026-01-01T12:00:42.500Z", clock_ms: 300000 };
  assert.equal(C.clockRemaining(seat, now, true), 42500);
  assert.equal(C.clockRemaining(seat, now, false), 300000);
  assert.equal(C.clockRemaining({ deadline: "2026-01-01T11:59:00Z", clock_ms: null }, now, true), 0);
  assert.equal(C.clockRemaining({ deadline: null, clock_ms: null }, now, true), null);
  assert.equal(C.formatClock(42500), "0:43");
  assert.equal(C.formatClock(600000), "10:00");
  assert.equal(C.formatClock(3723000), "1:02:03");
  assert.equal(C.formatClock(86399000), "23:59:59");
  assert.equal(C.formatClock(3 * 86400000 - 1000), "2d 23h");
  assert.equal(C.formatClock(null), "");
});

test("seating order puts the viewer last (drawn separately) and starts at their left", () => {
  assert.deepEqual(B.seatingOrder(4, 1), [2, 3, 0]);
  assert.deepEqual(B.seatingOrder(3, null), [0, 1, 2]);
});

test("verifySeed hashes '<match>:<seed>' with SHA-256 and compares", async () => {
  const match = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
  const seed = "123456789";
  const hash = nodeCrypto.createHash("sha256").update(match + ":" + seed).digest("hex");
  assert.deepEqual(await C.verifySeed(match, seed, hash, globalThis.crypto), { ok: true, computed: hash });
  const wrong = await C.verifySeed(match, "123456780", hash, globalThis.crypto);
  assert.equal(wrong.ok, false);
  assert.notEqual(wrong.computed, hash);
  await assert.rejects(C.verifySeed(match, seed, hash, {}), /SHA-256/);
});

test("resultModel: placements in order, winners, reasons, aborted matches", () => {
  const frame = {
    match: "m", seat: 1, status: "finished", end_reason: "completed", seed: "42", seed_hash: "ab",
    seats: NAMES.map((name, i) => ({ number: i, name })),
    result: { placements: [2, 1, 3], winners: [1], forfeited: [2], engine: { reason: "deck_out", scores: { points: [2, 4, 0], prize_focus: [5, 11, 0] } } },
  };
  const res = B.resultModel(frame);
  assert.equal(res.headline, "You win!");
  assert.equal(res.youWon, true);
  assert.equal(res.endReason, "The game was played to the end.");
  assert.equal(res.gameReason, "the deck ran out");
  assert.deepEqual(res.rows.map((r) => [r.name, r.placeText, r.winner, r.points, r.forfeited]), [
    ["Bruno (you)", "1st", true, 4, false], ["Ana", "2nd", false, 2, false], ["Chen", "3rd", false, 0, true],
  ]);
  assert.equal(res.seed, "42");
  const spectator = B.resultModel(Object.assign({}, frame, { seat: null }));
  assert.equal(spectator.headline, "Bruno wins!");
  const aborted = B.resultModel(Object.assign({}, frame, { status: "aborted", end_reason: "aborted", result: null }));
  assert.equal(aborted.aborted, true);
  assert.equal(aborted.rows.length, 0);
  assert.equal(aborted.headline, "Match called off: no result.");
  assert.equal(C.endReasonText("time forfeit"), "A player ran out of time.");
});

test("boardModel: spectator delay, aborted matches and an empty frame", () => {
  const view = {
    seat: null, players: 2, round: 1, rounds_to_win: 1, markers: [0, 0], turn: 1, turns: 3, phase: "card",
    actors: [1], prompt: "choose the card to play", deck_count: 12, discard: [3, 6], reshuffle_available: false,
    seats: [
      { seat: 0, alive: true, hand_count: 2, prizes: [4], face_down_prizes: [], protected: true, tiger_target: null },
      { seat: 1, alive: true, hand_count: 3, prizes: [], face_down_prizes: [8], protected: false, tiger_target: 0 },
    ],
    hand: null, play: null, duel: null, private: {},
  };
  const frame = { status: "active", version: 9, delayed_by: 3, seat: null, view, legal: [], seats: [{ name: "Ana" }, { name: "Bruno" }] };
  const model = B.boardModel(frame, { nowMs: 0 });
  assert.equal(model.delayedBy, 3);
  assert.equal(model.statusLine, "Bruno is choosing a card to play.");
  assert.equal(model.discardTop, 6);
  assert.equal(model.seats[0].protected, true);
  assert.equal(model.seats[1].tigerTargetName, "Ana");
  assert.equal(model.seats[1].points, 1, "a face-down prize counts as a point");
  assert.equal(model.seats[1].isActor, true);
  assert.equal(model.seats[0].isActor, false);
  const aborted = B.boardModel(Object.assign({}, frame, { status: "aborted", delayed_by: undefined }), { nowMs: 0 });
  assert.equal(aborted.statusLine, "The match was called off.");
  assert.equal(aborted.delayedBy, null);
  assert.equal(aborted.seats[1].isActor, false);
  const empty = B.boardModel({ status: "active", seat: 0, view: null, seats: [{ name: "Ana" }], legal: [] });
  assert.equal(empty.statusLine, "Waiting for the deal.");
  assert.equal(empty.groups.length, 0);
});

test("a seat that left is played by a bot: its player gets no controls", () => {
  const frame = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", "duelo.json"), "utf8")).seat_frames.card;
  assert.ok(B.boardModel(frame, { nowMs: 0 }).groups.length > 0);
  frame.seats[frame.seat].replaced_by_bot = true;
  frame.seats[frame.seat].forfeited = true;
  const model = B.boardModel(frame, { nowMs: 0 });
  assert.equal(model.myTurn, false);
  assert.equal(model.groups.length, 0);
  assert.equal(model.statusLine, "You left this match: a bot plays your seat.");
});
