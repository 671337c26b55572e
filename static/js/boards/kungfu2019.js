/*
 * Kung Fu (2019), the dice game: pure functions from a server frame (or a
 * replay step) to plain data, plus small DOM renderers for that data.
 *
 * Used by the live match page (live-match.js), the replay viewer (replay.js)
 * and the node unit tests (tests/frontend/kungfu2019.test.js). Frames name
 * cards by code only; the cards themselves (public: the rules page prints
 * them) come from boards/data/kungfu2019-cards.js, which manage.py
 * build_board_data writes from the engine's card data
 * (gameplay/rules/kungfu2019/catalogue.py). Everything a seat may not know is simply
 * absent from its frame (the engine builds observations from an allow-list):
 * other seats' hands, packs, picks and commits appear only as counts and
 * "committed", their dice assignments only once the fight is resolved.
 *
 * What every board shares (names, log, clocks, seed check, side panel,
 * results, DOM helpers) is imported from boards/common.js.
 */

import {
  actionGroupEl, capitalize, cardListText, joinClauses, joinPhrases, isYou, nameOf, seatLabel, viewerLine, clear, describeSeats, eventFormatter, frameBasics, h,
  modelBase, platformSeat, presenceEl,
  renderPanel, resultModel as commonResultModel, resultsPanelEl, resultsTableEl,
  seatScore, stepsFormatter, turnStatus,
  winnersText,
} from "./common.js";
import DATA from "./data/kungfu2019-cards.js";
import { t, tn } from "../i18n.js";

/** Marks a message translated where it is shown (t(variable)); the extractor knows it. */
const N_ = (text) => text;

const DUMMY = -1;
const STATS = DATA.icons; // ["hp", "atk", "def", "hit", "avo"]
const STEP = DATA.track_step;
const STAT_NAME = { hp: "HP", atk: "ATK", def: "DEF", hit: "HIT", avo: "AVO" };
const STAT_HELP = {
  hp: N_("health: most HP after three rounds wins"),
  atk: N_("attack value added to every attack you make"),
  def: N_("defence value added every time you defend"),
  hit: N_("points to turn your dice up or down when you attack"),
  avo: N_("points to turn your dice up or down when you defend"),
};

/** A track's tooltip: what it adds and how far the seat has moved it. */
function trackTitle(k, spaces) {
  const moved = tn("%(n)s space", "%(n)s spaces", spaces, { n: spaces });
  const help = STAT_HELP[k] ? t(STAT_HELP[k]) : k;
  return t("%(stat)s: %(help)s (%(spaces)s)", { stat: STAT_NAME[k] || k, help: help, spaces: moved });
}

/** The reference's line for a bonus icon: one whole message each, the step from the data. */
function iconReference(k) {
  const n = STEP[k];
  switch (k) {
    case "hp": return tn("Bonus icon: each card with it moves the HP track one space (%(n)s extra starting HP per space). Health: most HP after three rounds wins.",
      "Bonus icon: each card with it moves the HP track one space (%(n)s extra starting HP per space). Health: most HP after three rounds wins.", n, { n: n });
    case "atk": return tn("Bonus icon: each card with it moves the ATK track one space (%(n)s point per space). Attack value added to every attack you make.",
      "Bonus icon: each card with it moves the ATK track one space (%(n)s points per space). Attack value added to every attack you make.", n, { n: n });
    case "def": return tn("Bonus icon: each card with it moves the DEF track one space (%(n)s point per space). Defence value added every time you defend.",
      "Bonus icon: each card with it moves the DEF track one space (%(n)s points per space). Defence value added every time you defend.", n, { n: n });
    case "hit": return tn("Bonus icon: each card with it moves the HIT track one space (%(n)s point per space). Points to turn your dice up or down when you attack.",
      "Bonus icon: each card with it moves the HIT track one space (%(n)s points per space). Points to turn your dice up or down when you attack.", n, { n: n });
    case "avo": return tn("Bonus icon: each card with it moves the AVO track one space (%(n)s point per space). Points to turn your dice up or down when you defend.",
      "Bonus icon: each card with it moves the AVO track one space (%(n)s points per space). Points to turn your dice up or down when you defend.", n, { n: n });
    default: return String(k);
  }
}
const CARDS = {};
DATA.cards.forEach(function (c) { CARDS[c.code] = c; });

// ---------------------------------------------------------------------------
// Cards (codes in frames, looked up in the catalogue).

function cardInfo(code) {
  return CARDS[code] || null;
}

/** A signed amount as the cards print it ("+2", "-1"). */
function amountText(n) {
  return (n < 0 ? "-" : "+") + Math.abs(n);
}

/**
 * What one activation adds, one message per effect field (the yin-yang counts
 * with tn()); in English word for word the card data's `effect_label`, which a
 * node test holds them to, so a new field fails there until it has a message.
 */
const EFFECT_TEXTS = {
  atk: N_("%(amount)s ATK"),
  hit: N_("%(amount)s HIT"),
  hp: N_("%(amount)s HP"),
  def: N_("%(amount)s DEF"),
  avo: N_("%(amount)s AVO"),
};

/** The kinds of combination the board words (combos.py KINDS). */
const COMBO_KINDS = ["cross", "faces", "kind", "straight", "sum_over", "sum_under"];

function effectLabel(effect) {
  const parts = [];
  Object.keys(EFFECT_TEXTS).forEach(function (k) {
    if (effect[k]) parts.push(t(EFFECT_TEXTS[k], { amount: amountText(effect[k]) }));
  });
  if (effect.yy) parts.push(tn("%(n)s yin-yang", "%(n)s yin-yang", effect.yy, { n: effect.yy }));
  Object.keys(effect).forEach(function (k) {
    // A field the board has no message for: the data's own English (a node test fails on it).
    if (!EFFECT_TEXTS[k] && k !== "yy" && effect[k]) parts.push(amountText(effect[k]) + " " + k.toUpperCase());
  });
  return parts.length ? joinPhrases(parts) : t("nothing");
}

/** The dice a combination needs, as printed ("4/5/6", "pair", "3 dice, sum > 11"). */
function comboNeed(combo) {
  const n = combo.n || 0;
  const params = { n: n, faces: (combo.faces || []).join("/"), total: combo.total };
  switch (combo.kind) {
    case "cross": return t("red cross");
    case "faces": return n === 1 ? params.faces : t("%(n)s x %(faces)s", params);
    case "kind":
      if (params.faces) {
        return n === 2 ? t("pair of %(faces)s", params) : n === 3 ? t("three of a kind of %(faces)s", params)
          : n === 4 ? t("four of a kind of %(faces)s", params) : t("%(n)s of a kind of %(faces)s", params);
      }
      return n === 2 ? t("pair") : n === 3 ? t("three of a kind") : n === 4 ? t("four of a kind") : t("%(n)s of a kind", params);
    case "straight": return t("straight of %(n)s", params);
    case "sum_over":
      return n ? tn("%(n)s die, sum > %(total)s", "%(n)s dice, sum > %(total)s", n, params) : t("sum > %(total)s", params);
    case "sum_under": return tn("%(n)s die, sum < %(total)s", "%(n)s dice, sum < %(total)s", n, params);
    default: return combo.label || String(combo.kind);
  }
}

/** One combination in words: "4/5/6: +2 ATK". */
function comboText(combo) {
  return t("%(need)s: %(effect)s", { need: comboNeed(combo), effect: effectLabel(combo.effect || {}) });
}

function cardName(code) {
  const c = cardInfo(code);
  return c ? c.name + " (" + c.initiative + ")" : t("a card");
}

function cardList(codes) {
  return cardListText(codes, cardName);
}

/** A card in words (its title and accessible name): name, initiative, bonus icon, combinations. */
function cardText(code) {
  const c = cardInfo(code);
  if (!c) return t("a card");
  const head = t("%(name)s: initiative %(initiative)s, bonus %(icon)s", { name: c.name, initiative: c.initiative, icon: STAT_NAME[c.icon] || c.icon });
  return joinClauses([head].concat(c.combos.map(comboText)));
}

function initiativeOf(codes) {
  return (codes || []).reduce(function (n, code) { const c = cardInfo(code); return n + (c ? c.initiative : 0); }, 0);
}

// ---------------------------------------------------------------------------
// Names: seat -1 is the 2-player dummy (common.js knows only real seats).

function who(ctx, seat) {
  return seat === DUMMY ? t("The dummy") : seatLabel(ctx, seat);
}

/**
 * A sentence about one seat as a whole message per person: the reader's own
 * ("You attack."), another's ("%(name)s attacks.") or the dummy's.
 */
function said(ctx, seat, you, other, params, dummy) {
  if (seat === DUMMY && dummy) return t(dummy, params);
  return isYou(ctx, seat) ? t(you, params) : t(other, Object.assign({ name: nameOf(ctx, seat) }, params));
}

const GAME_REASONS = {
  last_standing: t("only one player is left standing"),
  all_eliminated: t("the dummy knocked out both players: the one less far below 0 wins"),
  rounds: t("three rounds were fought: most HP wins"),
};

function statusText(status) {
  return STATS.map(function (k) { return STAT_NAME[k] + " " + status[k]; }).join(", ");
}

// ---------------------------------------------------------------------------
// Events -> log sentences.

function signed(n) {
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n);
}

const STEP_TEXT = {
  auto: t("You took the best assignment and finished."),
  best: t("You loaded the best assignment."),
  done: t("You finished your assignment."),
  reset: t("You started the assignment again from the roll."),
  cancel: t("You dropped the set being built."),
};

function stepText(step) {
  if (STEP_TEXT[step]) return STEP_TEXT[step];
  const parts = String(step).split(":");
  const n = Number(parts[1]) + 1;
  switch (parts[0]) {
    case "set": return t("You started a set on card %(n)s (combination %(combo)s).", { n: n, combo: Number(parts[2]) + 1 });
    case "die": return t("You put die %(n)s into the set.", { n: n });
    case "up": return t("You turned die %(n)s up by one.", { n: n });
    case "down": return t("You turned die %(n)s down by one.", { n: n });
    case "drop": return t("You took back set %(n)s.", { n: n });
    default: return t("You changed your assignment.");
  }
}

const PUBLIC = {
  pick: function (p, ctx) { return said(ctx, p.seat, N_("You keep a card."), N_("%(name)s keeps a card.")); },
  draft_pass: function (p) {
    return p.pack_size
      ? tn("The packs pass to the left (draft turn %(turn)s): %(n)s card in each.",
        "The packs pass to the left (draft turn %(turn)s): %(n)s cards in each.", p.pack_size, { turn: p.turn + 1, n: p.pack_size })
      : t("The draft is over: everyone holds ten cards.");
  },
  status: function (p, ctx) {
    const boards = p.tracks.map(function (track, i) {
      const pts = {};
      STATS.forEach(function (k) { pts[k] = track[k] * STEP[k]; });
      return t("%(name)s: %(hp)s HP, ATK %(atk)s, DEF %(def)s, HIT %(hit)s, AVO %(avo)s",
        { name: seatLabel(ctx, i), hp: p.hp[i], atk: pts.atk, def: pts.def, hit: pts.hit, avo: pts.avo });
    });
    return t("The status boards are set. %(boards)s.", { boards: boards.join("; ") });
  },
  round: function (p, ctx) {
    const names = p.alive.map(function (s) { return seatLabel(ctx, s); }).join(", ");
    return t("Round %(round)s of %(rounds)s: everyone still standing (%(names)s) chooses three cards.",
      { round: p.round, rounds: DATA.rounds, names: names });
  },
  commit: function (p, ctx) {
    return said(ctx, p.seat, N_("You commit a card (%(count)s of %(play)s)."), N_("%(name)s commits a card (%(count)s of %(play)s)."),
      { count: p.count, play: DATA.play });
  },
  reveal: function (p, ctx) {
    const plays = [];
    (p.played || []).forEach(function (cards, seat) {
      if (cards) plays.push(t("%(name)s: %(cards)s (initiative %(n)s)", { name: seatLabel(ctx, seat), cards: cardList(cards), n: p.totals[seat] }));
    });
    if (p.dummy) plays.push(t("the dummy: %(cards)s (attacks with %(n)s)", { cards: cardList(p.dummy), n: p.dummy_total }));
    const order = (p.order || []).map(function (s) { return who(ctx, s); }).join(", ");
    const params = { plays: capitalize(plays.join("; ")), order: order };
    return p.tiebreak
      ? t("The cards are revealed. %(plays)s. Attack order: %(order)s (equal totals ordered by a random draw).", params)
      : t("The cards are revealed. %(plays)s. Attack order: %(order)s.", params);
  },
  attack: function (p, ctx) {
    const rolls = (p.fighters || []).map(function (s) {
      return t("%(name)s: %(dice)s", { name: seatLabel(ctx, s), dice: (p.dice[s] || []).join(" ") });
    });
    let text = said(ctx, p.attacker, N_("You attack."), N_("%(name)s attacks."), {}, N_("The dummy attacks.")) +
      " " + t("Dice: %(rolls)s.", { rolls: rolls.join("; ") });
    if (p.auto_done && p.auto_done.length) {
      const names = p.auto_done.map(function (s) { return seatLabel(ctx, s); }).join(", ");
      text += " " + t("%(names)s: no combination to use.", { names: names });
    }
    return text;
  },
  assign: function (p, ctx) {
    return p.done
      ? said(ctx, p.seat, N_("You have assigned the dice."), N_("%(name)s has assigned the dice."))
      : said(ctx, p.seat, N_("You work on the dice."), N_("%(name)s works on the dice."));
  },
  fight: function (p, ctx) {
    const a = p.attacker;
    const parts = [said(ctx, a, N_("You attack with %(atk)s ATK."), N_("%(name)s attacks with %(atk)s ATK."), { atk: p.attack },
      N_("The dummy attacks with %(atk)s ATK."))];
    (p.defenders || []).forEach(function (d) {
      const params = { def: d.defence, n: d.damage, hp: d.hp };
      parts.push(d.damage
        ? said(ctx, d.seat, N_("You defend with %(def)s and lose %(n)s HP (%(hp)s left)."),
          N_("%(name)s defends with %(def)s and loses %(n)s HP (%(hp)s left)."), params)
        : said(ctx, d.seat, N_("You defend with %(def)s: no damage."), N_("%(name)s defends with %(def)s: no damage."), params));
      if (d.yin_yang && !d.eliminated) {
        parts.push(said(ctx, d.seat, N_("Your yin-yangs: %(n)s."), N_("%(name)s's yin-yangs: %(n)s."), { n: d.yin_yang }));
      }
    });
    let text = parts.join(" ");
    if (a !== DUMMY) {
      if (p.yin_yang_damage) {
        text += " " + said(ctx, a, N_("Yin-yang: You take %(n)s damage."), N_("Yin-yang: %(name)s takes %(n)s damage."), { n: p.yin_yang_damage });
      }
      if (p.attacker_hp_change) {
        text += " " + said(ctx, a, N_("Your technique: %(change)s HP."), N_("%(name)s's technique: %(change)s HP."), { change: signed(p.attacker_hp_change) });
      }
      if (p.yin_yang_damage || p.attacker_hp_change) {
        text += " " + said(ctx, a, N_("Your HP: %(hp)s."), N_("%(name)s's HP: %(hp)s."), { hp: p.attacker_hp });
      }
    }
    return text;
  },
  eliminated: function (p, ctx) { return said(ctx, p.seat, N_("You are knocked out (HP %(hp)s)."), N_("%(name)s is knocked out (HP %(hp)s)."), { hp: p.hp }); },
  round_end: function (p, ctx) {
    const hp = p.hp.map(function (v, i) { return t("%(name)s %(points)s", { name: seatLabel(ctx, i), points: v }); });
    return t("Round %(round)s ends. HP: %(hp)s.", { round: p.round, hp: hp.join(", ") });
  },
  game_over: function (p, ctx) {
    const winners = winnersText(ctx, p.winners, t("share the win"));
    return t("Game over: %(winners)s (%(reason)s).", { winners: winners, reason: GAME_REASONS[p.reason] || p.reason });
  },
  unpick: function (p, ctx) {
    return said(ctx, p.seat, N_("You take back the card kept this turn, to choose again."), N_("%(name)s takes back the card kept this turn, to choose again."));
  },
  uncommit: function (p, ctx) {
    return said(ctx, p.seat, N_("You take back a committed card (%(count)s of %(play)s now)."),
      N_("%(name)s takes back a committed card (%(count)s of %(play)s now)."), { count: p.count, play: DATA.play });
  },
  reopen: function (p, ctx) { return said(ctx, p.seat, N_("You reopen the dice assignment."), N_("%(name)s reopens the dice assignment.")); },
};

const PRIVATE = {
  pick: function (s) { return t("You kept %(card)s.", { card: cardName(s.card) }); },
  draft_pass: function (s) { return s.pack && s.pack.length ? t("Your new pack: %(cards)s.", { cards: cardList(s.pack) }) : t("You have drafted your ten cards."); },
  commit: function (s) { return t("You committed %(card)s.", { card: cardName(s.card) }); },
  unpick: function (s) { return t("You took back %(card)s.", { card: cardName(s.card) }); },
  uncommit: function (s) { return t("You took back %(card)s.", { card: cardName(s.card) }); },
  reopen: function () { return t("You reopened your assignment to change it."); },
  assign: function (s) {
    let text = stepText(s.step);
    if (s.sets) {
      const n = s.sets.length;
      text += " " + tn("Your %(n)s set of dice is in.", "Your %(n)s sets of dice are in.", n, { n: n });
    }
    return text;
  },
};

// A dice step in the third person (a replay that names every seat).
const STEP_THIRD = {
  auto: N_("%(name)s took the best assignment and finished."),
  best: N_("%(name)s loaded the best assignment."),
  done: N_("%(name)s finished the assignment."),
  reset: N_("%(name)s started the assignment again from the roll."),
  cancel: N_("%(name)s dropped the set being built."),
  set: N_("%(name)s started a set on card %(n)s (combination %(combo)s)."),
  die: N_("%(name)s put die %(n)s into the set."),
  up: N_("%(name)s turned die %(n)s up by one."),
  down: N_("%(name)s turned die %(n)s down by one."),
  drop: N_("%(name)s took back set %(n)s."),
};

function stepThird(step, name) {
  const parts = String(step).split(":");
  const message = STEP_THIRD[parts[0]] || N_("%(name)s changed the assignment.");
  return t(message, { name: name, n: Number(parts[1]) + 1, combo: Number(parts[2]) + 1 });
}

// What a seat alone saw, in the third person, for a replay that names every
// seat: messages of their own (docs/i18n.md), never the reader's sentence reworded.
const PRIVATE_THIRD = {
  pick: function (s, p, ctx, owner) { return t("%(name)s kept %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  draft_pass: function (s, p, ctx, owner) {
    const name = nameOf(ctx, owner);
    return s.pack && s.pack.length ? t("%(name)s's new pack: %(cards)s.", { name: name, cards: cardList(s.pack) })
      : t("%(name)s has drafted ten cards.", { name: name });
  },
  commit: function (s, p, ctx, owner) { return t("%(name)s committed %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  unpick: function (s, p, ctx, owner) { return t("%(name)s took back %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  uncommit: function (s, p, ctx, owner) { return t("%(name)s took back %(card)s.", { name: nameOf(ctx, owner), card: cardName(s.card) }); },
  reopen: function (s, p, ctx, owner) { return t("%(name)s reopened the assignment to change it.", { name: nameOf(ctx, owner) }); },
  assign: function (s, p, ctx, owner) {
    const name = nameOf(ctx, owner);
    let text = stepThird(s.step, name);
    if (s.sets) {
      const n = s.sets.length;
      text += " " + tn("%(name)s's %(n)s set of dice is in.", "%(name)s's %(n)s sets of dice are in.", n, { name: name, n: n });
    }
    return text;
  },
};

const EVENT_TYPES = Object.keys(PUBLIC).sort();

const formatEvent = eventFormatter(PUBLIC, PRIVATE, null, PRIVATE_THIRD);
const allSteps = stepsFormatter(formatEvent);

/**
 * The log: like every board's, without the many small steps of a dice
 * assignment still being built (each die, each point); the finished
 * assignment and the fight's result say what counts.
 */
function formatSteps(steps, ctx) {
  const quiet = (steps || []).map(function (step) {
    return Object.assign({}, step, {
      events: (step.events || []).filter(function (ev) { return !(ev.type === "assign" && ev.public && !ev.public.done); }),
    });
  });
  return allSteps(quiet, ctx);
}

// ---------------------------------------------------------------------------
// Decisions.

const ASSIGN_TYPES = { auto: 1, best: 1, done: 1, reset: 1, cancel: 1, drop: 1, set: 1, die: 1, up: 1, down: 1 };
// The tray's title ("auto"), and a title for each kind of dice step (the
// screen-reader panel groups the steps by kind).
const GROUP_TITLES = {
  pick: t("Keep one card of your pack"),
  play: t("Play a card (three this round, one at a time)"),
  auto: t("Your dice"),
  best: t("Start from the best assignment"),
  done: t("Finish the assignment"),
  reset: t("Start the assignment again"),
  cancel: t("The set being built"),
  set: t("Start a set of dice on a combination"),
  die: t("Put a die into the set"),
  up: t("Turn a die up (spend a point)"),
  down: t("Turn a die down (spend a point)"),
  drop: t("Take back a set of dice"),
  unpick: t("Take back"),
  unplay: t("Take back"),
  reopen: t("Take back"),
};

/*
 * The engine's action labels in the reader's language. The engine words
 * action.label in English (it knows no Django; bots and the API read it); the
 * board words every label it shows from the action's type and parameters, one
 * whole message each (card names stay English). The node test (tests/frontend/log-languages.test.js) holds every
 * kind of label the engine makes to a message here, word for word in English.
 */
const FIXED_LABELS = {
  auto: N_("Use the best assignment and finish"),
  done: N_("Finish with the dice as assigned"),
  reset: N_("Start the assignment again from the roll"),
  best: N_("Load the best assignment (and keep adjusting it)"),
  cancel: N_("Drop the set being built"),
  reopen: N_("Change your dice assignment"),
};

/** A card's name, initiative, bonus and combinations, as a card choice says it. */
function cardChoiceParams(code) {
  const c = cardInfo(code);
  if (!c) return null;
  const combos = joinClauses(c.combos.map(comboText));
  return { card: c.name, initiative: c.initiative, bonus: STAT_NAME[c.icon], combos: combos };
}

/** An engine action's words for its button, in the reader's language (no seat is named). */
function actionText(action) {
  const type = action.type || String(action.id).split(":")[0];
  if (FIXED_LABELS[type]) return t(FIXED_LABELS[type]);
  const card = action.card ? cardInfo(action.card) : null;
  const name = card ? card.name : t("a card");
  const combo = card && typeof action.combo === "number" ? card.combos[action.combo] : null;
  const n = Number(action.die) + 1;
  switch (type) {
    case "pick":
    case "play": {
      const params = cardChoiceParams(action.card);
      if (!params) break;
      return type === "pick"
        ? t("Keep %(card)s (initiative %(initiative)s, %(bonus)s; %(combos)s)", params)
        : t("Play %(card)s (initiative %(initiative)s, %(bonus)s; %(combos)s)", params);
    }
    case "set":
      if (!combo) break;
      return t("Assign dice to %(card)s: %(combo)s (%(effect)s)", { card: name, combo: comboNeed(combo), effect: effectLabel(combo.effect || {}) });
    case "drop": {
      if (!combo || !action.dice) break;
      const dice = joinPhrases(action.dice.map(function (d) { return String(d + 1); }));
      return t("Take back the set on %(card)s (%(combo)s, dice %(dice)s)", { card: name, combo: comboNeed(combo), dice: dice });
    }
    case "die":
      return t("Put die %(n)s (showing %(value)s) into the set", { n: n, value: action.value });
    case "up":
    case "down": {
      const params = { n: n, from: action.value, to: action.value + (type === "up" ? 1 : -1) };
      return t("Spend a point: die %(n)s from %(from)s to %(to)s", params);
    }
    case "unpick": return t("Take back %(card)s (choose again)", { card: name });
    case "unplay": return t("Take back %(card)s", { card: name });
  }
  return action.label || String(action.id);
}

/** The legal actions as groups: the draft pack, the hand, or the dice tray. */
function groupLegal(legal) {
  const groups = [];
  const byType = {};
  (legal || []).forEach(function (action) {
    const type = action.type || String(action.id).split(":")[0];
    const key = ASSIGN_TYPES[type] ? "assign" : type;
    let group = byType[key];
    if (!group) {
      group = byType[key] = {
        kind: key === "assign" ? "assign" : "cards", type: key,
        title: key === "assign" ? GROUP_TITLES.auto : GROUP_TITLES[type] || t("Choose"), actions: [],
      };
      groups.push(group);
    }
    group.actions.push(Object.assign({}, action, {
      text: actionText(action),
      cardInfo: action.card ? cardInfo(action.card) : null,
    }));
  });
  return groups;
}

function autoAction() {
  return null; // every decision of this game is a real choice
}

function describeAction(actionId, actor, ctx, fallback) {
  if (!actionId) return fallback || "";
  const parts = String(actionId).split(":");
  const kind = parts[0], arg = parts[1];
  const say = function (you, other, params) { return said(ctx, actor, you, other, params); };
  const die = { n: Number(arg) + 1 };
  switch (kind) {
    case "pick":
      return ctx.hideCards ? say(N_("You keep a card."), N_("%(name)s keeps a card."))
        : say(N_("You keep %(card)s."), N_("%(name)s keeps %(card)s."), { card: cardName(arg) });
    case "play":
      return ctx.hideCards ? say(N_("You commit a card."), N_("%(name)s commits a card."))
        : say(N_("You commit %(card)s."), N_("%(name)s commits %(card)s."), { card: cardName(arg) });
    case "auto": return say(N_("You take the best dice assignment."), N_("%(name)s takes the best dice assignment."));
    case "best": return say(N_("You load the best dice assignment."), N_("%(name)s loads the best dice assignment."));
    case "done": return say(N_("You finish the dice assignment."), N_("%(name)s finishes the dice assignment."));
    case "reset": return say(N_("You start the dice assignment again."), N_("%(name)s starts the dice assignment again."));
    case "cancel": return say(N_("You drop the set being built."), N_("%(name)s drops the set being built."));
    case "set": return say(N_("You start a set of dice."), N_("%(name)s starts a set of dice."));
    case "die": return say(N_("You put die %(n)s into a set."), N_("%(name)s puts die %(n)s into a set."), die);
    case "up": return say(N_("You turn die %(n)s up."), N_("%(name)s turns die %(n)s up."), die);
    case "down": return say(N_("You turn die %(n)s down."), N_("%(name)s turns die %(n)s down."), die);
    case "drop": return say(N_("You take back a set of dice."), N_("%(name)s takes back a set of dice."));
    case "unpick": return say(N_("You take back the card kept."), N_("%(name)s takes back the card kept."));
    case "unplay": return say(N_("You take back a committed card."), N_("%(name)s takes back a committed card."));
    case "reopen": return say(N_("You reopen the dice assignment."), N_("%(name)s reopens the dice assignment."));
    default: return fallback || String(actionId);
  }
}

// ---------------------------------------------------------------------------
// The board model.

// What the others see while a seat decides (one whole message each).
const PHASE_WAIT = {
  draft: N_("%(name)s is choosing a card to keep."),
  play: N_("%(name)s is choosing cards to play."),
  assign: N_("%(name)s is assigning dice."),
};

/**
 * The engine's prompt for each phase, in the reader's language: the engine
 * (free of Django) words view.prompt in English; the page picks the message
 * by the phase (the node tests hold these to the engine's words).
 */
const PROMPTS = {
  draft: N_("keep one card of your pack (the rest passes to your left)"),
  play: N_("choose the cards you play this round (three, one at a time)"),
  assign: N_("assign your dice to the combinations on your three cards"),
  over: N_("the game is over"),
};

function startHp(view, i) {
  return (DATA.start_hp[String(view.players)] || 30) + view.tracks[i].hp * STEP.hp;
}

/** What the viewer's dice tray shows: its dice, cards, sets and commands. */
function assignModel(view, viewer, legal) {
  const f = view.fight;
  const mine = f && f.mine;
  if (!mine) return null;
  const played = view.played[viewer] || [];
  const byId = {};
  (legal || []).forEach(function (a) { byId[a.id] = a; });
  const take = function (id) { const a = byId[id] || null; if (a) delete byId[id]; return a; };
  const role = mine.role;
  const inSet = {};
  mine.sets.forEach(function (st, j) { st[2].forEach(function (d) { inSet[d] = j; }); });
  const open = {};
  if (mine.open) mine.open[2].forEach(function (d) { open[d] = true; });
  const rolled = f.dice[viewer] || mine.values;
  const dice = mine.values.map(function (v, i) {
    return {
      index: i, value: v, rolled: rolled[i], changed: v !== rolled[i],
      set: inSet[i] === undefined ? null : inSet[i], inOpen: !!open[i],
      action: take("die:" + i), up: take("up:" + i), down: take("down:" + i),
    };
  });
  const setCount = {};
  mine.sets.forEach(function (st) { const key = st[0] + ":" + st[1]; setCount[key] = (setCount[key] || 0) + 1; });
  const cards = played.map(function (code, slot) {
    const card = cardInfo(code);
    return {
      slot: slot, code: code, card: card,
      combos: (card ? card.combos : []).map(function (combo, k) {
        return {
          k: k, combo: combo, text: comboText(combo),
          usable: combo.role === role || combo.role === "both",
          cross: combo.kind === "cross",
          sets: setCount[slot + ":" + k] || 0,
          open: !!(mine.open && mine.open[0] === slot && mine.open[1] === k),
          action: take("set:" + slot + ":" + k),
        };
      }),
    };
  });
  const sets = mine.sets.map(function (st, j) {
    const card = cardInfo(played[st[0]]);
    const combo = card ? card.combos[st[1]] : null;
    return {
      index: j, slot: st[0], k: st[1], dice: st[2].slice(),
      values: st[2].map(function (d) { return mine.values[d]; }),
      cardName: card ? card.name : "", text: combo ? comboText(combo) : "",
      drop: take("drop:" + j),
    };
  });
  // The value so far: the track, the red crosses of the role, the closed sets.
  let main = view.status[viewer][role === "atk" ? "atk" : "def"];
  let extra = 0;
  played.forEach(function (code) {
    (cardInfo(code) || { combos: [] }).combos.forEach(function (c) {
      if (c.kind !== "cross") return;
      main += (role === "atk" ? c.effect.atk : c.effect.def) || 0;
      extra += (role === "atk" ? c.effect.hp : c.effect.yy) || 0;
    });
  });
  sets.forEach(function (s) {
    const card = cardInfo(played[s.slot]);
    const e = card ? card.combos[s.k].effect : {};
    main += (role === "atk" ? e.atk : e.def) || 0;
    extra += (role === "atk" ? e.hp : e.yy) || 0;
  });
  let openCombo = null;
  if (mine.open) {
    const oc = cardInfo(played[mine.open[0]]);
    openCombo = {
      slot: mine.open[0], k: mine.open[1], dice: mine.open[2].slice(),
      cardName: oc ? oc.name : "", text: oc ? comboText(oc.combos[mine.open[1]]) : "",
      need: oc ? oc.combos[mine.open[1]].dice : 0,
    };
  }
  const commands = ["auto", "best", "done", "reset", "cancel"].map(take).filter(Boolean);
  return {
    role: role,
    attacking: role === "atk",
    points: role === "atk" ? "HIT" : "AVO",
    budget: mine.budget,
    spent: mine.spent,
    left: mine.budget - mine.spent,
    dice: dice,
    cards: cards,
    sets: sets,
    open: openCombo,
    commands: commands,
    total: main,
    extra: extra,
    done: !!mine.done,
    // Anything legal the tray has no place for (none today) is still offered.
    rest: Object.keys(byId).map(function (id) { return byId[id]; }),
  };
}

function boardModel(frame, opts) {
  const b = frameBasics(frame, opts);
  opts = b.opts;
  const view = b.view, viewer = b.viewer, active = b.active;
  const n = view ? view.players : b.platformSeats.length;
  const fight = view ? view.fight : null;
  const order = view ? view.order || [] : [];
  const seats = [];
  let scale = 1;
  let i;
  for (i = 0; i < n; i++) {
    if (view) scale = Math.max(scale, startHp(view, i), view.hp[i]);
  }
  for (i = 0; i < n; i++) {
    const played = view && view.played ? view.played[i] : null;
    const pos = order.indexOf(i);
    seats.push(Object.assign(platformSeat(b, i), {
      hp: view ? view.hp[i] : null,
      hpShare: view ? Math.max(0, Math.min(1, view.hp[i] / scale)) : 0,
      eliminated: view ? !!view.eliminated[i] : false,
      tracks: view ? view.tracks[i] : null,
      status: view ? view.status[i] : null,
      handSize: view ? view.hand_sizes[i] : 0,
      picked: view && view.draft ? !!view.draft.picked[i] : null,
      packSize: view && view.draft ? view.draft.pack_sizes[i] : null,
      committed: view && view.commits ? view.commits.counts[i] : null,
      played: played ? played.slice() : null,
      initiative: played ? initiativeOf(played) : null,
      orderPos: pos >= 0 ? pos + 1 : null,
      attacker: !!fight && fight.attacker === i,
      fighter: !!fight && fight.fighters.indexOf(i) >= 0,
      dice: fight && fight.dice[i] ? fight.dice[i].slice() : null,
      diceDone: fight && fight.done[i] !== null && fight.done[i] !== undefined ? !!fight.done[i] : null,
    }));
  }
  const turn = turnStatus(b, PHASE_WAIT, "", PROMPTS);
  const legal = turn.myTurn && !opts.readOnly ? frame.legal || [] : [];
  const me = viewer !== null && view ? viewer : null;
  let lastFight = null;
  (frame.events || []).forEach(function (ev) { if (ev.type === "fight") lastFight = ev.public; });
  const attackIndex = view ? view.attack_index : null;
  return Object.assign(modelBase(b, turn), {
    players: n,
    rounds: view ? view.rounds : DATA.rounds,
    seats: seats,
    hand: me !== null && view.hand ? view.hand.slice() : null,
    pack: me !== null && view.draft && view.draft.pack ? view.draft.pack.slice() : null,
    pick: me !== null && view.draft ? view.draft.pick : null,
    draftTurn: view && view.draft ? view.draft.turn : null,
    myCommits: me !== null && view.commits && view.commits.mine ? view.commits.mine.slice() : null,
    order: order.map(function (s, k) {
      return {
        seat: s, name: who(b.ctx, s), dummy: s === DUMMY,
        total: s === DUMMY ? initiativeOf(view.dummy) : seats[s] ? seats[s].initiative : null,
        current: !!fight && k === attackIndex && active,
        past: attackIndex !== null && k < attackIndex,
        out: s !== DUMMY && !!seats[s] && seats[s].eliminated,
      };
    }),
    attackIndex: attackIndex,
    dummy: view && view.dummy ? view.dummy.slice() : null,
    fight: fight ? {
      attacker: fight.attacker, attackerName: who(b.ctx, fight.attacker),
      fighters: fight.fighters.slice(),
      key: view.round + ":" + attackIndex + ":" + fight.attacker,
    } : null,
    deckSize: view ? view.deck_size : 0,
    discardSize: view ? view.discard.length : 0,
    lastFight: lastFight,
    assign: me !== null && fight && fight.mine ? assignModel(view, me, legal) : null,
    groups: groupLegal(legal),
    // Take-backs of this seat's hidden commits while others still choose
    // (the server sends them beside the menu; they are sent like actions).
    retract: b.status === "active" && !opts.readOnly && !turn.benched ? (frame.retract || []).map(function (a) {
      return Object.assign({}, a, { text: actionText(a), cardInfo: a.card ? cardInfo(a.card) : null });
    }) : [],
  });
}

// ---------------------------------------------------------------------------
// Results.

const RESULTS = {
  winnersText: (ctx, winners) => winnersText(ctx, winners, "share the win"),
  reasons: GAME_REASONS,
  columns: (scores, seat) => ({
    hp: seatScore(scores, "hp", seat),
    eliminated: !!(scores.eliminated || [])[seat],
  }),
};

function resultModel(frame, opts) {
  return commonResultModel(frame, opts, RESULTS);
}

// ---------------------------------------------------------------------------
// DOM rendering (browser, or the test DOM).

// Pips of a die face on a 3 x 3 grid (cells 0-8, row by row).
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** A die face as a picture; attrs.onclick makes it a button. */
function dieEl(doc, value, attrs, extraClass) {
  attrs = attrs || {};
  const pips = PIPS[value] || [];
  const cells = [];
  for (let c = 0; c < 9; c++) cells.push(h(doc, "span", { className: pips.indexOf(c) >= 0 ? "kf19-pip on" : "kf19-pip" }));
  const tag = attrs.onclick ? "button" : "span";
  const base = {
    className: "kf19-die" + (extraClass ? " " + extraClass : ""),
    "data-value": value,
    title: attrs.title || t("Die showing %(value)s", { value: value }),
  };
  if (tag === "button") base.type = "button";
  else { base.role = "img"; base["aria-label"] = base.title; }
  return h(doc, tag, Object.assign(base, attrs, { className: base.className + (attrs.className ? " " + attrs.className : "") }), cells);
}

function diceRowEl(doc, values, rolling, label) {
  return h(doc, "div", { className: "kf19-dice" + (rolling ? " kf19-rolling" : ""), role: "group", "aria-label": label || t("Dice: %(values)s", { values: values.join(", ") }) },
    values.map(function (v, i) { return dieEl(doc, v, null, "kf19-die-" + i); }));
}

function iconEl(doc, icon) {
  return h(doc, "span", { className: "kf19-icon kf19-icon-" + icon, title: t("Bonus icon: %(name)s (moves that track one space)", { name: STAT_NAME[icon] }), text: STAT_NAME[icon] });
}

/** A face-up card: initiative, bonus icon, name, combinations (size "lg" | "md" | "sm"). */
function cardEl(doc, code, size, attrs) {
  const card = cardInfo(code);
  attrs = attrs || {};
  size = size || "md";
  if (!card) return h(doc, "div", { className: "kf19-card kf19-" + size + " kf19-unknown", text: "?" });
  const tag = attrs.onclick ? "button" : "div";
  const base = {
    className: "kf19-card kf19-" + size + " kf19-bonus-" + card.icon,
    title: cardText(code),
    "data-code": code,
  };
  if (tag === "button") base.type = "button";
  else { base.role = "img"; base["aria-label"] = cardText(code); }
  const extra = attrs.className ? " " + attrs.className : "";
  const head = h(doc, "span", { className: "kf19-card-head" }, [
    h(doc, "span", { className: "kf19-init", "aria-hidden": "true", text: String(card.initiative) }),
    h(doc, "span", { className: "kf19-card-name", text: card.name }),
    size === "sm" ? null : iconEl(doc, card.icon),
  ]);
  const combos = size === "sm" ? null : h(doc, "span", { className: "kf19-combos" }, card.combos.map(function (c) {
    return h(doc, "span", { className: "kf19-combo kf19-role-" + (c.role || "none") + (c.kind === "cross" ? " kf19-cross" : "") }, [
      h(doc, "span", { className: "kf19-combo-need", text: c.kind === "cross" ? "✚" : comboNeed(c) }),
      " ", h(doc, "span", { className: "kf19-combo-effect", text: effectLabel(c.effect || {}) }),
    ]);
  }));
  return h(doc, tag, Object.assign(base, attrs, { className: base.className + extra }), [head, combos]);
}

function cardBackEl(doc, label) {
  return h(doc, "span", { className: "kf19-card kf19-sm kf19-back", role: "img", "aria-label": label || t("a committed card, face down") }, [
    h(doc, "span", { className: "kf19-back-mark", "aria-hidden": "true" }),
  ]);
}

function hpBarEl(doc, seat) {
  const pct = Math.round(seat.hpShare * 100);
  const low = seat.hp !== null && seat.hpShare < 0.25;
  return h(doc, "div", { className: "kf19-hp" + (low ? " low" : "") + (seat.eliminated ? " out" : ""), "data-role": "hp-" + seat.seat, role: "group", "aria-label": t("HP: %(hp)s", { hp: seat.hp }) }, [
    h(doc, "span", { className: "kf19-hp-bar", "aria-hidden": "true" }, [
      h(doc, "span", { className: "kf19-hp-fill", style: "width: " + pct + "%" }),
    ]),
    h(doc, "strong", { className: "kf19-hp-text", text: "♥ " + seat.hp }),
  ]);
}

function tracksEl(doc, seat) {
  if (!seat.status) return null;
  return h(doc, "dl", { className: "kf19-tracks", "data-role": "tracks-" + seat.seat, "aria-label": t("Status: %(status)s", { status: statusText(seat.status) }) }, STATS.filter(function (k) { return k !== "hp"; }).map(function (k) {
    return h(doc, "div", { className: "kf19-track kf19-track-" + k, title: trackTitle(k, seat.tracks[k]) }, [
      h(doc, "dt", { text: STAT_NAME[k] }), h(doc, "dd", { text: String(seat.status[k]) }),
    ]);
  }));
}

/** A seat's dice, named for the reader: "Your roll: 3, 5" / "Ana's roll: 3, 5". */
function rollLabel(model, seat) {
  const ctx = { names: model.names, viewer: model.viewer, useYou: model.useYou };
  const dice = seat.dice.join(", ");
  return isYou(ctx, seat.seat) ? t("Your roll: %(dice)s", { dice: dice }) : t("%(name)s's roll: %(dice)s", { name: nameOf(ctx, seat.seat), dice: dice });
}

/** What the seat has on the table now: draft state, commits, its three cards, its dice. */
function seatPlayEl(doc, model, seat, rolling) {
  const parts = [];
  if (model.phase === "draft" && seat.picked !== null) {
    parts.push(h(doc, "span", { className: "badge seat-badge" + (seat.picked ? " done" : ""), text: seat.picked ? t("Picked ✓") : t("Choosing a card") }));
  }
  if (model.phase === "play" && seat.committed !== null && !seat.eliminated) {
    const backs = [];
    for (let k = 0; k < DATA.play; k++) backs.push(k < seat.committed ? cardBackEl(doc) : h(doc, "span", { className: "kf19-card kf19-sm kf19-slot", "aria-hidden": "true" }));
    parts.push(h(doc, "div", { className: "kf19-commits", "data-role": "commits-" + seat.seat, role: "group", "aria-label": t("Committed %(count)s of %(total)s", { count: seat.committed, total: DATA.play }) }, backs.concat([
      h(doc, "span", { className: "small", text: seat.committed >= DATA.play ? "committed" : seat.committed + " of " + DATA.play + " committed" }),
    ])));
  }
  if (seat.played) {
    parts.push(h(doc, "div", { className: "kf19-played", "data-role": "played-" + seat.seat }, [
      h(doc, "span", { className: "pile-label", text: t("Plays · initiative %(initiative)s", { initiative: seat.initiative }) + (seat.orderPos ? " · " + t("attacks #%(position)s", { position: seat.orderPos }) : "") }),
      h(doc, "div", { className: "kf19-played-cards" }, seat.played.map(function (c) { return cardEl(doc, c, "sm"); })),
    ]));
  }
  if (seat.dice) {
    parts.push(h(doc, "div", { className: "kf19-seat-dice", "data-role": "dice-" + seat.seat }, [
      h(doc, "span", { className: "pile-label", text: (seat.attacker ? t("Attacking") : t("Defending")) + " · " + (seat.diceDone ? t("dice assigned ✓") : t("assigning…")) }),
      diceRowEl(doc, seat.dice, rolling, rollLabel(model, seat)),
    ]));
  }
  return parts;
}

function seatEl(doc, model, seat, opts) {
  opts = opts || {};
  const classes = ["seat", "kf19-seat"];
  if (seat.isActor) classes.push("is-actor");
  if (seat.eliminated || seat.forfeited) classes.push("is-out");
  if (seat.isYou) classes.push("is-you");
  if (seat.attacker) classes.push("is-attacker");
  const badges = [];
  if (seat.attacker) badges.push(h(doc, "span", { className: "badge seat-badge turn", text: t("Attacker") }));
  if (seat.eliminated) badges.push(h(doc, "span", { className: "badge seat-badge out", text: t("Knocked out") }));
  if (seat.replacedByBot) badges.push(h(doc, "span", { className: "badge seat-badge", text: t("Bot plays on") }));
  else if (seat.forfeited) badges.push(h(doc, "span", { className: "badge seat-badge out", text: t("Forfeited") }));
  const clock = seat.clockText && opts.clocks ? h(doc, "span", {
    className: "clock" + (seat.clockRunning ? " running" : "") + (seat.clockLow ? " low" : ""),
    "data-seat": seat.seat, text: seat.clockText,
  }) : null;
  return h(doc, "section", { className: classes.join(" "), "aria-label": t("Seat %(n)s: %(name)s", { n: seat.seat + 1, name: seat.name }), "data-seat": seat.seat }, [
    h(doc, "header", { className: "seat-head" }, [
      h(doc, "span", { className: "seat-name", text: seat.isYou && !opts.noYou ? t("%(name)s (you)", { name: seat.name }) : seat.name }),
      presenceEl(doc, seat),
      clock,
    ]),
    seat.hp === null ? null : hpBarEl(doc, seat),
    tracksEl(doc, seat),
    h(doc, "div", { className: "seat-badges" }, badges.concat([
      h(doc, "span", { className: "small", "data-role": "hand-size-" + seat.seat, text: tn("%(n)s card in hand", "%(n)s cards in hand", seat.handSize, { n: seat.handSize }) }),
    ])),
  ].concat(seatPlayEl(doc, model, seat, opts.rolling)));
}

function orderEl(doc, model) {
  if (!model.order.length) return null;
  return h(doc, "ol", { className: "kf19-order", "data-role": "attack-order", "aria-label": t("Attack order") }, model.order.map(function (o) {
    return h(doc, "li", { className: "kf19-order-item" + (o.current ? " current" : "") + (o.past ? " past" : "") + (o.out ? " out" : "") }, [
      h(doc, "span", { className: "kf19-order-name", text: o.name }),
      o.total !== null ? h(doc, "span", { className: "kf19-order-init", title: t("Total initiative"), text: String(o.total) }) : null,
    ]);
  }));
}

function lastFightEl(doc, model, fight) {
  const ctx = { names: model.names, viewer: model.viewer, useYou: model.useYou };
  return h(doc, "div", { className: "kf19-last", "data-role": "last-fight" }, [
    h(doc, "span", { className: "pile-label", text: t("Last attack") }),
    h(doc, "p", { className: "small", text: PUBLIC.fight(fight, ctx) }),
  ]);
}

function centerEl(doc, model, rolling, lastFight) {
  let phaseLine;
  const phase = { turn: (model.draftTurn || 0) + 1, turns: DATA.hand, round: model.round, rounds: model.rounds };
  if (model.phase === "draft") phaseLine = t("Draft · turn %(turn)s of %(turns)s", phase);
  else if (model.phase === "over" || model.status === "finished") phaseLine = t("Game over");
  else if (model.round) phaseLine = model.phase === "play" ? t("Round %(round)s of %(rounds)s · choosing cards", phase) : t("Round %(round)s of %(rounds)s", phase);
  else phaseLine = "";
  const fight = model.fight;
  let fightBox = null;
  if (fight) {
    fightBox = h(doc, "div", { className: "kf19-fight", "data-role": "fight" }, [
      h(doc, "p", { className: "kf19-fight-title", text: fightTitle(model, fight.attacker) }),
      h(doc, "div", { className: "kf19-fight-dice" }, fight.fighters.map(function (s) {
        const seat = model.seats[s];
        return h(doc, "div", { className: "kf19-fighter" + (s === fight.attacker ? " is-attacker" : "") }, [
          h(doc, "span", { className: "kf19-fighter-name", text: seat.name + (s === fight.attacker ? " · ATK" : " · DEF") + (seat.diceDone ? " ✓" : "") }),
          diceRowEl(doc, seat.dice || [], rolling, t("%(name)s rolled %(dice)s", { name: seat.name, dice: (seat.dice || []).join(", ") })),
        ]);
      })),
    ]);
  }
  const dummy = model.dummy ? h(doc, "div", { className: "kf19-dummy", "data-role": "dummy" }, [
    h(doc, "span", { className: "pile-label", text: t("The dummy · attacks with %(initiative)s", { initiative: initiativeOf(model.dummy) }) }),
    h(doc, "div", { className: "kf19-played-cards" }, model.dummy.map(function (c) { return cardEl(doc, c, "sm"); })),
  ]) : null;
  return h(doc, "div", { className: "board-center-inner kf19-center" }, [
    h(doc, "div", { className: "kf19-center-head" }, [
      h(doc, "strong", { className: "kf19-phase", text: phaseLine }),
      h(doc, "span", { className: "small muted", "data-role": "deck", text: t("Deck %(deck)s · out of play %(out)s", { deck: model.deckSize, out: model.discardSize }) }),
    ]),
    orderEl(doc, model),
    fightBox,
    dummy,
    lastFight ? lastFightEl(doc, model, lastFight) : null,
  ]);
}

/** The fight's heading: who attacks (the reader, another, the dummy); everyone rolls the dice. */
function fightTitle(model, seat) {
  const ctx = { names: model.names, viewer: model.viewer, useYou: model.useYou };
  const params = { name: seat === DUMMY ? "" : nameOf(ctx, seat), n: DATA.dice };
  if (seat === DUMMY) return tn("The dummy attacks: everyone rolls %(n)s die.", "The dummy attacks: everyone rolls %(n)s dice.", DATA.dice, params);
  return isYou(ctx, seat) ? tn("You attack: everyone rolls %(n)s die.", "You attack: everyone rolls %(n)s dice.", DATA.dice, params)
    : tn("%(name)s attacks: everyone rolls %(n)s die.", "%(name)s attacks: everyone rolls %(n)s dice.", DATA.dice, params);
}

function cardButton(doc, action, size, disabled, onAct) {
  return cardEl(doc, action.card, size, {
    onclick: function () { onAct(action); },
    "aria-label": action.text,
    className: "kf19-choice",
    disabled: disabled,
    "data-action": action.id,
  });
}

function actionButton(doc, action, text, disabled, onAct, className) {
  if (!action) return null;
  return h(doc, "button", {
    type: "button", className: "choice" + (className ? " " + className : ""), disabled: disabled,
    "data-action": action.id, title: action.text, onclick: function () { onAct(action); }, text: text,
  });
}

const COMMAND_TEXT = {
  auto: t("Best assignment, finish"),
  best: t("Load the best assignment"),
  done: t("Finish"),
  reset: t("Start again"),
  cancel: t("Drop this set"),
};

/** The dice tray: dice (with ▲▼ for the set being built), cards and their combinations, sets, commands. */
function trayEl(doc, a, onAct, disabled) {
  const dice = h(doc, "div", { className: "kf19-tray-dice", role: "group", "aria-label": t("Your dice") }, a.dice.map(function (d) {
    const cls = "kf19-die-" + d.index + (d.inOpen ? " in-open" : "") + (d.set !== null ? " in-set kf19-set-" + (d.set % 6) : "") + (d.changed ? " changed" : "");
    const params = { n: d.index + 1, value: d.value, rolled: d.rolled, set: d.set === null ? null : d.set + 1 };
    const main = d.changed ? t("Die %(n)s: %(value)s (rolled %(rolled)s)", params) : t("Die %(n)s: %(value)s", params);
    const where = d.set !== null ? t("in set %(set)s", params) : d.inOpen ? t("in the set being built") : null;
    const title = where ? joinPhrases([main, where]) : main;
    const face = d.action ? dieEl(doc, d.value, {
      onclick: function () { onAct(d.action); }, "data-action": d.action.id, disabled: disabled, title: d.action.text, className: "kf19-choice",
    }, cls) : dieEl(doc, d.value, { title: title }, cls);
    return h(doc, "div", { className: "kf19-tray-die" }, [
      face,
      h(doc, "span", { className: "kf19-die-note", text: d.set !== null ? t("set %(set)s", params) : d.changed ? t("was %(rolled)s", params) : "" }),
      d.up || d.down ? h(doc, "span", { className: "kf19-adjust" }, [
        actionButton(doc, d.up, "▲", disabled, onAct, "kf19-up"),
        actionButton(doc, d.down, "▼", disabled, onAct, "kf19-down"),
      ]) : null,
    ]);
  }));
  const cards = h(doc, "div", { className: "kf19-tray-cards" }, a.cards.map(function (c) {
    return h(doc, "div", { className: "kf19-tray-card" }, [
      h(doc, "span", { className: "kf19-tray-card-name", text: c.card ? c.card.name + " (" + c.card.initiative + ")" : c.code }),
      h(doc, "span", { className: "kf19-tray-combos" }, c.combos.map(function (combo) {
        const used = combo.text + (combo.sets ? " ×" + combo.sets : "");
        const label = combo.cross && combo.usable ? t("%(combo)s (always on)", { combo: used }) : used;
        if (combo.action) return actionButton(doc, combo.action, label, disabled, onAct, "kf19-set-choice" + (combo.open ? " open" : ""));
        return h(doc, "span", { className: "kf19-combo-static" + (combo.usable ? "" : " off") + (combo.sets || (combo.cross && combo.usable) ? " active" : "") + (combo.open ? " open" : ""), title: combo.usable ? "" : a.attacking ? t("works only when defending") : t("works only when attacking"), text: label });
      })),
    ]);
  }));
  const sets = a.sets.length ? h(doc, "ul", { className: "kf19-sets", "aria-label": t("Your sets") }, a.sets.map(function (s) {
    return h(doc, "li", { className: "kf19-set-row kf19-set-" + (s.index % 6) }, [
      h(doc, "span", { text: t("Set %(number)s: %(card)s, %(text)s (dice %(dice)s)", { number: s.index + 1, card: s.cardName, text: s.text, dice: s.values.join(" ") }) }),
      actionButton(doc, s.drop, t("Take back"), disabled, onAct, "small secondary"),
    ]);
  })) : null;
  const building = a.open ? tn("Building: %(card)s, %(combo)s · %(count)s of %(n)s die. Click dice to add them; ▲▼ spend %(points)s.",
    "Building: %(card)s, %(combo)s · %(count)s of %(n)s dice. Click dice to add them; ▲▼ spend %(points)s.", a.open.need,
    { card: a.open.cardName, combo: a.open.text, count: a.open.dice.length, n: a.open.need, points: a.points }) : "";
  const open = a.open ? h(doc, "p", { className: "kf19-open small", "data-role": "open-set" }, [building]) : null;
  const sofar = { total: a.total, hp: signed(a.extra), n: a.extra };
  let value;
  if (a.attacking) value = a.extra ? t("Attack so far: %(total)s ATK, %(hp)s HP", sofar) : t("Attack so far: %(total)s ATK", sofar);
  else value = a.extra ? tn("Defence so far: %(total)s DEF, %(n)s yin-yang", "Defence so far: %(total)s DEF, %(n)s yin-yangs", a.extra, sofar) : t("Defence so far: %(total)s DEF", sofar);
  const left = t("%(points)s left:", { points: a.points });
  return h(doc, "div", { className: "kf19-tray", "data-role": "tray" }, [
    h(doc, "p", { className: "kf19-tray-head" }, [
      h(doc, "strong", { text: a.attacking ? t("You attack") : t("You defend") }),
      " · " + left + " ",
      h(doc, "strong", { "data-role": "points-left", text: t("%(left)s of %(budget)s", { left: a.left, budget: a.budget }) }),
      " · " + value,
    ]),
    dice,
    open,
    cards,
    sets,
    h(doc, "div", { className: "kf19-commands" }, a.commands.map(function (c) {
      return actionButton(doc, c, COMMAND_TEXT[c.id] || c.text, disabled, onAct, c.id === "auto" ? "kf19-auto" : c.id === "done" ? "kf19-done" : "secondary");
    }).concat(a.rest.map(function (c) { return actionButton(doc, c, c.text, disabled, onAct, "secondary"); }))),
  ]);
}

function actionsEl(doc, model, onAct, disabled) {
  const wrap = h(doc, "div", { className: "actions" });
  if (model.retract.length) {
    wrap.appendChild(actionGroupEl(doc, { kind: "choice", title: t("Change your mind (until everyone has chosen)") }, model.retract.map(function (a) {
      const text = a.type === "reopen" ? t("Change my dice") : a.cardInfo ? t("Take back %(card)s", { card: a.cardInfo.name }) : t("Take back the card");
      return actionButton(doc, a, text, disabled, onAct, "secondary kf19-retract");
    }), "kf19-retract-group"));
  }
  model.groups.forEach(function (group) {
    let items;
    if (group.kind === "assign") {
      if (!model.assign) {
        items = group.actions.map(function (a) { return actionButton(doc, a, a.text, disabled, onAct); });
      } else {
        items = [trayEl(doc, model.assign, onAct, disabled)];
      }
    } else {
      items = group.actions.map(function (action) {
        return action.cardInfo ? cardButton(doc, action, "md", disabled, onAct) : actionButton(doc, action, action.text, disabled, onAct);
      });
    }
    wrap.appendChild(actionGroupEl(doc, group, items, group.kind === "assign" ? "kf19-assign-group" : "kf19-cards-group"));
  });
  return wrap;
}

function renderBoard(root, model, opts) {
  opts = opts || {};
  const doc = root.ownerDocument;
  const slot = function (name) { return root.querySelector('[data-role="' + name + '"]'); };
  // Dice roll in once per attack: the first frame of a new fight animates them.
  let rolling = false;
  const ds = root.dataset || {};
  if (model.fight && ds.kf19Rolled !== model.fight.key) {
    rolling = !opts.readOnly;
    ds.kf19Rolled = model.fight.key;
  }
  // The last attack's result stays in view until the next round.
  if (model.lastFight) {
    root.kf19LastFight = model.lastFight;
  }
  const last = root.kf19LastFight && root.kf19LastFight.round === model.round ? root.kf19LastFight : null;
  const clocks = model.status === "active";
  const opponents = slot("opponents");
  if (opponents) {
    clear(opponents);
    model.seats.forEach(function (seat) {
      if (seat.seat !== model.viewer) opponents.appendChild(seatEl(doc, model, seat, { clocks: clocks, noYou: !model.useYou, rolling: rolling }));
    });
  }
  const center = slot("center");
  if (center) clear(center).appendChild(centerEl(doc, model, rolling, last));
  const you = slot("you");
  const onAct = opts.onAct;
  const disabled = !!opts.pending;
  if (you) {
    clear(you);
    you.hidden = model.viewer === null;
    if (model.viewer !== null) {
      const me = model.seats[model.viewer];
      you.appendChild(seatEl(doc, model, me, { clocks: clocks, noYou: !model.useYou, rolling: rolling }));
      const byCard = {};
      model.groups.forEach(function (g) {
        if (g.kind === "cards") g.actions.forEach(function (a) { byCard[a.card] = a; });
      });
      const show = function (codes) {
        return codes.map(function (code) {
          const action = onAct ? byCard[code] : null;
          return action ? cardButton(doc, action, "lg", disabled, onAct) : cardEl(doc, code, "lg");
        });
      };
      const area = [];
      if (model.pack && model.pack.length) {
        area.push(h(doc, "div", { className: "kf19-area", "data-role": "my-pack" }, [
          h(doc, "h3", { className: "pile-label", text: t("Your pack: keep one") }),
          h(doc, "div", { className: "my-hand kf19-hand" }, show(model.pack)),
        ]));
      }
      if (model.pick) {
        area.push(h(doc, "p", { className: "small", text: t("You keep %(card)s; waiting for the others to choose.", { card: cardName(model.pick) }) }));
      }
      if (model.myCommits && model.myCommits.length) {
        area.push(h(doc, "div", { className: "kf19-area", "data-role": "my-commits" }, [
          h(doc, "h3", { className: "pile-label", text: t("Committed (hidden from the others until everyone has chosen)") }),
          h(doc, "div", { className: "my-hand kf19-hand" }, model.myCommits.map(function (c) { return cardEl(doc, c, "md"); })),
        ]));
      }
      const hand = model.hand || [];
      area.push(h(doc, "div", { className: "kf19-area", role: "group", "aria-label": t("Your hand") }, [
        h(doc, "h3", { className: "pile-label", text: model.phase === "draft" ? t("Kept so far") : t("Your hand") }),
        h(doc, "div", { className: "my-hand kf19-hand", "data-role": "my-hand" },
          hand.length ? show(hand) : [h(doc, "span", { className: "muted small", text: model.phase === "draft" ? t("Nothing kept yet.") : t("Your hand is empty.") })]),
      ]));
      you.appendChild(h(doc, "div", { className: "kf19-you" }, area));
    }
  }
  const controls = (model.groups.length || model.retract.length) && onAct ? actionsEl(doc, model, onAct, disabled) : null;
  renderPanel(root, model, opts, controls, model.phase === "draft" ? t("Draft") : model.round ? t("Round %(number)s of %(total)s", { number: model.round, total: model.rounds }) : "");
  return model;
}

function resultsEl(doc, res, opts) {
  const table = resultsTableEl(doc, res, [{ title: "HP", value: (row) => row.hp }], (row) => (row.eliminated ? " (knocked out)" : ""));
  const because = res.gameReason ? t("The game ended because %(reason)s.", { reason: res.gameReason }) : "";
  const reason = [res.endReason, because].join(" ").trim();
  return resultsPanelEl(doc, res, reason, table, opts || {});
}

/** Under the table: what the icons, combinations and symbols mean. */
function renderCardReference(container, players) {
  if (!container) return;
  const doc = container.ownerDocument;
  clear(container);
  const start = DATA.start_hp[String(players)];
  const rows = STATS.map(function (k) { return [STAT_NAME[k], iconReference(k)]; });
  rows.push([t("Initiative"), t("The number on each card. Your three cards' total sets the attack order: the lowest total attacks first.")]);
  rows.push([t("Combinations"), t("Sets of dice you assign to a card: a single face (\"4/5/6\"), pairs, three of a kind, straights, sums over or under a number. Each set activates the effect once; several sets may go on one card.")]);
  rows.push([t("✚ Red cross"), t("Active without dice, once, when the card is played in the right role.")]);
  rows.push([t("Attack / defence"), t("ATK, HIT and HP effects work only when you attack; DEF, AVO and the yin-yang only when you defend.")]);
  rows.push([t("Yin-yang"), t("1 damage to the attacker (never knocks the attacker out; nothing if you are knocked out).")]);
  rows.push([t("HIT / AVO"), t("Each point turns one die up or down by one (a 1 into a 6 costs 5).")]);
  if (start) rows.push([t("Starting HP"), t("%(hp)s at %(players)s players, plus the HP track.", { hp: start, players: players })]);
  container.appendChild(h(doc, "table", { className: "card-ref" }, [
    h(doc, "thead", {}, [h(doc, "tr", {}, [h(doc, "th", { text: t("Symbol") }), h(doc, "th", { text: t("What it means") })])]),
    h(doc, "tbody", {}, rows.map(function (r) { return h(doc, "tr", {}, [h(doc, "td", {}, [h(doc, "strong", { text: r[0] })]), h(doc, "td", { text: r[1] })]); })),
  ]));
}

/** The table in words for the screen-reader mode: one line per fact. */
function describeBoard(model) {
  const lines = describeSeats(model, function (s) {
    return [
      s.eliminated ? t("knocked out") : null,
      s.hp === null ? null : t("%(hp)s HP", { hp: s.hp }),
      s.status ? t("status %(stats)s", { stats: statusText(s.status) }) : null,
      tn("%(n)s card in hand", "%(n)s cards in hand", s.handSize, { n: s.handSize }),
      s.picked === true ? t("has picked") : null,
      s.committed ? tn("%(n)s card chosen", "%(n)s cards chosen", s.committed, { n: s.committed }) : null,
      s.played && s.played.length ? t("played %(cards)s (initiative %(n)s)", { cards: cardList(s.played), n: s.initiative }) : null,
      s.attacker ? t("attacking") : s.fighter ? t("in the fight") : null,
      s.dice ? t("dice %(dice)s", { dice: s.dice.join(", ") }) : null,
    ];
  });
  if (model.dummy && model.dummy.length) {
    lines.push(t("The dummy plays %(cards)s (initiative %(n)s).", { cards: cardList(model.dummy), n: initiativeOf(model.dummy) }));
  }
  if (model.order.length) {
    const order = model.order.map(function (o) {
      const name = o.total !== null && o.total !== undefined ? t("%(name)s (%(total)s)", { name: o.name, total: o.total }) : o.name;
      return o.current ? t("%(name)s, attacking now", { name: name }) : o.out ? t("%(name)s, out", { name: name }) : name;
    });
    lines.push(t("Attack order: %(order)s.", { order: order.join("; ") }));
  }
  lines.push(tn("Deck: %(n)s card.", "Deck: %(n)s cards.", model.deckSize, { n: model.deckSize }) + " " +
    tn("Discard pile: %(n)s card.", "Discard pile: %(n)s cards.", model.discardSize, { n: model.discardSize }));
  if (model.pack && model.pack.length) {
    lines.push(viewerLine(model, N_("Your pack to pick from: %(cards)s."), N_("%(name)s's pack to pick from: %(cards)s."), { cards: cardList(model.pack) }));
  }
  if (model.myCommits && model.myCommits.length) {
    lines.push(viewerLine(model, N_("Your cards chosen: %(cards)s."), N_("%(name)s's cards chosen: %(cards)s."), { cards: cardList(model.myCommits) }));
  }
  if (model.hand) lines.push(viewerLine(model, N_("Your hand: %(cards)s."), N_("%(name)s's hand: %(cards)s."), { cards: cardList(model.hand) }));
  return lines;
}

function dealText(players) {
  return tn("Ten cards are dealt to each of the %(n)s player for the draft.", "Ten cards are dealt to each of the %(n)s players for the draft.", players, { n: players });
}

export {
  GROUP_TITLES,
  actionText, PRIVATE, PRIVATE_THIRD, stepThird,
  PROMPTS, PHASE_WAIT,
  describeBoard,
  EVENT_TYPES,
  CARDS,
  DUMMY,
  cardInfo,
  cardName,
  cardList,
  cardText,
  COMBO_KINDS,
  EFFECT_TEXTS,
  comboNeed,
  comboText,
  effectLabel,
  STAT_HELP,
  iconReference,
  trackTitle,
  formatEvent,
  formatSteps,
  groupLegal,
  autoAction,
  describeAction,
  boardModel,
  resultModel,
  dealText,
  cardEl,
  dieEl,
  renderBoard,
  renderCardReference,
  resultsEl,
};
