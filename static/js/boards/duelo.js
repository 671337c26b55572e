/*
 * Duelo: Kung Fu board: pure functions from a server frame (or a replay step)
 * to plain data, plus small DOM renderers for that data.
 *
 * Used by the live match page (live-match.js), the replay viewer (replay.js)
 * and the node unit tests (tests/frontend/), so everything that decides *what*
 * to show lives in pure functions (boardModel, formatEvent, groupLegal, ...)
 * and the DOM code only draws the result. What every board shares (names,
 * log, clocks, seed check, side panel, results, DOM helpers) is imported from
 * boards/common.js.
 */

import {
  actionGroupEl, cardListText, clear, describeSeats, isYou, nameOf, seatLabel, viewerLine, emptyPileEl, eventFormatter, frameBasics, h,
  modelBase, platformSeat, presenceEl,
  renderPanel, resultModel as commonResultModel, resultsPanelEl, resultsTableEl,
  seatName, seatScore, stepsFormatter, turnStatus, winnersText,
} from "./common.js";
import { t, tn } from "../i18n.js";

/** Marks a message translated where it is shown (t(variable)); the extractor knows it. */
const N_ = (text) => text;

// ---------------------------------------------------------------------------
// The eight cards (rulebook: "The Cards"). `count` is for one box (2-4
// players); the 5-8 player variant doubles every card but the Master.

const CARDS = {
  1: {
    focus: 1, name: "Disciple", count: 6,
    discard: t("Look at the top card of the deck; you may reveal it to copy its discard effect."),
    combat: t("Look at the top card of the deck; you may reveal it to copy its Focus."),
  },
  2: {
    focus: 2, name: "Drunken Fists", count: 3,
    discard: t("Draw two cards, then put two cards from your hand on top of the deck."),
    combat: t("In this duel the LOWEST Focus wins."),
  },
  3: {
    focus: 3, name: "Crane Style", count: 3,
    discard: t("Until your next turn you cannot be targeted by duels or discard effects."),
    combat: t("Ignore your opponent's combat effect."),
  },
  4: {
    focus: 4, name: "Snake Style", count: 3,
    discard: t("An opponent separates a card; guess ODD or EVEN, and if right it is discarded."),
    combat: t("Defeats cards of ODD Focus."),
  },
  5: {
    focus: 5, name: "Monkey Style", count: 3,
    discard: t("Two players exchange hands (you may be one of them)."),
    combat: t("You may put your hand under the deck and draw as many; this card becomes Focus 1."),
  },
  6: {
    focus: 6, name: "Tiger Style", count: 3,
    discard: t("Choose an opponent: at the start of your next turn, look at their hand."),
    combat: t("If you win or tie, look at your opponent's hand."),
  },
  7: {
    focus: 7, name: "Dragon Style", count: 2,
    discard: t("Look at the top card, you may put it under the deck, then draw a card."),
    combat: t("If you win or tie, you may draw one extra card."),
  },
  8: {
    focus: 8, name: "Master of Kung Fu", count: 1,
    discard: t("None. Discarding the Master for any reason eliminates you."),
    combat: t("None. Losing a duel with the Master eliminates you."),
  },
};

/** Everything needed to draw one face-up card; null for an unknown Focus. */
function cardInfo(focus, players) {
  const card = CARDS[focus];
  if (!card) return null;
  const doubled = (players || 0) > 4 && focus !== 8;
  return {
    focus: card.focus,
    name: card.name,
    count: doubled ? card.count * 2 : card.count,
    discard: card.discard,
    combat: card.combat,
    label: card.name + " (" + card.focus + ")",
    className: "kcard kcard-" + card.focus,
  };
}

/** The reference table: one row per card, in Focus order. */
function cardTable(players) {
  const rows = [];
  for (let f = 1; f <= 8; f++) rows.push(cardInfo(f, players));
  return rows;
}

function cardName(focus) {
  const card = CARDS[focus];
  return card ? card.name + " (" + focus + ")" : "a card";
}

function cardList(cards) {
  return cardListText(cards, cardName);
}

// ---------------------------------------------------------------------------
// Names and reasons (seatName, possessive, ... come from common.js).

const ELIMINATION = {
  no_cards: t("no cards left in hand at the end of a turn"),
  master_lost: t("a duel lost with the Master of Kung Fu"),
  master_discarded: t("the Master of Kung Fu was discarded"),
};

const DUEL_REASONS = {
  same_name: t("same card: a tie"),
  same_focus: t("same Focus: a tie"),
  snake: t("Snake Style defeats odd Focus"),
  lowest_focus: t("Drunken Fists: lowest Focus wins"),
  highest_focus: t("highest Focus wins"),
};

const ROUND_REASONS = {
  deck_out: t("the deck ran out"),
  last_standing: t("one player left standing"),
  match: t("round wins reached"),
};

// Snake Style's guess, as the log and the replay say it.
const GUESSES = { odd: t("ODD"), even: t("EVEN") };

function guessText(guess) {
  return GUESSES[guess] || String(guess).toUpperCase();
}

/** "1 card and 2 cards": the hands' sizes after a swap, in the given order. */
function handCounts(first, second) {
  // (Not nested in t()'s arguments: the extractor misses a call inside a call.)
  const a = tn("%(n)s card", "%(n)s cards", first, { n: first });
  const b = tn("%(n)s card", "%(n)s cards", second, { n: second });
  return t("%(first)s and %(second)s", { first: a, second: b });
}

// ---------------------------------------------------------------------------
// Events. Each formatter gets (public part, ctx) and returns the public
// sentence; PRIVATE formatters get (private part, public part, ctx, owner)
// and return what that seat alone saw. Every sentence is one message per
// person ("You draw" / "%(name)s draws"), so a translation words it whole.

const PUBLIC = {
  round_start: function (p, ctx) {
    const n = p.deck_count;
    return isYou(ctx, p.starter)
      ? tn("Round %(round)s begins: you start (%(n)s card in the deck).",
        "Round %(round)s begins: you start (%(n)s cards in the deck).", n, { round: p.round, n: n })
      : tn("Round %(round)s begins: %(name)s starts (%(n)s card in the deck).",
        "Round %(round)s begins: %(name)s starts (%(n)s cards in the deck).", n,
        { round: p.round, name: nameOf(ctx, p.starter), n: n });
  },
  turn: function (p, ctx) {
    return isYou(ctx, p.seat)
      ? t("Turn %(turn)s: Your turn.", { turn: p.turn + 1 })
      : t("Turn %(turn)s: %(name)s's turn.", { turn: p.turn + 1, name: nameOf(ctx, p.seat) });
  },
  protection_ends: function (p, ctx) {
    return isYou(ctx, p.seat)
      ? t("Your Crane Style protection ends.")
      : t("%(name)s's Crane Style protection ends.", { name: nameOf(ctx, p.seat) });
  },
  draw: function (p, ctx) {
    const n = p.deck_count;
    return isYou(ctx, p.seat)
      ? tn("You draw a card (%(n)s card left in the deck).", "You draw a card (%(n)s cards left in the deck).", n, { n: n })
      : tn("%(name)s draws a card (%(n)s card left in the deck).", "%(name)s draws a card (%(n)s cards left in the deck).", n,
        { name: nameOf(ctx, p.seat), n: n });
  },
  reshuffle: function (p) {
    return tn("The discard pile is shuffled into a new deck of %(n)s card.",
      "The discard pile is shuffled into a new deck of %(n)s cards.", p.deck_count, { n: p.deck_count });
  },
  play_up: function (p, ctx) {
    const card = cardName(p.card);
    return isYou(ctx, p.seat)
      ? t("You play %(card)s face up.", { card: card })
      : t("%(name)s plays %(card)s face up.", { name: nameOf(ctx, p.seat), card: card });
  },
  play_down: function (p, ctx) {
    return isYou(ctx, p.seat)
      ? t("You play a card face down to duel.")
      : t("%(name)s plays a card face down to duel.", { name: nameOf(ctx, p.seat) });
  },
  challenge: function (p, ctx) {
    const params = { name: nameOf(ctx, p.attacker), other: nameOf(ctx, p.defender) };
    if (isYou(ctx, p.attacker)) return t("You challenge %(other)s to a duel.", params);
    if (isYou(ctx, p.defender)) return t("%(name)s challenges you to a duel.", params);
    return t("%(name)s challenges %(other)s to a duel.", params);
  },
  duel_reveal: function (p, ctx) {
    const params = {
      name: nameOf(ctx, p.attacker), other: nameOf(ctx, p.defender),
      card: cardName(p.cards[0]), other_card: cardName(p.cards[1]),
    };
    if (isYou(ctx, p.attacker)) return t("Duel revealed: your %(card)s against %(other)s's %(other_card)s.", params);
    if (isYou(ctx, p.defender)) return t("Duel revealed: %(name)s's %(card)s against your %(other_card)s.", params);
    return t("Duel revealed: %(name)s's %(card)s against %(other)s's %(other_card)s.", params);
  },
  disciple_look: function (p, ctx) {
    const you = isYou(ctx, p.seat);
    const params = { name: nameOf(ctx, p.seat) };
    if (p.source === "set_aside") {
      return you
        ? t("You look at the card set aside (the deck is empty) (Disciple).")
        : t("%(name)s looks at the card set aside (the deck is empty) (Disciple).", params);
    }
    return you
      ? t("You look at the top card of the deck (Disciple).")
      : t("%(name)s looks at the top card of the deck (Disciple).", params);
  },
  disciple_reveal: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), card: cardName(p.card) };
    return isYou(ctx, p.seat)
      ? t("You reveal %(card)s and copy it (Disciple).", params)
      : t("%(name)s reveals %(card)s and copies it (Disciple).", params);
  },
  monkey_redraw: function (p, ctx) {
    const n = p.hand_count;
    const params = { name: nameOf(ctx, p.seat), n: n };
    return isYou(ctx, p.seat)
      ? tn("You put %(n)s card under the deck and draw as many; Monkey Style becomes Focus 1.",
        "You put %(n)s cards under the deck and draw as many; Monkey Style becomes Focus 1.", n, params)
      : tn("%(name)s puts %(n)s card under the deck and draws as many; Monkey Style becomes Focus 1.",
        "%(name)s puts %(n)s cards under the deck and draws as many; Monkey Style becomes Focus 1.", n, params);
  },
  put_under: function (p, ctx) {
    return isYou(ctx, p.seat)
      ? t("You put a card under the deck.")
      : t("%(name)s puts a card under the deck.", { name: nameOf(ctx, p.seat) });
  },
  duel_result: function (p, ctx) {
    const why = DUEL_REASONS[p.reason] || String(p.reason || "");
    if (p.tie) {
      return p.focus
        ? t("The duel is a tie (Focus %(focus)s against %(other_focus)s): %(why)s. Both take the other's card as a prize.",
          { focus: p.focus[0], other_focus: p.focus[1], why: why })
        : t("The duel is a tie: %(why)s. Both take the other's card as a prize.", { why: why });
    }
    const loser = p.winner === p.attacker ? p.defender : p.attacker;
    // The winner's Focus first, so "X wins (Focus 6 against 3)" reads right.
    const params = { name: nameOf(ctx, p.winner), other: nameOf(ctx, loser), why: why };
    if (p.focus) {
      params.focus = p.winner === p.defender ? p.focus[1] : p.focus[0];
      params.other_focus = p.winner === p.defender ? p.focus[0] : p.focus[1];
      if (isYou(ctx, p.winner)) return t("You win the duel against %(other)s (Focus %(focus)s against %(other_focus)s): %(why)s.", params);
      if (isYou(ctx, loser)) return t("%(name)s wins the duel against you (Focus %(focus)s against %(other_focus)s): %(why)s.", params);
      return t("%(name)s wins the duel against %(other)s (Focus %(focus)s against %(other_focus)s): %(why)s.", params);
    }
    if (isYou(ctx, p.winner)) return t("You win the duel against %(other)s: %(why)s.", params);
    if (isYou(ctx, loser)) return t("%(name)s wins the duel against you: %(why)s.", params);
    return t("%(name)s wins the duel against %(other)s: %(why)s.", params);
  },
  dragon_extra: function (p, ctx) {
    return isYou(ctx, p.seat)
      ? t("You draw an extra card (Dragon Style).")
      : t("%(name)s draws an extra card (Dragon Style).", { name: nameOf(ctx, p.seat) });
  },
  eliminated: function (p, ctx) {
    const why = ELIMINATION[p.reason] || String(p.reason || "").replace(/_/g, " ");
    let text = isYou(ctx, p.seat)
      ? t("You are eliminated: %(why)s.", { why: why })
      : t("%(name)s is eliminated: %(why)s.", { name: nameOf(ctx, p.seat), why: why });
    if (p.hand && p.hand.length) text += " " + t("Discarded hand: %(cards)s.", { cards: cardList(p.hand) });
    return text;
  },
  protected: function (p, ctx) {
    return isYou(ctx, p.seat)
      ? t("You are protected by Crane Style until your next turn.")
      : t("%(name)s is protected by Crane Style until their next turn.", { name: nameOf(ctx, p.seat) });
  },
  fizzles: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), card: cardName(p.card) };
    return isYou(ctx, p.seat)
      ? t("Your %(card)s has no effect: no opponent can be chosen.", params)
      : t("%(name)s's %(card)s has no effect: no opponent can be chosen.", params);
  },
  snake_target: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), other: nameOf(ctx, p.target) };
    if (isYou(ctx, p.seat)) return t("You make %(other)s separate a card (Snake Style).", params);
    if (isYou(ctx, p.target)) return t("%(name)s makes you separate a card (Snake Style).", params);
    return t("%(name)s makes %(other)s separate a card (Snake Style).", params);
  },
  snake_separated: function (p, ctx) {
    return isYou(ctx, p.seat)
      ? t("You separate a card.")
      : t("%(name)s separates a card.", { name: nameOf(ctx, p.seat) });
  },
  snake_guess: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), other: nameOf(ctx, p.target), guess: guessText(p.guess) };
    if (p.correct) {
      params.card = cardName(p.card);
      if (isYou(ctx, p.seat)) return t("You guess %(guess)s: right! %(other)s discards %(card)s.", params);
      if (isYou(ctx, p.target)) return t("%(name)s guesses %(guess)s: right! You discard %(card)s.", params);
      return t("%(name)s guesses %(guess)s: right! %(other)s discards %(card)s.", params);
    }
    if (isYou(ctx, p.seat)) return t("You guess %(guess)s: wrong, the card stays in %(other)s's hand.", params);
    if (isYou(ctx, p.target)) return t("%(name)s guesses %(guess)s: wrong, the card stays in your hand.", params);
    return t("%(name)s guesses %(guess)s: wrong, the card stays in %(other)s's hand.", params);
  },
  hands_swapped: function (p, ctx) {
    const a = p.seats[0], b = p.seats[1];
    const counts = p.hand_counts;
    if (p.seat === a || p.seat === b) {
      // The player swaps their own hand with someone's.
      const own = p.seat === a ? 0 : 1;
      const params = {
        name: nameOf(ctx, p.seat), other: nameOf(ctx, p.seats[1 - own]),
        counts: handCounts(counts[own], counts[1 - own]),
      };
      if (isYou(ctx, p.seat)) return t("You swap hands with %(other)s (Monkey Style): %(counts)s.", params);
      if (isYou(ctx, p.seats[1 - own])) {
        params.counts = handCounts(counts[1 - own], counts[own]);
        return t("%(name)s swaps hands with you (Monkey Style): %(counts)s.", params);
      }
      return t("%(name)s swaps hands with %(other)s (Monkey Style): %(counts)s.", params);
    }
    // The reader's own hand first when it is one of the two.
    const mine = isYou(ctx, a) ? 0 : isYou(ctx, b) ? 1 : -1;
    if (mine >= 0) {
      const params = {
        name: nameOf(ctx, p.seat), other: nameOf(ctx, p.seats[1 - mine]),
        counts: handCounts(counts[mine], counts[1 - mine]),
      };
      return isYou(ctx, p.seat)
        ? t("You swap your hand with %(other)s's (Monkey Style): %(counts)s.", params)
        : t("%(name)s swaps your hand with %(other)s's (Monkey Style): %(counts)s.", params);
    }
    const params = { name: nameOf(ctx, p.seat), a: nameOf(ctx, a), b: nameOf(ctx, b), counts: handCounts(counts[0], counts[1]) };
    return isYou(ctx, p.seat)
      ? t("You swap the hands of %(a)s and %(b)s (Monkey Style): %(counts)s.", params)
      : t("%(name)s swaps the hands of %(a)s and %(b)s (Monkey Style): %(counts)s.", params);
  },
  tiger_mark: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), other: nameOf(ctx, p.target) };
    if (isYou(ctx, p.seat)) return t("You will look at %(other)s's hand next turn (Tiger Style).", params);
    if (isYou(ctx, p.target)) return t("%(name)s will look at your hand next turn (Tiger Style).", params);
    return t("%(name)s will look at %(other)s's hand next turn (Tiger Style).", params);
  },
  tiger_look: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), other: nameOf(ctx, p.target) };
    if (isYou(ctx, p.seat)) return t("You look at %(other)s's hand (Tiger Style).", params);
    if (isYou(ctx, p.target)) return t("%(name)s looks at your hand (Tiger Style).", params);
    return t("%(name)s looks at %(other)s's hand (Tiger Style).", params);
  },
  tiger_fizzles: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), other: nameOf(ctx, p.target) };
    if (isYou(ctx, p.seat)) return t("Your Tiger Style look at %(other)s's hand fails: protected or out of the round.", params);
    if (isYou(ctx, p.target)) return t("%(name)s's Tiger Style look at your hand fails: protected or out of the round.", params);
    return t("%(name)s's Tiger Style look at %(other)s's hand fails: protected or out of the round.", params);
  },
  dragon_look: function (p, ctx) {
    const you = isYou(ctx, p.seat);
    const params = { name: nameOf(ctx, p.seat) };
    if (p.empty) return you ? t("You find the deck empty (Dragon Style).") : t("%(name)s finds the deck empty (Dragon Style).", params);
    return you
      ? t("You look at the top card of the deck (Dragon Style).")
      : t("%(name)s looks at the top card of the deck (Dragon Style).", params);
  },
  dragon_peek: function (p, ctx) {
    const you = isYou(ctx, p.seat);
    const params = { name: nameOf(ctx, p.seat) };
    if (p.to_bottom) return you ? t("You put the card under the deck.") : t("%(name)s puts the card under the deck.", params);
    return you ? t("You leave the card on top of the deck.") : t("%(name)s leaves the card on top of the deck.", params);
  },
  put_on_top: function (p, ctx) {
    return isYou(ctx, p.seat)
      ? t("You put a card on top of the deck (Drunken Fists).")
      : t("%(name)s puts a card on top of the deck (Drunken Fists).", { name: nameOf(ctx, p.seat) });
  },
  round_over: function (p, ctx) {
    let text = t("Round %(round)s over (%(reason)s): %(winners)s.", {
      round: p.round, reason: ROUND_REASONS[p.reason] || p.reason, winners: winnersText(ctx, p.winners),
    });
    if (p.hands) {
      const shown = [];
      p.hands.forEach(function (hand, seat) {
        if (hand) shown.push(t("%(name)s: %(cards)s", { name: seatLabel(ctx, seat), cards: cardList(hand) }));
      });
      if (shown.length) text += " " + t("Hands revealed: %(hands)s.", { hands: shown.join("; ") });
    }
    if (p.points) {
      const points = p.points.map(function (pts, seat) {
        return t("%(name)s %(points)s", { name: seatLabel(ctx, seat), points: pts });
      });
      text += " " + t("Points: %(points)s.", { points: points.join(", ") });
    }
    return text;
  },
  game_over: function (p, ctx) {
    return t("Game over: %(winners)s (%(reason)s).", {
      winners: winnersText(ctx, p.winners), reason: ROUND_REASONS[p.reason] || p.reason,
    });
  },
};

const PRIVATE = {
  round_start: function (s) { return t("Your hand: %(cards)s.", { cards: cardList(s.hand) }); },
  draw: function (s) { return t("You drew %(card)s.", { card: cardName(s.card) }); },
  play_down: function (s) { return t("You played %(card)s face down.", { card: cardName(s.card) }); },
  disciple_look: function (s) {
    return s.source === "set_aside"
      ? t("You saw %(card)s (the card set aside).", { card: cardName(s.card) })
      : t("You saw %(card)s on top of the deck.", { card: cardName(s.card) });
  },
  put_under: function (s) { return t("You put %(card)s under the deck.", { card: cardName(s.card) }); },
  snake_separated: function (s) { return t("You separated %(card)s.", { card: cardName(s.card) }); },
  snake_guess: function (s) { return t("The separated card was %(card)s.", { card: cardName(s.card) }); },
  hands_swapped: function (s) { return t("Your new hand: %(cards)s.", { cards: cardList(s.hand) }); },
  tiger_look: function (s, p, ctx) {
    const name = seatName(Object.assign({}, ctx, { useYou: false }), s.target);
    return /s$/.test(name)
      ? t("You saw %(name)s' hand: %(cards)s.", { name: name, cards: cardList(s.hand) })
      : t("You saw %(name)s's hand: %(cards)s.", { name: name, cards: cardList(s.hand) });
  },
  dragon_look: function (s) { return t("You saw %(card)s on top of the deck.", { card: cardName(s.card) }); },
  put_on_top: function (s) { return t("You put %(card)s on top of the deck.", { card: cardName(s.card) }); },
};

/** Every event type the Duelo engine emits (the tests hold the engine to it). */
const EVENT_TYPES = Object.keys(PUBLIC).sort();

/** What a seat alone saw, told about it by name (a replay naming every seat). */
const PRIVATE_THIRD = {
  round_start: function (s, p, ctx, owner) { return t("%(name)s's hand: %(cards)s.", { name: nameOf(ctx, owner), cards: cardList(s.hand) }); },
  draw: function (s, p, ctx, owner) { return t("%(name)s drew %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  play_down: function (s, p, ctx, owner) { return t("%(name)s played %(card)s face down.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  disciple_look: function (s, p, ctx, owner) {
    const params = { name: nameOf(ctx, owner), card: cardName(s.card) };
    return s.source === "set_aside" ? t("%(name)s saw %(card)s (the card set aside).", params) : t("%(name)s saw %(card)s on top of the deck.", params);
  },
  put_under: function (s, p, ctx, owner) { return t("%(name)s put %(card)s under the deck.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  snake_separated: function (s, p, ctx, owner) { return t("%(name)s separated %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  snake_guess: function (s, p, ctx, owner) {
    return t("The separated card (seen by %(name)s) was %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) });
  },
  hands_swapped: function (s, p, ctx, owner) { return t("%(name)s's new hand: %(cards)s.", { name: nameOf(ctx, owner), cards: cardList(s.hand) }); },
  tiger_look: function (s, p, ctx, owner) {
    return t("%(name)s saw %(other)s's hand: %(cards)s.", { name: nameOf(ctx, owner), other: nameOf(ctx, s.target), cards: cardList(s.hand) });
  },
  dragon_look: function (s, p, ctx, owner) { return t("%(name)s saw %(card)s on top of the deck.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  put_on_top: function (s, p, ctx, owner) { return t("%(name)s put %(card)s on top of the deck.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
};

/** One event as log entries: the public sentence, then private ones. */
const formatEvent = eventFormatter(PUBLIC, PRIVATE, null, PRIVATE_THIRD);

/** Log entries for a list of steps ({version, seat, kind, events}). */
const formatSteps = stepsFormatter(formatEvent);

// ---------------------------------------------------------------------------
// Decisions. Legal actions are grouped into one control per kind of choice.

const CARD_TYPES = { card: 1, answer: 1, bottom: 1, put: 1, separate: 1 };
const SEAT_TYPES = { target: 1, snake: 1, swap: 1, tiger: 1 };

const SEAT_LABELS = {
  target: function (name, own) { return own ? t("Duel yourself") : t("Duel %(name)s", { name: name }); },
  snake: function (name, own) { return own ? t("You separate a card") : t("%(name)s separates a card", { name: name }); },
  swap: function (name, own) { return own ? t("Your own hand") : t("%(name)s's hand", { name: name }); },
  tiger: function (name, own) { return own ? t("Look at your own hand next turn") : t("Look at %(name)s's hand next turn", { name: name }); },
};

/*
 * The engine's action labels in the reader's language. The engine words
 * action.label in English (it knows no Django; bots and the API read it); the
 * board words every label it shows from the action's type and parameters, one
 * whole message each (card names stay English). The node test
 * (tests/frontend/log-languages.test.js) holds every kind of label the engine
 * makes to a message here, and the English messages to the engine's words
 * (the seat choices' buttons name people; "swap" says only whose hand, as its
 * group's title says the rest: LABELS_OWN_WORDS).
 */
const FIXED_LABELS = {
  "face:up": N_("Play face up (discard effect)"),
  "face:down": N_("Play face down (duel)"),
  "reveal:no": N_("Do not reveal"),
  "reveal:yes": N_("Reveal the card and copy it"),
  "monkey:skip": N_("Keep your hand (Focus 5)"),
  "monkey:use": N_("Put your hand under the deck, redraw (Focus 1)"),
  "dragon:one": N_("Draw one card"),
  "dragon:two": N_("Draw two cards"),
  "guess:odd": N_("Guess ODD"),
  "guess:even": N_("Guess EVEN"),
  "peek:keep": N_("Leave the card on top"),
  "peek:bottom": N_("Put the card under the deck"),
};
// %(card)s: the card's name and focus ("Crane Style (3)"), or its name alone.
const CARD_LABELS = {
  answer: [N_("Answer with %(card)s"), true],
  bottom: [N_("Put %(card)s under the deck"), false],
  put: [N_("Put %(card)s on top of the deck"), false],
  separate: [N_("Separate %(card)s"), true],
};
const LABELS_OWN_WORDS = ["swap"];

/** An engine action's words for its button, in the reader's language. */
function actionText(action, ctx) {
  ctx = ctx || {};
  const type = action.type || String(action.id).split(":")[0];
  if (FIXED_LABELS[action.id]) return t(FIXED_LABELS[action.id]);
  // A card to play is named by the card alone (its name stays English).
  if (type === "card") return cardName(action.card);
  const byCard = CARD_LABELS[type];
  if (byCard) {
    const card = byCard[1] ? cardName(action.card) : (CARDS[action.card] || { name: t("a card") }).name;
    return t(byCard[0], { card: card });
  }
  if (SEAT_LABELS[type]) {
    const own = action.seat === ctx.viewer && ctx.useYou !== false;
    return SEAT_LABELS[type](own ? "" : nameOf(ctx, action.seat), own);
  }
  return action.label || String(action.id);
}

const GROUP_TITLES = {
  card: t("Choose the card to play"),
  answer: t("Answer the duel: choose a card to play face down"),
  bottom: t("Choose the next card to put under the deck"),
  put: t("Choose a card to put on top of the deck"),
  separate: t("Choose the card to separate"),
  target: t("Choose the opponent to duel"),
  snake: t("Choose the opponent who separates a card"),
  swap: t("Choose a player whose hand is swapped"),
  tiger: t("Choose whose hand you look at next turn"),
  face: t("Face up or face down?"),
  reveal: t("Reveal the card?"),
  monkey: t("Use Monkey Style's combat effect?"),
  dragon: t("How many cards to draw?"),
  guess: t("Odd or even?"),
  peek: t("Where does the card go?"),
};

/**
 * Legal actions -> [{kind: "cards"|"seats"|"choice", type, title, actions}].
 * Each action gets a `text` for its button (seat numbers become names).
 */
function groupLegal(legal, ctx) {
  ctx = ctx || {};
  const groups = [];
  const byType = {};
  (legal || []).forEach(function (action) {
    const type = action.type || String(action.id).split(":")[0];
    const kind = CARD_TYPES[type] ? "cards" : SEAT_TYPES[type] ? "seats" : "choice";
    let group = byType[type];
    if (!group) {
      group = byType[type] = {
        kind: kind, type: type, title: GROUP_TITLES[type] || t("Choose"), actions: [],
      };
      groups.push(group);
    }
    group.actions.push(Object.assign({}, action, { text: actionText(action, ctx) }));
  });
  return groups;
}

/**
 * A turn is three decisions on the server (card, face, opponent), but a
 * person decides it as one move: the card and the face are chosen here and
 * can be taken back until the move is sent, and when only one opponent can
 * be duelled it is chosen without a click. Pure: model + stage -> what to show.
 *
 * stage: null, {card: "card:3"} or {card: "card:3", face: "down"}.
 * Returns null unless the viewer must choose the card to play; otherwise
 * {step: "card"|"face"|"target", card: focus|null, title, choices, back}
 * where each choice has `text` and either `stage` (choose on) or `plan`
 * (the action ids to send, in order); `back` is the stage to go back to.
 */
function turnBuilder(model, stage) {
  const groups = (model && model.groups) || [];
  if (groups.length !== 1 || groups[0].type !== "card") return null;
  const cards = groups[0].actions;
  const chosen = stage && stage.card ? cards.filter(function (a) { return a.id === stage.card; })[0] : null;
  if (!chosen) {
    return {
      step: "card", card: null, title: groups[0].title, back: null,
      choices: cards.map(function (a) { return { id: a.id, card: a.card, text: a.text, stage: { card: a.id } }; }),
    };
  }
  const info = cardInfo(chosen.card) || { name: String(chosen.card), discard: "" };
  const targets = model.seats.filter(function (s) {
    return s.seat !== model.viewer && s.alive && !s.protected && !s.forfeited;
  });
  const named = function (s) { return s.name; };
  if (stage.face === "down" && targets.length > 1) {
    return {
      step: "target", card: chosen.card, back: { card: chosen.id },
      title: t("Play %(card)s face down: choose the opponent to duel", { card: info.name }),
      choices: targets.map(function (s) {
        return { id: "target:" + s.seat, seat: s.seat, text: t("Duel %(name)s", { name: named(s) }), plan: [chosen.id, "face:down", "target:" + s.seat] };
      }),
    };
  }
  const choices = [{ id: "face:up", text: t("Face up: %(effect)s", { effect: info.discard }), plan: [chosen.id, "face:up"] }];
  if (targets.length === 1) {
    choices.push({ id: "face:down", text: t("Face down: duel %(name)s", { name: named(targets[0]) }), plan: [chosen.id, "face:down", "target:" + targets[0].seat] });
  } else if (targets.length > 1) {
    choices.push({ id: "face:down", text: t("Face down: duel an opponent"), stage: { card: chosen.id, face: "down" } });
  }
  return {
    step: "face", card: chosen.card, back: {},
    title: t("Play %(card)s face up or face down?", { card: info.name }), choices: choices,
  };
}

/**
 * The decision to send without a click: the only opponent there is to pick
 * (two players, or everyone else protected by Crane Style). Null otherwise.
 */
function autoAction(model) {
  const groups = (model && model.groups) || [];
  if (groups.length !== 1 || groups[0].kind !== "seats" || groups[0].actions.length !== 1) return null;
  const action = groups[0].actions[0];
  return action.seat !== model.viewer && AUTO_SEAT_TYPES[groups[0].type] ? action : null;
}
const AUTO_SEAT_TYPES = { target: 1, snake: 1, tiger: 1 };

/** Human wording of an applied action id (replay step labels), one message per person. */
function describeAction(actionId, actor, ctx, fallback) {
  if (!actionId) return fallback || "";
  const parts = String(actionId).split(":");
  const kind = parts[0], arg = parts[1];
  const n = Number(arg);
  const you = isYou(ctx, actor);
  const hide = !!ctx.hideCards;
  const params = { name: nameOf(ctx, actor), other: nameOf(ctx, n), card: hide ? "" : cardName(n), guess: guessText(arg) };
  // Three people: the actor is the reader, the other seat is, or neither.
  const three = function (mine, theirsToYou, theirs) {
    return you ? t(mine, params) : isYou(ctx, n) ? t(theirsToYou, params) : t(theirs, params);
  };
  switch (kind) {
    case "card":
      if (hide) return you ? t("You choose a card.") : t("%(name)s chooses a card.", params);
      return you ? t("You choose %(card)s.", params) : t("%(name)s chooses %(card)s.", params);
    case "answer":
      if (hide) return you ? t("You answer the duel.") : t("%(name)s answers the duel.", params);
      return you ? t("You answer the duel with %(card)s.", params) : t("%(name)s answers the duel with %(card)s.", params);
    case "bottom":
      if (hide) return you ? t("You put a card under the deck.") : t("%(name)s puts a card under the deck.", params);
      return you ? t("You put %(card)s under the deck.", params) : t("%(name)s puts %(card)s under the deck.", params);
    case "put":
      if (hide) return you ? t("You put a card on top of the deck.") : t("%(name)s puts a card on top of the deck.", params);
      return you ? t("You put %(card)s on top of the deck.", params) : t("%(name)s puts %(card)s on top of the deck.", params);
    case "separate":
      if (hide) return you ? t("You separate a card.") : t("%(name)s separates a card.", params);
      return you ? t("You separate %(card)s.", params) : t("%(name)s separates %(card)s.", params);
    case "target":
      return three(N_("You duel %(other)s."), N_("%(name)s duels you."), N_("%(name)s duels %(other)s."));
    case "snake":
      return three(N_("You pick %(other)s to separate a card."), N_("%(name)s picks you to separate a card."),
        N_("%(name)s picks %(other)s to separate a card."));
    case "swap":
      if (n === actor) return you ? t("You pick your own hand to swap.") : t("%(name)s picks their own hand to swap.", params);
      return three(N_("You pick %(other)s's hand to swap."), N_("%(name)s picks your hand to swap."),
        N_("%(name)s picks %(other)s's hand to swap."));
    case "tiger":
      return three(N_("You mark %(other)s for Tiger Style."), N_("%(name)s marks you for Tiger Style."),
        N_("%(name)s marks %(other)s for Tiger Style."));
    case "face":
      if (arg === "up") return you ? t("You play the card face up.") : t("%(name)s plays the card face up.", params);
      return you ? t("You play the card face down.") : t("%(name)s plays the card face down.", params);
    case "reveal":
      if (arg === "yes") return you ? t("You reveal the card.") : t("%(name)s reveals the card.", params);
      return you ? t("You do not reveal.") : t("%(name)s does not reveal.", params);
    case "monkey":
      if (arg === "use") return you ? t("You redraw with Monkey Style.") : t("%(name)s redraws with Monkey Style.", params);
      return you ? t("You keep the hand.") : t("%(name)s keeps the hand.", params);
    case "dragon":
      if (arg === "two") return you ? t("You draw two cards.") : t("%(name)s draws two cards.", params);
      return you ? t("You draw one card.") : t("%(name)s draws one card.", params);
    case "guess":
      return you ? t("You guess %(guess)s.", params) : t("%(name)s guesses %(guess)s.", params);
    case "peek":
      if (arg === "bottom") return you ? t("You put the card under the deck.") : t("%(name)s puts the card under the deck.", params);
      return you ? t("You leave the card on top.") : t("%(name)s leaves the card on top.", params);
    default: return fallback || String(actionId);
  }
}

// ---------------------------------------------------------------------------
// The board model: everything the table shows, as plain data.

// What the others see while a seat decides (one whole message each).
const PHASE_WAIT = {
  card: N_("%(name)s is choosing a card to play."),
  face: N_("%(name)s is deciding face up or face down."),
  target: N_("%(name)s is choosing an opponent to duel."),
  answer: N_("%(name)s is answering the duel."),
  c_disciple: N_("%(name)s is deciding whether to reveal (Disciple)."),
  c_monkey: N_("%(name)s is deciding on Monkey Style's redraw."),
  c_monkey_order: N_("%(name)s is putting cards under the deck (Monkey Style)."),
  dragon_draw: N_("%(name)s is choosing to draw one or two cards (Dragon Style)."),
  u_disciple: N_("%(name)s is deciding whether to reveal (Disciple)."),
  drunk_put: N_("%(name)s is putting cards back on the deck (Drunken Fists)."),
  snake_target: N_("%(name)s is choosing who separates a card (Snake Style)."),
  snake_separate: N_("%(name)s is separating a card (Snake Style)."),
  snake_guess: N_("%(name)s is guessing odd or even (Snake Style)."),
  monkey_a: N_("%(name)s is choosing hands to swap (Monkey Style)."),
  monkey_b: N_("%(name)s is choosing hands to swap (Monkey Style)."),
  tiger_target: N_("%(name)s is choosing whose hand to look at (Tiger Style)."),
  dragon_peek: N_("%(name)s is deciding where the top card goes (Dragon Style)."),
};

/**
 * The engine's prompt for each phase, in the reader's language: the engine
 * (free of Django) words view.prompt in English; the page picks the message
 * by the phase (the node tests hold these to the engine's words).
 */
const PROMPTS = {
  card: N_("choose the card to play"),
  face: N_("play the card face up (discard effect) or face down (duel)"),
  target: N_("choose the opponent to duel"),
  answer: N_("answer the duel with a face-down card"),
  c_disciple: N_("Disciple: reveal the top card to copy its Focus?"),
  c_monkey: N_("Monkey Style: put your hand under the deck and redraw (Focus 1)?"),
  c_monkey_order: N_("Monkey Style: choose the next card to put under the deck"),
  dragon_draw: N_("Dragon Style: draw one card or two?"),
  u_disciple: N_("Disciple: reveal the top card to copy its discard effect?"),
  drunk_put: N_("Drunken Fists: choose a card to put on top of the deck"),
  snake_target: N_("Snake Style: choose the opponent who separates a card"),
  snake_separate: N_("Snake Style: separate one card from your hand"),
  snake_guess: N_("Snake Style: guess whether the separated card is odd or even"),
  monkey_a: N_("Monkey Style: choose the first player whose hand is swapped"),
  monkey_b: N_("Monkey Style: choose the second player whose hand is swapped"),
  tiger_target: N_("Tiger Style: choose the opponent whose hand you look at next turn"),
  dragon_peek: N_("Dragon Style: keep the top card on top or put it under the deck?"),
  over: N_("the game is over"),
};

/**
 * frame: a live `state` frame, or a replay step shaped like one
 *   ({view, seat, seats, legal, status, hands?}).
 * opts: {names, nowMs, readOnly}.
 */
function boardModel(frame, opts) {
  const b = frameBasics(frame, opts);
  opts = b.opts;
  const view = b.view, viewer = b.viewer, ctx = b.ctx, active = b.active;
  const players = view ? view.players : b.platformSeats.length;

  // The game over after a deck-out round: the rulebook's reveal turns every
  // hand still in play face up (the log's "Hands revealed"); the board shows
  // them as they were revealed. Public in the view's round record.
  const lastRound = view && view.phase === "over" && view.rounds && view.rounds.length ?
    view.rounds[view.rounds.length - 1] : null;
  const revealed = lastRound && lastRound.hands ? lastRound.hands : null;

  const seats = [];
  const count = view ? view.seats.length : b.platformSeats.length;
  for (let i = 0; i < count; i++) {
    const vs = view ? view.seats[i] : {};
    const ps = b.platformSeats[i] || {};
    const base = platformSeat(b, i);
    seats.push(Object.assign(base, {
      alive: vs.alive !== false,
      handCount: vs.hand_count || 0,
      prizes: (vs.prizes || []).slice(),
      faceDownPrizes: (vs.face_down_prizes || []).length,
      points: (vs.prizes || []).length + (vs.face_down_prizes || []).length,
      protected: !!vs.protected,
      tigerTarget: vs.tiger_target === undefined ? null : vs.tiger_target,
      tigerTargetName: vs.tiger_target === null || vs.tiger_target === undefined ? null : seatName(ctx, vs.tiger_target),
      isTurn: view ? view.turn === i && active : false,
      markers: view && view.markers ? view.markers[i] : 0,
      placement: ps.placement === undefined ? null : ps.placement,
      hand: base.hand || (revealed && revealed[i] ? revealed[i].slice() : null),
    }));
  }

  const discard = view ? (view.discard || []).slice() : [];
  let table = null;
  if (view && view.duel) {
    const d = view.duel;
    table = {
      kind: "duel",
      attacker: d.attacker,
      defender: d.defender,
      attackerName: seatName(ctx, d.attacker),
      defenderName: d.defender === null || d.defender === undefined ? null : seatName(ctx, d.defender),
      cards: (d.cards || [null, null]).slice(),
      focus: d.focus ? d.focus.slice() : null,
      decided: !!d.decided,
      tie: !!d.tie,
      winner: d.winner === undefined ? null : d.winner,
    };
  } else if (view && view.play) {
    const p = view.play;
    table = {
      kind: "play",
      seat: p.seat,
      seatName: seatName(ctx, p.seat),
      caption: playCaption(ctx, p.seat, p.face === "up"),
      face: p.face,
      card: p.card === undefined ? null : p.card,
      copied: p.copied || null,
      target: p.target === undefined ? null : p.target,
      targetName: p.target === undefined || p.target === null ? null : seatName(ctx, p.target),
      toPutBack: p.to_put_back || null,
      firstSwap: p.first_swap === undefined ? null : p.first_swap,
      firstSwapName: p.first_swap === undefined || p.first_swap === null ? null : seatName(ctx, p.first_swap),
    };
  }

  let sight = null;
  if (view && view.private) {
    if (view.private.peek) {
      sight = {
        card: view.private.peek,
        text: view.private.source === "set_aside"
          ? t("You are looking at %(card)s, the card set aside.", { card: cardName(view.private.peek) })
          : t("You are looking at %(card)s, the top card of the deck.", { card: cardName(view.private.peek) }),
      };
    } else if (view.private.separated) {
      sight = {
        card: view.private.separated,
        text: t("You separated %(card)s.", { card: cardName(view.private.separated) }),
      };
    }
  }

  const turn = turnStatus(b, PHASE_WAIT, "", PROMPTS);

  return Object.assign(modelBase(b, turn), {
    players: players,
    roundsToWin: view ? view.rounds_to_win : null,
    turn: view ? view.turn : null,
    turnName: view ? seatName(ctx, view.turn) : null,
    deckCount: view ? view.deck_count : 0,
    reshuffleAvailable: view ? !!view.reshuffle_available : false,
    discard: discard,
    discardTop: discard.length ? discard[discard.length - 1] : null,
    seats: seats,
    hand: viewer !== null && view && view.hand ? view.hand.slice() : null,
    table: table,
    sight: sight,
    groups: turn.myTurn && !opts.readOnly ? groupLegal(frame.legal || [], ctx) : [],
  });
}

/** The order seats sit around the table as seen by `viewer`: the viewer last. */
function seatingOrder(count, viewer) {
  const order = [];
  const start = viewer === null || viewer === undefined ? 0 : viewer + 1;
  for (let i = 0; i < count; i++) order.push((start + i) % count);
  if (viewer !== null && viewer !== undefined) order.pop();
  return order;
}

// ---------------------------------------------------------------------------
// Results.

/** The results screen as data: placements in order, scores, the seed. */
const RESULTS = {
  winnersText: winnersText,
  reasons: ROUND_REASONS,
  columns: (scores, seat) => ({
    points: seatScore(scores, "points", seat),
    prizeFocus: seatScore(scores, "prize_focus", seat),
    markers: seatScore(scores, "markers", seat),
  }),
};

/** The shared results (common.js) and which score columns this match has. */
function resultModel(frame, opts) {
  const res = commonResultModel(frame, opts, RESULTS);
  res.hasPoints = res.rows.some((row) => row.points !== null);
  res.hasMarkers = res.rows.some((row) => row.markers !== null);
  return res;
}

// ---------------------------------------------------------------------------
// DOM rendering (browser, or the test DOM); h, clear and presenceEl come from common.js.

/** A face-up card; `size` is "lg", "md" or "sm". */
function cardEl(doc, focus, size, attrs) {
  const info = cardInfo(focus);
  if (!info) return cardBackEl(doc, size);
  const tag = attrs && attrs.onclick ? "button" : "div";
  const base = {
    className: info.className + " kcard-" + (size || "md"),
    title: info.name + " (Focus " + info.focus + "): " + info.discard + " / Duel: " + info.combat,
  };
  if (tag === "button") base.type = "button";
  if (tag === "div") { base.role = "img"; base["aria-label"] = info.label; }
  const el = h(doc, tag, Object.assign(base, attrs || {}), [
    h(doc, "span", { className: "kcard-focus", "aria-hidden": "true", text: String(info.focus) }),
    h(doc, "span", { className: "kcard-seal", "aria-hidden": "true", text: String(info.focus) }),
    h(doc, "span", { className: "kcard-name", text: info.name }),
    size === "lg" ? h(doc, "span", { className: "kcard-effect", "aria-hidden": "true", text: info.discard }) : null,
  ]);
  return el;
}

function cardBackEl(doc, size, label) {
  return h(doc, "div", {
    className: "kcard kcard-back kcard-" + (size || "md"),
    role: label ? "img" : null,
    "aria-label": label || null,
    "aria-hidden": label ? null : "true",
  }, [h(doc, "span", { className: "kcard-back-mark" })]);
}

function seatBadges(doc, seat) {
  const badges = [];
  if (seat.isTurn) badges.push(h(doc, "span", { className: "badge seat-badge turn", text: t("Turn") }));
  if (seat.protected) badges.push(h(doc, "span", { className: "badge seat-badge crane", title: t("Protected by Crane Style until their next turn"), text: t("Crane: protected") }));
  if (seat.tigerTargetName) badges.push(h(doc, "span", { className: "badge seat-badge tiger", title: t("Tiger Style: will look at this hand next turn"), text: t("Tiger → %(name)s", { name: seat.tigerTargetName }) }));
  if (!seat.alive) badges.push(h(doc, "span", { className: "badge seat-badge out", text: t("Out") }));
  if (seat.replacedByBot) badges.push(h(doc, "span", { className: "badge seat-badge", text: t("Bot plays on") }));
  else if (seat.forfeited) badges.push(h(doc, "span", { className: "badge seat-badge out", text: t("Forfeited") }));
  if (seat.markers) badges.push(h(doc, "span", { className: "badge seat-badge marker", title: t("Rounds won"), text: "★ " + seat.markers }));
  return badges;
}

function prizesEl(doc, seat) {
  const cards = seat.prizes.map(function (f) { return cardEl(doc, f, "sm"); });
  for (let i = 0; i < seat.faceDownPrizes; i++) cards.push(cardBackEl(doc, "sm", "face-down prize"));
  return h(doc, "div", { className: "prizes" }, [
    h(doc, "span", { className: "pile-label", text: t("Prizes · %(points)s", { points: seat.points }) }),
    h(doc, "div", { className: "prize-row" }, cards.length ? cards : [h(doc, "span", { className: "muted small", text: "none yet" })]),
  ]);
}

function handEl(doc, seat, size) {
  if (seat.hand) {
    return h(doc, "div", {
      className: "hand hand-open", title: t("Revealed at the end of the round"), role: "group",
      "aria-label": seat.name + "'s hand: " + cardList(seat.hand),
    }, seat.hand.map(function (f) { return cardEl(doc, f, size || "sm"); }));
  }
  const backs = [];
  for (let i = 0; i < Math.min(seat.handCount, 8); i++) backs.push(cardBackEl(doc, "sm"));
  return h(doc, "div", { className: "hand hand-closed", role: "img", "aria-label": tn("%(n)s card in hand", "%(n)s cards in hand", seat.handCount, { n: seat.handCount }) },
    backs.concat([h(doc, "span", { className: "hand-count", text: "×" + seat.handCount })]));
}

function seatEl(doc, seat, opts) {
  const classes = ["seat"];
  if (seat.isActor) classes.push("is-actor");
  if (seat.isTurn) classes.push("is-turn");
  if (!seat.alive || seat.forfeited) classes.push("is-out");
  if (seat.isYou) classes.push("is-you");
  if (seat.protected) classes.push("is-protected");
  if (opts && opts.targeted) classes.push("is-targeted");
  const clock = seat.clockText && opts && opts.clocks ? h(doc, "span", {
    className: "clock" + (seat.clockRunning ? " running" : "") + (seat.clockLow ? " low" : ""),
    "data-seat": seat.seat, title: seat.clockRunning ? t("Time left for this decision") : t("Time left"),
    text: seat.clockText,
  }) : null;
  return h(doc, "section", { className: classes.join(" "), "aria-label": t("Seat %(n)s: %(name)s", { n: seat.seat + 1, name: seat.name }), "data-seat": seat.seat }, [
    h(doc, "header", { className: "seat-head" }, [
      h(doc, "span", { className: "seat-name", text: seat.isYou && !(opts && opts.noYou) ? t("%(name)s (you)", { name: seat.name }) : seat.name }),
      presenceEl(doc, seat),
      clock,
    ]),
    h(doc, "div", { className: "seat-badges" }, seatBadges(doc, seat)),
    opts && opts.noHand ? null : handEl(doc, seat),
    prizesEl(doc, seat),
  ]);
}

/** Who is playing the card on the table, in the reader's words. */
function playCaption(ctx, seat, faceUp) {
  const params = { name: nameOf(ctx, seat) };
  if (faceUp) return isYou(ctx, seat) ? t("You played face up") : t("%(name)s played face up", params);
  return isYou(ctx, seat) ? t("You are playing") : t("%(name)s is playing", params);
}

/** A seat named on the table: "You" for the reader, else the name. */
function tableName(ctx, seat) {
  return isYou(ctx, seat) ? t("You") : nameOf(ctx, seat);
}

function tableEl(doc, model) {
  const tb = model.table;
  const ctx = { names: model.names, viewer: model.viewer, useYou: model.useYou };
  if (!tb) {
    let idle = "";
    if (model.status === "aborted") idle = t("Match called off");
    else if (model.status === "finished" || model.phase === "over") idle = t("Game over");
    else if (model.turnName) idle = isYou(ctx, model.turn) ? t("Your turn") : t("%(name)s's turn", { name: nameOf(ctx, model.turn) });
    return h(doc, "div", { className: "table-play empty" }, [h(doc, "span", { className: "muted", text: idle })]);
  }
  if (tb.kind === "duel") {
    const side = function (idx, name) {
      const card = tb.cards[idx];
      const focus = tb.focus ? tb.focus[idx] : null;
      const changed = focus !== null && card !== null && focus !== card;
      const won = tb.decided && !tb.tie && tb.winner === (idx === 0 ? tb.attacker : tb.defender);
      return h(doc, "div", { className: "duel-side" + (won ? " won" : "") }, [
        h(doc, "span", { className: "duel-name", text: name || "…" }),
        card ? cardEl(doc, card, "md") : cardBackEl(doc, "md", t("face-down card")),
        changed ? h(doc, "span", { className: "badge", text: t("Focus %(focus)s", { focus: focus }) }) : null,
      ]);
    };
    return h(doc, "div", { className: "table-play duel", role: "group", "aria-label": t("Duel") }, [
      side(0, tableName(ctx, tb.attacker)),
      h(doc, "span", { className: "duel-vs", "aria-hidden": "true", text: "VS" }),
      side(1, tb.defender === null || tb.defender === undefined ? t("choosing…") : tableName(ctx, tb.defender)),
    ]);
  }
  const extra = [];
  if (tb.copied) extra.push(t("copying %(card)s", { card: cardName(tb.copied) }));
  if (tb.toPutBack) extra.push(tn("%(n)s card to put back", "%(n)s cards to put back", tb.toPutBack, { n: tb.toPutBack }));
  if (tb.targetName) extra.push(isYou(ctx, tb.target) ? t("target: you") : t("target: %(name)s", { name: nameOf(ctx, tb.target) }));
  if (tb.firstSwapName) extra.push(isYou(ctx, tb.firstSwap) ? t("swapping your hand with…") : t("swapping %(name)s's hand with…", { name: nameOf(ctx, tb.firstSwap) }));
  return h(doc, "div", { className: "table-play single" }, [
    h(doc, "span", { className: "duel-name", text: tb.caption }),
    tb.card ? cardEl(doc, tb.card, "md") : cardBackEl(doc, "md", t("a card, not yet revealed")),
    extra.length ? h(doc, "span", { className: "small muted", text: extra.join(" · ") }) : null,
  ]);
}

function centerEl(doc, model) {
  const discardList = model.discard.length ? h(doc, "details", { className: "discard-all" }, [
    h(doc, "summary", { text: t("All %(count)s", { count: model.discard.length }) }),
    h(doc, "div", { className: "discard-list" }, model.discard.slice().reverse().map(function (f) { return cardEl(doc, f, "sm"); })),
  ]) : null;
  return h(doc, "div", { className: "board-center-inner" }, [
    h(doc, "div", { className: "pile deck" }, [
      h(doc, "span", { className: "pile-label", text: t("Deck") }),
      model.deckCount ? h(doc, "div", { className: "stack" }, [cardBackEl(doc, "md", tn("%(n)s card in the deck", "%(n)s cards in the deck", model.deckCount, { n: model.deckCount }))]) :
        emptyPileEl(doc),
      h(doc, "span", { className: "pile-count", text: tn("%(n)s card", "%(n)s cards", model.deckCount, { n: model.deckCount }) }),
    ]),
    tableEl(doc, model),
    h(doc, "div", { className: "pile discard" }, [
      h(doc, "span", { className: "pile-label", text: t("Discard") }),
      model.discardTop ? cardEl(doc, model.discardTop, "md") : emptyPileEl(doc),
      h(doc, "span", { className: "pile-count", text: tn("%(n)s card", "%(n)s cards", model.discard.length, { n: model.discard.length }) }),
      discardList,
    ]),
  ]);
}

/** Action controls; `onAct(action)` is called with the chosen legal action. */
function actionsEl(doc, model, onAct, disabled) {
  const wrap = h(doc, "div", { className: "actions" });
  model.groups.forEach(function (group) {
    let items;
    if (group.kind === "cards") {
      items = group.actions.map(function (action) {
        return cardEl(doc, action.card, "md", {
          onclick: function () { onAct(action); },
          "aria-label": action.text,
          className: cardInfo(action.card).className + " kcard-md kcard-choice",
          disabled: disabled,
        });
      });
    } else {
      items = group.actions.map(function (action) {
        return h(doc, "button", {
          type: "button",
          className: group.kind === "seats" ? "seat-choice" : "choice",
          disabled: disabled,
          onclick: function () { onAct(action); },
          text: action.text,
        });
      });
    }
    wrap.appendChild(actionGroupEl(doc, group, items));
  });
  return wrap;
}

/** The turn being built: the choices of its step and a way back. */
function builderEl(doc, builder, opts) {
  const disabled = !!opts.pending;
  let items;
  if (builder.step === "card") {
    items = builder.choices.map(function (c) {
      return cardEl(doc, c.card, "md", {
        onclick: function () { opts.onStage(c.stage); },
        "aria-label": t("Choose %(choice)s", { choice: c.text }),
        className: cardInfo(c.card).className + " kcard-md kcard-choice",
        disabled: disabled,
      });
    });
  } else {
    items = builder.choices.map(function (c) {
      return h(doc, "button", {
        type: "button",
        className: builder.step === "target" ? "seat-choice" : "choice",
        "data-choice": c.id,
        disabled: disabled,
        onclick: function () { if (c.plan) opts.onPlan(c.plan); else opts.onStage(c.stage); },
        text: c.text,
      });
    });
  }
  const children = [
    h(doc, "legend", { text: builder.title }),
    h(doc, "div", { className: "action-items" }, items),
  ];
  if (builder.back) {
    children.push(h(doc, "p", { className: "builder-back" }, [h(doc, "button", {
      type: "button", className: "secondary small", "data-choice": "back", disabled: disabled,
      onclick: function () { opts.onStage(builder.back); },
      text: builder.step === "target" ? t("Back: face up or down") : t("Back: choose another card"),
    })]));
    children.push(h(doc, "p", { className: "small muted", text: t("Nothing is sent until you choose how to play it.") }));
  }
  return h(doc, "div", { className: "actions" }, [
    h(doc, "fieldset", { className: "action-group action-builder action-" + builder.step }, children),
  ]);
}

/**
 * Draw the table into `root` (a .kfa-board element with data-role slots).
 * opts: {onAct, pending}. Returns the model drawn.
 */
function renderBoard(root, model, opts) {
  opts = opts || {};
  const doc = root.ownerDocument;
  // With onPlan/onStage the page builds the whole turn before sending it.
  const builder = opts.onAct && opts.onPlan && opts.onStage ? turnBuilder(model, opts.stage || null) : null;
  const slot = function (name) { return root.querySelector('[data-role="' + name + '"]'); };
  const targets = {};
  if (model.table && model.table.kind === "duel" && model.table.defender !== null) targets[model.table.defender] = true;

  const opponents = slot("opponents");
  if (opponents) {
    clear(opponents);
    seatingOrder(model.seats.length, model.viewer).forEach(function (i) {
      opponents.appendChild(seatEl(doc, model.seats[i], { targeted: targets[i], clocks: model.status === "active", noYou: !model.useYou }));
    });
  }
  const center = slot("center");
  if (center) clear(center).appendChild(centerEl(doc, model));

  const you = slot("you");
  if (you) {
    clear(you);
    you.hidden = model.viewer === null;
    if (model.viewer !== null && model.seats[model.viewer]) {
      const me = model.seats[model.viewer];
      // While a card from the hand is to be chosen, the hand cards are the buttons.
      const cardGroup = opts.onAct ? model.groups.filter(function (g) { return g.kind === "cards"; })[0] : null;
      const stagedFocus = builder && builder.card !== null ? builder.card : null;
      const hand = model.hand || [];
      // A hand may hold two copies of a card: both stand for the same action,
      // and the copy clicked is the one shown as chosen (the stage's `copy`,
      // its place in the hand; the first copy when the stage names none).
      const stagedAt = stagedFocus === null ? -1 :
        opts.stage && hand[opts.stage.copy] === stagedFocus ? opts.stage.copy : hand.indexOf(stagedFocus);
      const handCards = hand.map(function (f, at) {
        const action = cardGroup ? cardGroup.actions.filter(function (a) { return a.card === f; })[0] : null;
        if (!action) return cardEl(doc, f, "lg");
        const isStaged = at === stagedAt;
        return cardEl(doc, f, "lg", {
          onclick: function () {
            if (!builder) opts.onAct(action);
            else if (isStaged) opts.onStage({});  // take the choice back
            // The other copy of the chosen card: the same choice, that copy shown.
            else if (f === stagedFocus) opts.onStage(Object.assign({}, opts.stage, { copy: at }));
            else opts.onStage({ card: action.id, copy: at });
          },
          "aria-label": builder ? (isStaged ? action.text + " (chosen; click to take it back)" : "Choose " + action.text) : action.text,
          "aria-pressed": builder ? String(isStaged) : null,
          className: cardInfo(f).className + " kcard-lg kcard-choice" + (isStaged ? " kcard-staged" : ""),
          disabled: !!opts.pending,
        });
      });
      you.appendChild(seatEl(doc, me, { noHand: true, targeted: targets[me.seat], clocks: model.status === "active", noYou: !model.useYou }));
      you.appendChild(h(doc, "div", { className: "my-hand", role: "group", "aria-label": t("Your hand") }, handCards.length ? handCards :
        [h(doc, "span", { className: "muted", text: me.alive ? t("Your hand is empty.") : t("You are out of this round.") })]));
    }
  }

  const sight = slot("sight");
  if (sight) {
    clear(sight);
    sight.hidden = !model.sight;
    if (model.sight) {
      sight.appendChild(cardEl(doc, model.sight.card, "sm"));
      sight.appendChild(h(doc, "span", { text: model.sight.text }));
    }
  }
  let controls = null;
  if (builder) controls = builderEl(doc, builder, opts);
  else if (model.groups.length && opts.onAct) controls = actionsEl(doc, model, opts.onAct, !!opts.pending);
  renderPanel(root, model, opts, controls,
    model.round ? roundLine(model) : "");
  return model;
}

/** The results panel for a finished or aborted match. */
function resultsEl(doc, res, opts) {
  const columns = [];
  if (res.hasPoints) columns.push({ title: t("Points"), value: (row) => row.points }, { title: t("Prize Focus"), value: (row) => row.prizeFocus });
  if (res.hasMarkers) columns.push({ title: t("Rounds won"), value: (row) => row.markers });
  const last = res.gameReason ? t("Last round: %(reason)s.", { reason: res.gameReason }) : "";
  const reason = [res.endReason, last].join(" ").trim();
  return resultsPanelEl(doc, res, reason, resultsTableEl(doc, res, columns), opts || {});
}

/** Fill a container with the reference table of the eight cards. */
function renderCardReference(container, players) {
  const doc = container.ownerDocument;
  clear(container);
  container.appendChild(h(doc, "table", { className: "card-ref" }, [
    h(doc, "thead", {}, [h(doc, "tr", {}, [
      h(doc, "th", { text: t("Card") }), h(doc, "th", { className: "num", text: t("Copies") }),
      h(doc, "th", { text: t("Face up (discard effect)") }), h(doc, "th", { text: t("Face down (combat effect)") }),
    ])]),
    h(doc, "tbody", {}, cardTable(players).map(function (c) {
      return h(doc, "tr", {}, [
        h(doc, "td", { className: "card-ref-card" }, [cardEl(doc, c.focus, "sm"), h(doc, "strong", { text: c.name })]),
        h(doc, "td", { className: "num", text: String(c.count) }),
        h(doc, "td", { text: c.discard }),
        h(doc, "td", { text: c.combat }),
      ]);
    })),
  ]));
}

/** The panel's round: its number, and how many round wins end the game. */
function roundLine(model) {
  const params = { number: model.round, n: model.roundsToWin };
  return model.roundsToWin > 1 ? tn("Round %(number)s · first to %(n)s round win", "Round %(number)s · first to %(n)s round wins", model.roundsToWin, params)
    : t("Round %(number)s", params);
}

/** The replay's first log line: what the deal does (the same at every size). */
function dealText() {
  return t("The cards are dealt: two cards to each player, one card set aside unseen.");
}

/** The table in words for the screen-reader mode: one line per fact. */
function describeBoard(model) {
  // Each seat's facts are short list items, each its own message.
  const lines = describeSeats(model, function (s) {
    const points = tn("%(n)s prize point", "%(n)s prize points", s.points, { n: s.points });
    return [
      s.alive ? null : t("out of this round"),
      s.hand ? t("holds %(cards)s", { cards: cardList(s.hand) }) : tn("%(n)s card in hand", "%(n)s cards in hand", s.handCount, { n: s.handCount }),
      s.prizes.length ? t("%(points)s (face up: %(cards)s)", { points: points, cards: cardList(s.prizes) }) : points,
      s.markers ? tn("%(n)s round won", "%(n)s rounds won", s.markers, { n: s.markers }) : null,
      s.protected ? t("protected by Crane Style") : null,
      s.tigerTargetName ? t("Tiger Style against %(name)s", { name: s.tigerTargetName }) : null,
    ];
  });
  lines.push(tn("Deck: %(n)s card.", "Deck: %(n)s cards.", model.deckCount, { n: model.deckCount }) + " " + (model.discardTop
    ? tn("Discard pile: %(n)s card, %(card)s on top.", "Discard pile: %(n)s cards, %(card)s on top.", model.discard.length,
      { n: model.discard.length, card: cardName(model.discardTop) })
    : t("Discard pile: empty.")));
  const tb = model.table;
  if (tb && tb.kind === "play") {
    const parts = [tb.caption];
    if (tb.card) parts.push(cardName(tb.card));
    if (tb.targetName) parts.push(t("against %(name)s", { name: tb.targetName }));
    lines.push(t("On the table: %(what)s.", { what: parts.join(", ") }));
  } else if (tb && tb.kind === "duel") {
    const side = function (card) { return card ? cardName(card) : t("a face-down card"); };
    const params = {
      name: tb.attackerName, card: side(tb.cards[0]), other: tb.defenderName || t("nobody yet"), other_card: side(tb.cards[1]),
      winner: tb.decided && !tb.tie ? nameOf({ names: model.names }, tb.winner) : "",
    };
    const ctx = { names: model.names, viewer: model.viewer, useYou: model.useYou };
    if (!tb.decided) lines.push(t("Duel: %(name)s (%(card)s) against %(other)s (%(other_card)s).", params));
    else if (tb.tie) lines.push(t("Duel: %(name)s (%(card)s) against %(other)s (%(other_card)s): a tie.", params));
    else if (isYou(ctx, tb.winner)) lines.push(t("Duel: %(name)s (%(card)s) against %(other)s (%(other_card)s): you won.", params));
    else lines.push(t("Duel: %(name)s (%(card)s) against %(other)s (%(other_card)s): %(winner)s won.", params));
  }
  if (model.sight) lines.push(model.sight.text);
  if (model.hand) lines.push(viewerLine(model, N_("Your hand: %(cards)s."), N_("%(name)s's hand: %(cards)s."), { cards: cardList(model.hand) }));
  return lines;
}

export {
  GROUP_TITLES,
  actionText, LABELS_OWN_WORDS, PRIVATE, PRIVATE_THIRD,
  PROMPTS, PHASE_WAIT,
  describeBoard,
  CARDS,
  dealText,
  turnBuilder,
  autoAction,
  EVENT_TYPES,
  cardInfo,
  cardTable,
  cardName,
  cardList,
  formatEvent,
  formatSteps,
  groupLegal,
  describeAction,
  boardModel,
  seatingOrder,
  resultModel,
  cardEl,
  cardBackEl,
  renderBoard,
  renderCardReference,
  resultsEl,
};
