/*
 * Kung Fu (2013) board: pure functions from a server frame (or a replay step)
 * to plain data, plus small DOM renderers for that data.
 *
 * Used by the live match page (live-match.js), the replay viewer (replay.js)
 * and the node unit tests (tests/frontend/kungfu2013.test.js). The cards come
 * in the frames themselves (every card the viewer may see is a full card dict
 * from the engine); the whole list, for the reference under the table, is the
 * generated data/kungfu2013-cards.js (from the game's cards.py). What every board shares
 * (names, log, clocks, seed check, side panel, results, DOM helpers) is
 * imported from boards/common.js.
 */

import {
  actionGroupEl, capitalize, cardListText, joinClauses, clear, describeSeats, isYou, nameOf, viewerLine, emptyPileEl, eventFormatter,
  frameBasics, h, modelBase, platformSeat, presenceEl,
  renderPanel, resultModel as commonResultModel, resultsPanelEl, resultsTableEl,
  seatName, seatScore, stepsFormatter, turnStatus, winnersText,
} from "./common.js";
import DATA from "./data/kungfu2013-cards.js";
import { t, tn } from "../i18n.js";

/** A word translated where it is shown (t() over a variable), marked here. */
const N_ = (text) => text;

const EFFECT_NAMES = {
  nullify: t("Block discarded"),
  initiative: t("Initiative changes"),
  draw3: t("Draw three"),
  no_block: t("No block next round"),
  discard2: t("Discard two from hand"),
  break_coin: t("Break a coin card"),
  heal2: t("Gain two life"),
};

/**
 * The reference under the table: each effect in a whole sentence, the card
 * data's text (held to it by a node test) with the rule notes that go with it.
 */
const EFFECT_HELP = {
  nullify: N_("The opponent's block is discarded without taking effect (they must still block)."),
  initiative: N_("The initiative changes after the outcome of the battle (once a battle, however many cards say so; the new defender draws three)."),
  draw3: N_("Draw three cards, each from a deck of your choice."),
  no_block: N_("Your opponent cannot play a block next round."),
  discard2: N_("Two random cards from your opponent's hand are discarded."),
  break_coin: N_("Discard one card with power coins in front of your opponent."),
  heal2: N_("Gain two life tokens (at full life too)."),
};

// ---------------------------------------------------------------------------
// Cards (engine card dicts: code, name, colour, value, rise, coins, effect,
// cost, on_hit, text).

function valueText(card) {
  return card.rise === null || card.rise === undefined ? String(card.value) : card.value + "→" + card.rise;
}

/**
 * What activating a card does, one message per effect code: word for word the
 * English of the card data (`DATA.effects`, the engine's EFFECTS), which a node
 * test holds them to, so a new effect kind fails there until it has a message.
 */
const EFFECT_TEXTS = {
  nullify: N_("the opponent's block is discarded without taking effect"),
  initiative: N_("the initiative changes after the outcome of the battle"),
  draw3: N_("draw three cards, each from a deck of your choice"),
  no_block: N_("your opponent cannot play a block next round"),
  discard2: N_("two random cards from your opponent's hand are discarded"),
  break_coin: N_("discard one card with power coins in front of your opponent"),
  heal2: N_("gain two life tokens"),
};

/** One effect's words: the board's message (the engine's English for an unknown code). */
function effectWords(card) {
  const message = EFFECT_TEXTS[card.effect];
  const words = message ? t(message) : card.text || DATA.effects[card.effect] || String(card.effect);
  return card.on_hit ? t("if the opponent loses life: %(effect)s", { effect: words }) : words;
}

/**
 * The card's text in the reader's language, from its codes and numbers: the
 * value rise and effect activated together (with their coin cost), then the
 * power coins. "" for a plain card.
 */
function effectText(card) {
  const parts = [];
  if (card.rise !== null && card.rise !== undefined) parts.push(t("value rises to %(value)s", { value: card.rise }));
  if (card.effect) parts.push(effectWords(card));
  const effects = parts.join(" + ");
  const out = [];
  if (parts.length) out.push(tn("%(effects)s (cost %(n)s coin)", "%(effects)s (cost %(n)s coins)", card.cost, { effects: effects, n: card.cost }));
  if (card.coins) out.push(tn("%(n)s power coin", "%(n)s power coins", card.coins, { n: card.coins }));
  return joinClauses(out);
}

/** A card's title (tooltip and accessible name): name, kind and value, then its text. */
function cardTitle(card) {
  const params = { name: card.name, value: valueText(card) };
  const head = card.colour === "red" ? t("%(name)s (attack %(value)s)", params) : t("%(name)s (block %(value)s)", params);
  const effect = effectText(card);
  return effect ? t("%(card)s: %(effect)s", { card: head, effect: effect }) : head;
}

function cardName(card) {
  if (!card) return t("a card");
  return card.name + " (" + valueText(card) + ")";
}

function cardList(cards) {
  return cardListText(cards, cardName);
}

/** A side of the battle's title: who, and what they put down (the reader's own words for their side). */
function sideTitle(ctx, seat, side, faceDown, discarded) {
  const you = isYou(ctx, seat);
  const params = { name: nameOf(ctx, seat) };
  if (side === "attack") {
    if (faceDown) return you ? t("You · attack (face down)") : t("%(name)s · attack (face down)", params);
    return you ? t("You · attack") : t("%(name)s · attack", params);
  }
  if (discarded) return you ? t("You · block (discarded)") : t("%(name)s · block (discarded)", params);
  return you ? t("You · block") : t("%(name)s · block", params);
}

// ---------------------------------------------------------------------------
// Reasons and winners (seatName, possessive, ... come from common.js).

const GAME_REASONS = {
  knockout: t("the last life token was lost"),
  round_limit: t("the round limit was reached: more life wins"),
  no_attack_possible: t("nobody can ever attack again: more life wins"),
};

// ---------------------------------------------------------------------------
// Events -> log sentences: one whole message per person ("You draw" /
// "%(name)s draws"), so a translation words each sentence as a whole.

/** Two seats: both placed first is a draw. */
function outcomeText(ctx, winners) {
  return winners && winners.length > 1 ? t("a draw") : winnersText(ctx, winners);
}

/** A sentence about one seat: the reader's own wording, or the seat's name's. */
function said(ctx, seat, you, other, params) {
  return isYou(ctx, seat) ? t(you, params) : t(other, Object.assign({ name: nameOf(ctx, seat) }, params));
}

const PUBLIC = {
  round: function (p, ctx) {
    return said(ctx, p.initiative, N_("Round %(round)s: You have the initiative."), N_("Round %(round)s: %(name)s has the initiative."), { round: p.round });
  },
  initiative: function (p, ctx) {
    const params = { name: nameOf(ctx, p.from), other: nameOf(ctx, p.to) };
    const from = isYou(ctx, p.from), to = isYou(ctx, p.to);
    let text;
    if (p.reason === "pass") {
      text = from ? t("You pass the initiative to %(other)s.", params)
        : to ? t("%(name)s passes the initiative to you.", params) : t("%(name)s passes the initiative to %(other)s.", params);
    } else if (p.reason === "no_attack_card") {
      text = from ? t("You hold no attack card: the initiative goes to %(other)s.", params)
        : to ? t("%(name)s holds no attack card: the initiative goes to you.", params)
          : t("%(name)s holds no attack card: the initiative goes to %(other)s.", params);
    } else if (p.reason === "defence_won") {
      text = said(ctx, p.to, N_("You take the initiative."), N_("%(name)s takes the initiative."));
    } else {
      text = to ? t("A card effect passes the initiative to you.") : t("A card effect passes the initiative to %(other)s.", params);
    }
    return text + " " + said(ctx, p.from, N_("You draw three cards."), N_("%(name)s draws three cards."));
  },
  keep_initiative: function (p, ctx) { return said(ctx, p.seat, N_("You keep the initiative."), N_("%(name)s keeps the initiative.")); },
  draw: function (p, ctx) {
    return p.deck === "red"
      ? said(ctx, p.seat, N_("You draw a card from the red deck."), N_("%(name)s draws a card from the red deck."))
      : said(ctx, p.seat, N_("You draw a card from the blue deck."), N_("%(name)s draws a card from the blue deck."));
  },
  reshuffle: function (p) {
    return p.deck === "red"
      ? tn("The red discard pile is shuffled into a new deck of %(n)s card.", "The red discard pile is shuffled into a new deck of %(n)s cards.", p.cards, { n: p.cards })
      : tn("The blue discard pile is shuffled into a new deck of %(n)s card.", "The blue discard pile is shuffled into a new deck of %(n)s cards.", p.cards, { n: p.cards });
  },
  attack: function (p, ctx) {
    return p.face === "up"
      ? said(ctx, p.seat, N_("You attack with %(card)s face up."), N_("%(name)s attacks with %(card)s face up."), { card: cardName(p.card) })
      : said(ctx, p.seat, N_("You attack face down; the defender draws a card."), N_("%(name)s attacks face down; the defender draws a card."));
  },
  block: function (p, ctx) { return said(ctx, p.seat, N_("You block with %(card)s."), N_("%(name)s blocks with %(card)s."), { card: cardName(p.card) }); },
  no_block_played: function (p, ctx) {
    return p.reason === "no_block_effect"
      ? said(ctx, p.seat, N_("You play no block (not allowed this round): defence 0."), N_("%(name)s plays no block (not allowed this round): defence 0."))
      : said(ctx, p.seat, N_("You play no block (no block card): defence 0."), N_("%(name)s plays no block (no block card): defence 0."));
  },
  reveal: function (p) { return t("The face-down attack is revealed: %(card)s.", { card: cardName(p.card) }); },
  activate: function (p, ctx) { return said(ctx, p.seat, N_("You activate %(card)s."), N_("%(name)s activates %(card)s."), { card: cardName(p.card) }); },
  effect_skipped: function (p, ctx) {
    return said(ctx, p.seat, N_("You do not activate the special effect."), N_("%(name)s does not activate the special effect."));
  },
  pay: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), card: p.card.name, n: p.coins };
    return isYou(ctx, p.seat)
      ? tn("You pay with %(card)s (%(n)s coin).", "You pay with %(card)s (%(n)s coins).", p.coins, params)
      : tn("%(name)s pays with %(card)s (%(n)s coin).", "%(name)s pays with %(card)s (%(n)s coins).", p.coins, params);
  },
  heal: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), n: p.gain, life: p.life };
    return isYou(ctx, p.seat)
      ? tn("You gain %(n)s life (now %(life)s).", "You gain %(n)s life (now %(life)s).", p.gain, params)
      : tn("%(name)s gains %(n)s life (now %(life)s).", "%(name)s gains %(n)s life (now %(life)s).", p.gain, params);
  },
  hand_discard: function (p, ctx) {
    return said(ctx, p.seat, N_("Your cards discarded at random: %(cards)s."), N_("%(name)s's cards discarded at random: %(cards)s."), { cards: cardList(p.cards) });
  },
  coin_card_discarded: function (p, ctx) {
    return said(ctx, p.seat, N_("Your coin card %(card)s is discarded."), N_("%(name)s's coin card %(card)s is discarded."), { card: p.card.name });
  },
  effect_ignored: function () { return t("The effect has nothing to act on."); },
  no_block: function (p, ctx) { return said(ctx, p.seat, N_("You cannot block in round %(round)s."), N_("%(name)s cannot block in round %(round)s."), { round: p.round }); },
  block_discarded: function (p, ctx) {
    return said(ctx, p.seat, N_("Your block %(card)s is discarded without effect."), N_("%(name)s's block %(card)s is discarded without effect."), { card: p.card.name });
  },
  on_hit: function (p) { return t("%(card)s hit: its effect happens.", { card: cardName(p.card) }); },
  outcome: function (p) {
    const params = { attack: p.attack, defence: p.defence };
    if (p.winner === null || p.winner === undefined) return t("Equal values (%(attack)s against %(defence)s): no effect.", params);
    if (p.damage !== undefined) return t("The attack wins (%(attack)s against %(defence)s).", params);
    return t("The defence wins (%(attack)s against %(defence)s).", params);
  },
  damage: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), n: p.amount, life: p.life };
    return isYou(ctx, p.seat)
      ? tn("You lose %(n)s life (%(life)s left).", "You lose %(n)s life (%(life)s left).", p.amount, params)
      : tn("%(name)s loses %(n)s life (%(life)s left).", "%(name)s loses %(n)s life (%(life)s left).", p.amount, params);
  },
  reward: function (p, ctx) {
    return p.choice === "draw"
      ? said(ctx, p.seat, N_("You choose to draw the difference."), N_("%(name)s chooses to draw the difference."))
      : said(ctx, p.seat, N_("You choose to take the initiative."), N_("%(name)s chooses to take the initiative."));
  },
  cleanup: function (p, ctx) {
    const kept = (p.to_front || []).map(function (x) {
      return said(ctx, x[0], N_("%(card)s stays in front of you."), N_("%(card)s stays in front of %(name)s."), { card: x[1].name });
    });
    return kept.length ? kept.join(" ") : t("The played cards are discarded.");
  },
  game_over: function (p, ctx) {
    return t("Game over: %(winners)s (%(reason)s).", { winners: outcomeText(ctx, p.winners), reason: GAME_REASONS[p.reason] || p.reason });
  },
};

const PRIVATE = {
  draw: function (s) { return t("You drew %(card)s.", { card: cardName(s.card) }); },
  attack: function (s) { return t("Your face-down attack is %(card)s.", { card: cardName(s.card) }); },
};

// What a seat alone saw, in the third person, for a replay that names every
// seat: messages of their own (docs/i18n.md), never the reader's sentence reworded.
const PRIVATE_THIRD = {
  draw: function (s, p, ctx, owner) { return t("%(name)s drew %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  attack: function (s, p, ctx, owner) { return t("%(name)s's face-down attack is %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
};

const EVENT_TYPES = Object.keys(PUBLIC).sort();

const formatEvent = eventFormatter(PUBLIC, PRIVATE, null, PRIVATE_THIRD);
const formatSteps = stepsFormatter(formatEvent);

// ---------------------------------------------------------------------------
// Decisions: cards from the hand (attack, block), coin cards (pay, target),
// and choices of two (initiative, draw, face, effect, reward).

const CARD_TYPES = { attack: "hand", block: "hand", pay: "front", target: "front" };
const GROUP_TITLES = {
  attack: t("Choose your attack card"),
  block: t("Choose your block card (you must block)"),
  pay: t("Pay with which coin card in front of you?"),
  target: t("Discard which of your opponent's coin cards?"),
  initiative: t("Keep the initiative or pass it?"),
  draw: t("Draw from which deck?"),
  face: t("Face up or face down?"),
  effect: t("Activate the special effect?"),
  reward: t("You won the defence: your reward"),
};

/*
 * The engine's action labels in the reader's language. The engine words
 * action.label in English (it knows no Django; bots and the API read it); the
 * board words every label it shows from the action's type and parameters, one
 * whole message each (card names stay English): the two-way choices by action
 * id, the cards by type. The node test (tests/frontend/log-languages.test.js)
 * holds every kind of label the engine makes to a message here, word for word
 * in English.
 */
const CHOICE_LABELS = {
  "initiative:keep": N_("Keep the initiative and attack"),
  "initiative:pass": N_("Pass the initiative (you draw three cards)"),
  "draw:red": N_("Draw from the red deck"),
  "draw:blue": N_("Draw from the blue deck"),
  "face:up": N_("Play it face up"),
  "face:down": N_("Play it face down (the defender draws one card)"),
  "effect:skip": N_("Do not activate the special effect"),
  "effect:use": N_("Activate the special effect (pay its coins)"),
  "reward:draw": N_("Draw as many cards as the difference"),
  "reward:initiative": N_("Take the initiative (your opponent draws three)"),
};

const CARD_BY_CODE = {};
DATA.cards.forEach(function (c) { CARD_BY_CODE[c.code] = c; });

/** An engine action's words for its button, in the reader's language (ctx unused: no seat is named). */
function actionText(action) {
  if (CHOICE_LABELS[action.id]) return t(CHOICE_LABELS[action.id]);
  const type = action.type || String(action.id).split(":")[0];
  const card = CARD_BY_CODE[action.card] || null;
  const coins = card ? card.coins : 0;
  const params = { card: card ? card.name : t("a card"), n: coins };
  switch (type) {
    case "attack": return t("Attack with %(card)s", { card: cardName(card) });
    case "block": return t("Block with %(card)s", { card: cardName(card) });
    case "pay": return tn("Pay with %(card)s (%(n)s coin)", "Pay with %(card)s (%(n)s coins)", coins, params);
    case "target": return tn("Discard the opponent's %(card)s (%(n)s coin)", "Discard the opponent's %(card)s (%(n)s coins)", coins, params);
    default: return action.label || String(action.id);
  }
}

function groupLegal(legal, cardsByCode) {
  const groups = [];
  const byType = {};
  (legal || []).forEach(function (action) {
    const type = action.type || String(action.id).split(":")[0];
    const kind = CARD_TYPES[type] ? "cards" : "choice";
    let group = byType[type];
    if (!group) {
      group = byType[type] = { kind: kind, type: type, title: GROUP_TITLES[type] || t("Choose"), actions: [] };
      groups.push(group);
    }
    group.actions.push(Object.assign({}, action, {
      text: actionText(action),
      cardInfo: action.card && cardsByCode ? cardsByCode[action.card] || null : null,
    }));
  });
  return groups;
}

function autoAction() {
  return null; // every decision of this game is a real choice
}

/** A card's name from its code ("r12"), as the replay's step labels say it. */
function codeName(code) {
  const card = DATA.cards.find(function (c) { return c.code === code; });
  return card ? cardName(card) : t("a card");
}

function describeAction(actionId, actor, ctx, fallback) {
  if (!actionId) return fallback || "";
  const parts = String(actionId).split(":");
  const kind = parts[0], arg = parts[1];
  const say = function (you, other, params) { return said(ctx, actor, you, other, params); };
  switch (kind) {
    case "initiative":
      return arg === "keep" ? say(N_("You keep the initiative."), N_("%(name)s keeps the initiative."))
        : say(N_("You pass the initiative."), N_("%(name)s passes the initiative."));
    case "draw":
      return arg === "red" ? say(N_("You draw from the red deck."), N_("%(name)s draws from the red deck."))
        : say(N_("You draw from the blue deck."), N_("%(name)s draws from the blue deck."));
    case "attack":
      return ctx.hideCards ? say(N_("You choose an attack card."), N_("%(name)s chooses an attack card."))
        : say(N_("You choose %(card)s to attack."), N_("%(name)s chooses %(card)s to attack."), { card: codeName(arg) });
    case "face":
      return arg === "up" ? say(N_("You attack face up."), N_("%(name)s attacks face up."))
        : say(N_("You attack face down."), N_("%(name)s attacks face down."));
    case "block": return say(N_("You block with %(card)s."), N_("%(name)s blocks with %(card)s."), { card: codeName(arg) });
    case "effect":
      return arg === "use" ? say(N_("You activate the effect."), N_("%(name)s activates the effect."))
        : say(N_("You do not activate the effect."), N_("%(name)s does not activate the effect."));
    case "pay": return say(N_("You pay with %(card)s."), N_("%(name)s pays with %(card)s."), { card: codeName(arg) });
    case "target": return say(N_("You discard the coin card %(card)s."), N_("%(name)s discards the coin card %(card)s."), { card: codeName(arg) });
    case "reward":
      return arg === "draw" ? say(N_("You draw the difference."), N_("%(name)s draws the difference."))
        : say(N_("You take the initiative."), N_("%(name)s takes the initiative."));
    default: return fallback || String(actionId);
  }
}

// ---------------------------------------------------------------------------
// The board model.

// What the others see while a seat decides (one whole message each).
const PHASE_WAIT = {
  initiative: N_("%(name)s is deciding whether to keep the initiative."),
  draw: N_("%(name)s is drawing cards."),
  attack: N_("%(name)s is choosing an attack card."),
  face: N_("%(name)s is deciding face up or face down."),
  block: N_("%(name)s is choosing a block card."),
  effect: N_("%(name)s is deciding whether to activate an effect."),
  pay: N_("%(name)s is paying power coins."),
  target: N_("%(name)s is choosing a coin card to discard."),
  reward: N_("%(name)s is choosing the reward for the defence."),
};

/**
 * The engine's prompt for each phase, in the reader's language: the engine
 * (free of Django) words view.prompt in English; the page picks the message
 * by the phase (the node tests hold these to the engine's words).
 */
const PROMPTS = {
  initiative: N_("keep the initiative and attack, or pass it (you draw three)"),
  draw: N_("draw a card from the red or the blue deck"),
  attack: N_("choose an attack card"),
  face: N_("play the attack card face up or face down"),
  block: N_("choose a block card"),
  effect: N_("activate the special effect of your card?"),
  pay: N_("choose a power-coin card in front of you to pay with"),
  target: N_("choose the opponent's power-coin card to discard"),
  reward: N_("you won the defence: draw the difference or take the initiative"),
  over: N_("the game is over"),
};

function boardModel(frame, opts) {
  const b = frameBasics(frame, opts);
  opts = b.opts;
  const view = b.view, viewer = b.viewer, ctx = b.ctx, active = b.active;
  const battle = view ? view.battle : null;
  const seats = [];
  for (let i = 0; i < 2; i++) {
    const counts = view ? view.hand_counts[i] : { red: 0, blue: 0 };
    seats.push(Object.assign(platformSeat(b, i), {
      life: view ? view.life[i] : null,
      handCount: counts.red + counts.blue,
      handRed: counts.red,
      handBlue: counts.blue,
      front: view ? view.front[i].slice() : [],
      coins: view ? view.coins[i] : 0,
      initiative: view ? view.initiative === i : false,
      attacker: !!battle && battle.attacker === i && active,
      noBlockRound: view && view.no_block_round ? view.no_block_round[i] : null,
    }));
  }
  let table = null;
  if (battle && (battle.attack_played || battle.attack)) {
    table = {
      attacker: battle.attacker,
      defender: battle.defender,
      attackerName: seatName(ctx, battle.attacker),
      defenderName: seatName(ctx, battle.defender),
      attack: battle.attack,
      faceDown: battle.face === "down" && !battle.revealed,
      face: battle.face,
      block: battle.block,
      blockDone: !!battle.block_done,
      blockDiscarded: !!battle.block_discarded,
      attackValue: battle.attack_value,
      blockValue: battle.block_value,
      activated: battle.activated.slice(),
    };
    table.attackTitle = sideTitle(ctx, battle.attacker, "attack", table.face === "down", false);
    table.blockTitle = sideTitle(ctx, battle.defender, "block", false, table.blockDiscarded);
  }
  const pending = view ? view.pending || {} : {};
  let suffix = "";
  if (pending.draws) suffix += " " + tn("(%(n)s card to draw)", "(%(n)s cards to draw)", pending.draws, { n: pending.draws });
  if (pending.coins_due) suffix += " " + tn("(%(n)s coin still due)", "(%(n)s coins still due)", pending.coins_due, { n: pending.coins_due });
  if (pending.difference) suffix += " " + t("(difference %(n)s)", { n: pending.difference });
  const turn = turnStatus(b, PHASE_WAIT, suffix, PROMPTS);
  const byCode = {};
  if (view) {
    (view.hand || []).concat(view.front[0], view.front[1]).forEach(function (c) { byCode[c.code] = c; });
  }
  return Object.assign(modelBase(b, turn), {
    decks: view ? view.decks : { red: 0, blue: 0 },
    discards: view ? view.discards : { red: [], blue: [] },
    seats: seats,
    hand: viewer !== null && view && view.hand ? view.hand.slice() : null,
    table: table,
    groups: turn.myTurn && !opts.readOnly ? groupLegal(frame.legal || [], byCode) : [],
  });
}

// ---------------------------------------------------------------------------
// Results.

const RESULTS = {
  // Two seats: both placed first is a draw.
  winnersText: (ctx, winners) => (winners.length > 1 ? t("A draw") : winnersText(ctx, winners)),
  reasons: GAME_REASONS,
  columns: (scores, seat) => ({ life: seatScore(scores, "life", seat) }),
};

function resultModel(frame, opts) {
  return commonResultModel(frame, opts, RESULTS);
}

// ---------------------------------------------------------------------------
// DOM rendering (browser, or the test DOM); h, clear and presenceEl come from common.js.

/** A face-up card; `size` is "lg", "md" or "sm". */
function cardEl(doc, card, size, attrs) {
  if (!card) return cardBackEl(doc, size, null, "red");
  const tag = attrs && attrs.onclick ? "button" : "div";
  const effect = effectText(card);
  const base = {
    className: "kcard kf13-card kf13-" + card.colour + " kcard-" + (size || "md") + (card.coins ? " kf13-coins" : ""),
    title: cardTitle(card),
    "data-code": card.code,
  };
  if (tag === "button") base.type = "button";
  else { base.role = "img"; base["aria-label"] = base.title; }
  return h(doc, tag, Object.assign(base, attrs || {}), [
    h(doc, "span", { className: "kcard-focus", "aria-hidden": "true", text: valueText(card) }),
    h(doc, "span", { className: "kcard-seal", "aria-hidden": "true", text: card.coins ? "●" + card.coins : card.effect || card.rise !== null ? "✦" : String(card.value) }),
    h(doc, "span", { className: "kcard-name", text: card.name }),
    size === "lg" && effect ? h(doc, "span", { className: "kcard-effect", "aria-hidden": "true", text: effect }) : null,
  ]);
}

function cardBackEl(doc, size, label, colour) {
  return h(doc, "div", {
    className: "kcard kcard-back kf13-back-" + (colour || "red") + " kcard-" + (size || "md"),
    role: label ? "img" : null,
    "aria-label": label || null,
    "aria-hidden": label ? null : "true",
  }, [h(doc, "span", { className: "kcard-back-mark" })]);
}

function seatEl(doc, seat, opts) {
  opts = opts || {};
  const classes = ["seat", "kf13-seat"];
  if (seat.isActor) classes.push("is-actor");
  if (seat.forfeited) classes.push("is-out");
  if (seat.isYou) classes.push("is-you");
  const badges = [];
  if (seat.initiative) badges.push(h(doc, "span", { className: "badge seat-badge turn", text: t("Initiative") }));
  if (seat.noBlockRound) badges.push(h(doc, "span", { className: "badge seat-badge out", text: t("No block in round %(round)s", { round: seat.noBlockRound }) }));
  if (seat.replacedByBot) badges.push(h(doc, "span", { className: "badge seat-badge", text: t("Bot plays on") }));
  else if (seat.forfeited) badges.push(h(doc, "span", { className: "badge seat-badge out", text: t("Forfeited") }));
  const clock = seat.clockText && opts.clocks ? h(doc, "span", {
    className: "clock" + (seat.clockRunning ? " running" : "") + (seat.clockLow ? " low" : ""),
    "data-seat": seat.seat, text: seat.clockText,
  }) : null;
  let hand = null;
  if (!opts.noHand) {
    if (seat.hand) {
      hand = h(doc, "div", { className: "hand hand-open", role: "group", "aria-label": seat.name + "'s hand: " + cardList(seat.hand) },
        seat.hand.map(function (c) { return cardEl(doc, c, "sm"); }));
    } else {
      hand = h(doc, "div", { className: "hand hand-closed kf13-hand-count", "data-role": "hand-count-" + seat.seat }, [
        cardBackEl(doc, "sm", null, "red"), h(doc, "span", { className: "hand-count", text: "×" + seat.handRed }),
        cardBackEl(doc, "sm", null, "blue"), h(doc, "span", { className: "hand-count", text: "×" + seat.handBlue }),
        h(doc, "span", { className: "small", text: tn("%(n)s card in hand", "%(n)s cards in hand", seat.handCount, { n: seat.handCount }) }),
      ]);
    }
  }
  return h(doc, "section", { className: classes.join(" "), "aria-label": t("Seat %(n)s: %(name)s", { n: seat.seat + 1, name: seat.name }), "data-seat": seat.seat }, [
    h(doc, "header", { className: "seat-head" }, [
      h(doc, "span", { className: "seat-name", text: seat.isYou && !opts.noYou ? t("%(name)s (you)", { name: seat.name }) : seat.name }),
      presenceEl(doc, seat),
      clock,
    ]),
    h(doc, "div", { className: "kf13-life", "data-role": "life-" + seat.seat, role: "group", "aria-label": t("Life: %(life)s", { life: seat.life }) }, [
      h(doc, "strong", { text: "♥ " + seat.life }), " " + tn("life", "life", seat.life),
    ]),
    h(doc, "div", { className: "seat-badges" }, badges),
    hand,
    h(doc, "div", { className: "prizes kf13-front", "data-role": "front-" + seat.seat }, [
      h(doc, "span", { className: "pile-label", text: tn("In front · %(n)s coin", "In front · %(n)s coins", seat.coins, { n: seat.coins }) }),
      h(doc, "div", { className: "prize-row" }, seat.front.length ? seat.front.map(function (c) { return cardEl(doc, c, "sm"); }) :
        [h(doc, "span", { className: "muted small", text: t("no coin cards") })]),
    ]),
  ]);
}

function pileEl(doc, model, colour) {
  const pile = model.discards[colour] || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const count = model.decks[colour];
  return h(doc, "div", { className: "kf13-piles kf13-piles-" + colour }, [
    h(doc, "div", { className: "pile deck", "data-role": "deck-" + colour }, [
      h(doc, "span", { className: "pile-label", text: colour === "red" ? t("Attack deck") : t("Block deck") }),
      count ? cardBackEl(doc, "md", colour === "red" ? tn("%(n)s card in the red deck", "%(n)s cards in the red deck", count, { n: count })
        : tn("%(n)s card in the blue deck", "%(n)s cards in the blue deck", count, { n: count }), colour) : emptyPileEl(doc),
      h(doc, "span", { className: "pile-count", text: tn("%(n)s card", "%(n)s cards", count, { n: count }) }),
    ]),
    h(doc, "div", { className: "pile discard", "data-role": "discard-" + colour }, [
      h(doc, "span", { className: "pile-label", text: t("Discard") }),
      top ? cardEl(doc, top, "md") : emptyPileEl(doc),
      h(doc, "span", { className: "pile-count", text: tn("%(n)s card", "%(n)s cards", pile.length, { n: pile.length }) }),
      pile.length ? h(doc, "details", { className: "discard-all" }, [
        h(doc, "summary", { text: t("All %(count)s", { count: pile.length }) }),
        h(doc, "div", { className: "discard-list" }, pile.slice().reverse().map(function (c) { return cardEl(doc, c, "sm"); })),
      ]) : null,
    ]),
  ]);
}

function battleEl(doc, model) {
  const tb = model.table;
  if (!tb) {
    const idle = model.status === "finished" || model.phase === "over" ? t("Game over") : model.round ? t("Round %(number)s", { number: model.round }) : "";
    return h(doc, "div", { className: "table-play empty", "data-role": "battle" }, [h(doc, "span", { className: "muted", text: idle })]);
  }
  const side = function (name, card, hidden, value, note) {
    return h(doc, "div", { className: "duel-side" }, [
      h(doc, "span", { className: "duel-name", text: name }),
      card ? cardEl(doc, card, "md") : hidden ? cardBackEl(doc, "md", t("face-down attack card"), "red") :
        h(doc, "div", { className: "kcard kcard-md kcard-empty", text: note || "…" }),
      value !== null && value !== undefined ? h(doc, "span", { className: "badge kf13-value", text: t("Value %(value)s", { value: value }) }) : null,
    ]);
  };
  const blockNote = tb.blockDone ? t("no block") : t("waiting");
  return h(doc, "div", { className: "table-play duel", role: "group", "aria-label": t("Battle"), "data-role": "battle" }, [
    side(tb.attackTitle, tb.attack, tb.faceDown || !tb.attack, tb.attackValue),
    h(doc, "span", { className: "duel-vs", "aria-hidden": "true", text: "VS" }),
    side(tb.blockTitle, tb.block, false, tb.blockDone ? tb.blockValue : null, blockNote),
  ]);
}

function actionsEl(doc, model, onAct, disabled) {
  const wrap = h(doc, "div", { className: "actions" });
  model.groups.forEach(function (group) {
    const items = group.actions.map(function (action) {
      if (group.kind === "cards" && action.cardInfo) {
        return cardEl(doc, action.cardInfo, "md", {
          onclick: function () { onAct(action); }, "aria-label": action.text,
          className: "kcard kf13-card kf13-" + action.cardInfo.colour + " kcard-md kcard-choice", disabled: disabled,
          "data-action": action.id,
        });
      }
      return h(doc, "button", { type: "button", className: "choice", disabled: disabled, "data-action": action.id, onclick: function () { onAct(action); }, text: action.text });
    });
    wrap.appendChild(actionGroupEl(doc, group, items));
  });
  return wrap;
}

function renderBoard(root, model, opts) {
  opts = opts || {};
  const doc = root.ownerDocument;
  const slot = function (name) { return root.querySelector('[data-role="' + name + '"]'); };
  const opponents = slot("opponents");
  if (opponents) {
    clear(opponents);
    [0, 1].forEach(function (i) {
      if (i !== model.viewer) opponents.appendChild(seatEl(doc, model.seats[i], { clocks: model.status === "active", noYou: !model.useYou }));
    });
  }
  const center = slot("center");
  if (center) {
    clear(center).appendChild(h(doc, "div", { className: "board-center-inner kf13-center" }, [
      pileEl(doc, model, "red"), battleEl(doc, model), pileEl(doc, model, "blue"),
    ]));
  }
  const you = slot("you");
  if (you) {
    clear(you);
    you.hidden = model.viewer === null;
    if (model.viewer !== null) {
      const me = model.seats[model.viewer];
      const handGroup = opts.onAct ? model.groups.filter(function (g) { return g.type === "attack" || g.type === "block"; })[0] : null;
      const cards = (model.hand || []).map(function (c) {
        const action = handGroup ? handGroup.actions.filter(function (a) { return a.card === c.code; })[0] : null;
        if (!action) return cardEl(doc, c, "lg");
        return cardEl(doc, c, "lg", {
          onclick: function () { opts.onAct(action); }, "aria-label": action.text, "data-action": action.id,
          className: "kcard kf13-card kf13-" + c.colour + " kcard-lg kcard-choice", disabled: !!opts.pending,
        });
      });
      you.appendChild(seatEl(doc, me, { noHand: true, clocks: model.status === "active", noYou: !model.useYou }));
      // One row per colour (the hand comes sorted, red first); a big hand
      // overlaps its cards (kungfu2013.css, --n) instead of growing a column.
      const rows = ["red", "blue"].map(function (colour) {
        const row = cards.filter(function (el, i) { return model.hand[i].colour === colour; });
        if (!row.length) return null;
        return h(doc, "div", { className: "kf13-hand-row", "data-role": "hand-" + colour, style: "--n: " + row.length }, row);
      });
      const wide = cards.length > 8 ? " kf13-hand-wide" : "";
      you.appendChild(h(doc, "div", { className: "my-hand kf13-hand" + wide, role: "group", "aria-label": t("Your hand"), "data-role": "my-hand" },
        cards.length ? rows : [h(doc, "span", { className: "muted", text: t("Your hand is empty.") })]));
    }
  }
  const controls = model.groups.length && opts.onAct ? actionsEl(doc, model, opts.onAct, !!opts.pending) : null;
  renderPanel(root, model, opts, controls, model.round ? t("Round %(number)s", { number: model.round }) : "");
  return model;
}

function resultsEl(doc, res, opts) {
  const because = res.gameReason ? t("The game ended because %(reason)s.", { reason: res.gameReason }) : "";
  const reason = [res.endReason, because].join(" ").trim();
  return resultsPanelEl(doc, res, reason, resultsTableEl(doc, res, [{ title: t("Life"), value: (row) => row.life }]), opts || {});
}

/** The icons and the whole card list, as a reference under the table. */
function renderCardReference(container) {
  if (!container) return;
  const doc = container.ownerDocument;
  clear(container);
  const rows = [
    [t("Value rise (1→3, 3→6)"), t("Activated, the card's value is the higher number; a bottom-frame effect happens at the same time.")],
    [t("Power coins ●"), t("The card stays in front of you after the battle; discard it later to pay for special effects (its value no longer counts).")],
    [t("If the opponent loses life"), t("The effect beside the arrow happens only if the battle costs the opponent life.")],
  ];
  Object.keys(DATA.effects).forEach(function (k) {
    rows.push([EFFECT_NAMES[k] || k, EFFECT_HELP[k] ? t(EFFECT_HELP[k]) : capitalize(DATA.effects[k]) + "."]);
  });
  const cell = function (text) { return h(doc, "td", { text: text }); };
  container.appendChild(h(doc, "table", { className: "card-ref" }, [
    h(doc, "thead", {}, [h(doc, "tr", {}, [h(doc, "th", { text: t("Icon") }), h(doc, "th", { text: t("What it does") })])]),
    h(doc, "tbody", {}, rows.map(function (r) { return h(doc, "tr", {}, [h(doc, "td", {}, [h(doc, "strong", { text: r[0] })]), cell(r[1])]); })),
  ]));
  container.appendChild(h(doc, "table", { className: "card-ref kf13-card-list", "data-role": "card-list" }, [
    h(doc, "thead", {}, [h(doc, "tr", {}, [N_("Card"), N_("Colour"), N_("Value"), N_("Coins"), N_("Special effect")].map(function (label) { return h(doc, "th", { text: t(label) }); }))]),
    h(doc, "tbody", {}, DATA.cards.map(function (c) {
      const card = Object.assign({}, c, { coins: 0 });
      return h(doc, "tr", {}, [
        h(doc, "td", {}, [h(doc, "strong", { text: c.name })]),
        cell(c.colour === "red" ? t("attack") : t("block")),
        cell(valueText(c)),
        cell(c.coins ? String(c.coins) : "—"),
        cell(effectText(card) || "—"),
      ]);
    })),
  ]));
}

function dealText() {
  return t("The cards are dealt: three attack and three block cards to each player; 10 life each.");
}

/** The table in words for the screen-reader mode: one line per fact. */
function describeBoard(model) {
  const attackCards = function (n) { return tn("%(n)s attack card", "%(n)s attack cards", n, { n: n }); };
  const blockCards = function (n) { return tn("%(n)s block card", "%(n)s block cards", n, { n: n }); };
  const lines = describeSeats(model, function (s) {
    return [
      s.life === null ? null : tn("%(n)s life", "%(n)s life", s.life, { n: s.life }),
      t("%(attack)s and %(block)s in hand", { attack: attackCards(s.handRed), block: blockCards(s.handBlue) }),
      s.front.length ? t("in front: %(cards)s", { cards: cardList(s.front) }) : null,
      s.coins ? tn("%(n)s coin", "%(n)s coins", s.coins, { n: s.coins }) : null,
      s.initiative ? t("has the initiative") : null,
      s.attacker ? t("attacking") : null,
    ];
  });
  const decks = { attack: attackCards(model.decks.red), block: blockCards(model.decks.blue) };
  const discarded = { attack: attackCards(model.discards.red.length), block: blockCards(model.discards.blue.length) };
  lines.push(t("Decks: %(attack)s, %(block)s.", decks) + " " + t("Discarded: %(attack)s, %(block)s.", discarded));
  const tb = model.table;
  if (tb) {
    const ctx = { names: model.names, viewer: model.viewer, useYou: model.useYou };
    const attack = tb.attack && !tb.faceDown ? cardName(tb.attack) : t("a face-down card");
    const hasAttack = tb.attackValue !== null && tb.attackValue !== undefined;
    const attackPart = hasAttack
      ? said(ctx, tb.attacker, N_("You attack with %(card)s (value %(value)s)"), N_("%(name)s attacks with %(card)s (value %(value)s)"), { card: attack, value: tb.attackValue })
      : said(ctx, tb.attacker, N_("You attack with %(card)s"), N_("%(name)s attacks with %(card)s"), { card: attack });
    let block = tb.block ? cardName(tb.block) : tb.blockDone ? t("no block") : t("not blocked yet");
    if (tb.blockDone && tb.blockValue !== null && tb.blockValue !== undefined) block = t("%(block)s (value %(value)s)", { block: block, value: tb.blockValue });
    const defender = isYou(ctx, tb.defender) ? t("You") : nameOf(ctx, tb.defender);
    lines.push(t("Battle: %(attack)s; %(name)s: %(block)s.", { attack: attackPart, name: defender, block: block }));
  }
  if (model.hand) lines.push(viewerLine(model, N_("Your hand: %(cards)s."), N_("%(name)s's hand: %(cards)s."), { cards: cardList(model.hand) }));
  return lines;
}

export {
  CHOICE_LABELS, actionText, PRIVATE, PRIVATE_THIRD,
  GROUP_TITLES,
  PROMPTS, PHASE_WAIT,
  describeBoard,
  EVENT_TYPES,
  EFFECT_NAMES,
  EFFECT_TEXTS,
  EFFECT_HELP,
  valueText,
  effectText,
  cardTitle,
  cardName,
  cardList,
  formatEvent,
  formatSteps,
  groupLegal,
  autoAction,
  describeAction,
  boardModel,
  resultModel,
  dealText,
  cardEl,
  cardBackEl,
  renderBoard,
  renderCardReference,
  resultsEl,
};
