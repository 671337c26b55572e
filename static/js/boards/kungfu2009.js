/*
 * Kung Fu (2009), the real-time trading game: pure functions from a server
 * frame (or a replay step) to plain data, plus small DOM renderers for that data.
 *
 * Used by the live match page (live-match.js), the replay viewer (replay.js)
 * and the node unit tests (tests/frontend/kungfu2009.test.js). There are no
 * turns: every seat in play may act at any moment, so the board shows the
 * whole menu of intents at once: the hand (drag a card onto another place, or
 * select it by click/tap/keyboard and move it with the arrows) for the
 * arrangement, the offer composer (drag or pick cards to give, declare them
 * as something else for innocent cheating, ask for styles, open cards), the
 * offers to you with one-click accept and decline, your own offers with
 * withdraw, a KUNG FU button for every face-up combination your arranged hand
 * makes, the impasse vote, the severe punishment choice and the pause while a
 * claim is checked. An offer is composed here and sent as the engine's steps
 * (to, give, say, want, open, send) through the page's plan, one at a time as
 * the server allows them.
 *
 * Everything a seat may not know is absent from its frame (the engine builds
 * observations from an allow-list): other hands appear as sizes, other offers'
 * real cards only when played open, cards drawn during a pause as "unseen".
 * The combination cards (public: the rules page prints them) come from
 * boards/data/kungfu2009-cards.js, which manage.py build_board_data writes from
 * the engine's card data (gameplay/rules/kungfu2009/catalogue.py).
 *
 * What every board shares (names, log, clocks, seed check, side panel,
 * results, DOM helpers) is imported from boards/common.js.
 */

import {
  actionGroupEl, capitalize, cardListText, isYou, nameOf, viewerLine, clear, describeSeats, emptyPileEl, eventFormatter,
  frameBasics, h, isPerSeatPrivate, modelBase, namedSeats, objectName, ordinal, platformSeat,
  presenceEl, renderPanel, resultModel as commonResultModel,
  resultsPanelEl, resultsTableEl, seatName, seatScore, stepsFormatter,
  tickDue, winnersText,
} from "./common.js";
import DATA from "./data/kungfu2009-cards.js";
import { t, tn } from "../i18n.js";

/** Marks a message translated where it is shown (t(variable)); the extractor knows it. */
const N_ = (text) => text;

const STYLES = DATA.styles; // ["T", "M", "C", "R", "D"]
const STYLE_NAME = DATA.style_names;
const WILD = DATA.wild;
const LEVELS = DATA.level_order; // ["easy", "normal", "difficult"]
const LEVEL = DATA.levels;
const COMBOS = {};
DATA.combinations.forEach(function (c) { COMBOS[c.code] = c; });
// The landscape on each level's card backs (translated where shown).
const BACKGROUND = { easy: N_("jungle"), normal: N_("steppe"), difficult: N_("mountains") };

// ---------------------------------------------------------------------------
// Cards and combinations.

function styleName(s) {
  return STYLE_NAME[s] || t("a card");
}

/** "Tiger, Tiger, Crab" for a string (or list) of styles. */
function cardList(cards) {
  return cardListText(typeof cards === "string" ? cards.split("") : cards, styleName);
}

function comboInfo(code) {
  return COMBOS[code] || null;
}

// A pile's level as a word of a sentence (the piles' own titles are LEVEL[lv].name).
const LEVEL_WORD = { easy: N_("easy"), normal: N_("normal"), difficult: N_("difficult") };

function levelWord(lv) {
  return LEVEL_WORD[lv] ? t(LEVEL_WORD[lv]) : String(lv);
}

// A pile's own title (the card data's English LEVEL[lv].name, word for word).
const LEVEL_TITLE = { easy: N_("Easy"), normal: N_("Normal"), difficult: N_("Difficult") };

function levelTitle(lv) {
  return LEVEL_TITLE[lv] ? t(LEVEL_TITLE[lv]) : LEVEL[lv] ? LEVEL[lv].name : String(lv);
}

/** A combination's hits left to right: "Tiger Tiger Crab Crane" (the card data's label). */
function hitsText(hits) {
  return hits.split("").map(styleName).join(" ");
}

/** A combination card's title: code, level, points and its hits. */
function comboTitle(c) {
  return tn("%(code)s: %(level)s, %(n)s point, %(hits)s", "%(code)s: %(level)s, %(n)s points, %(hits)s", c.points,
    { code: c.code, level: levelWord(c.level), n: c.points, hits: hitsText(c.hits) });
}

function comboName(code) {
  const c = comboInfo(code);
  if (!c) return t("a combination");
  return tn("%(code)s (%(level)s, %(n)s point)", "%(code)s (%(level)s, %(n)s points)", c.points,
    { code: c.code, level: levelWord(c.level), n: c.points });
}

/** Do `cards`, read left to right, make `hits` (each the printed style or a Dragon)? */
function makes(cards, hits) {
  if (!cards || cards.length !== hits.length) return false;
  for (let i = 0; i < hits.length; i++) {
    if (cards[i] !== hits[i] && cards[i] !== WILD) return false;
  }
  return true;
}

/** Cards missing from `hand` to make `hits` (Dragons fill gaps). */
function distance(hand, hits) {
  let missing = 0;
  const count = function (s, x) { return s.split(x).length - 1; };
  Object.keys(hits.split("").reduce(function (o, x) { o[x] = 1; return o; }, {})).forEach(function (x) {
    const short = count(hits, x) - count(hand, x);
    if (short > 0) missing += short;
  });
  return Math.max(0, missing - count(hand, WILD));
}

// ---------------------------------------------------------------------------
// Names.

function who(ctx, seat) {
  return seat === null || seat === undefined ? "The table" : seatName(ctx, seat);
}

/** Engine reasons name seats as "seat 2": use the names. */
function namedReason(ctx, text) {
  return String(text || "").replace(/\bseat (\d+)/g, function (_, n) { return objectName(ctx, Number(n)); });
}

function partnerText(ctx, to) {
  return to === null || to === undefined ? t("everyone") : isYou(ctx, to) ? t("you") : nameOf(ctx, to);
}

function offerTerms(declared, want) {
  const gives = declared ? cardList(declared) : t("nothing");
  const asks = want ? cardList(want) : t("nothing");
  return t("%(gives)s for %(asks)s", { gives: gives, asks: asks });
}

const GAME_REASONS = {
  pile_completed: t("the last combination of a pile was completed"),
  impasse_limit: t("the exam was stuck: too many impasses in a row"),
  time: t("the match's time was up"),
};

/**
 * A sentence about one seat as a whole message per person: the reader's own
 * ("You draw"), another's ("%(name)s draws"), or the table's (no seat).
 */
function said(ctx, seat, you, other, params, table) {
  if ((seat === null || seat === undefined) && table) return t(table, params);
  return isYou(ctx, seat) ? t(you, params) : t(other, Object.assign({ name: nameOf(ctx, seat) }, params));
}

// ---------------------------------------------------------------------------
// Events -> log sentences (one whole message per person, docs/i18n.md).

/** Why an offer went off (the engine's ``offer_void`` ``why``): the reader's
 * own sentence and another's. */
const VOID_REASONS = {
  traded: [N_("Offer %(id)s is off: you traded the cards away."), N_("Offer %(id)s is off: %(name)s traded the cards away.")],
  claimed: [N_("Offer %(id)s is off: you put the cards down for a claim."), N_("Offer %(id)s is off: %(name)s put the cards down for a claim.")],
  out_of_play: [N_("Offer %(id)s is off: you are out of play."), N_("Offer %(id)s is off: %(name)s is out of play.")],
};

const PUBLIC = {
  draft: function () { return t("An offer is being prepared."); },
  arrange: function (p, ctx) { return said(ctx, p.seat, N_("You rearrange your hand."), N_("%(name)s rearranges their hand.")); },
  offer: function (p, ctx) {
    const params = { name: nameOf(ctx, p.from), other: nameOf(ctx, p.to), terms: offerTerms(p.declared, p.want), id: p.id };
    let text;
    if (p.to === null || p.to === undefined) {
      text = said(ctx, p.from, N_("You offer everyone: %(terms)s (offer %(id)s)."), N_("%(name)s offers everyone: %(terms)s (offer %(id)s)."), params);
    } else if (isYou(ctx, p.from)) {
      text = t("You offer %(other)s: %(terms)s (offer %(id)s).", params);
    } else if (isYou(ctx, p.to)) {
      text = t("%(name)s offers you: %(terms)s (offer %(id)s).", params);
    } else {
      text = t("%(name)s offers %(other)s: %(terms)s (offer %(id)s).", params);
    }
    if (p.open && p.cards !== null && p.cards !== undefined) text += " " + t("Open cards: %(cards)s.", { cards: cardList(p.cards) });
    return text;
  },
  offer_void: function (p, ctx) {
    // The engine's code for why (``why``) and the seat that caused it; an
    // event stored before the engine gave codes has the English reason only.
    const words = VOID_REASONS[p.why];
    if (words) return said(ctx, p.seat, words[0], words[1], { id: p.offer });
    return t("Offer %(id)s is off: %(reason)s.", { id: p.offer, reason: namedReason(ctx, p.reason) });
  },
  offer_declined: function (p, ctx) { return said(ctx, p.seat, N_("You decline offer %(id)s."), N_("%(name)s declines offer %(id)s."), { id: p.offer }); },
  offer_withdrawn: function (p, ctx) { return said(ctx, p.seat, N_("You withdraw offer %(id)s."), N_("%(name)s withdraws offer %(id)s."), { id: p.offer }); },
  trade: function (p, ctx) {
    let gives = t("nothing");
    if (p.declared) gives = p.open ? cardList(p.declared) : t("declared %(cards)s", { cards: cardList(p.declared) });
    const terms = t("%(gives)s for %(asks)s", { gives: gives, asks: p.want ? cardList(p.want) : t("nothing") });
    const params = { name: nameOf(ctx, p.to), other: nameOf(ctx, p.from), id: p.offer, terms: terms };
    if (isYou(ctx, p.to)) return t("You accept offer %(id)s from %(other)s: %(terms)s.", params);
    if (isYou(ctx, p.from)) return t("%(name)s accepts offer %(id)s from you: %(terms)s.", params);
    return t("%(name)s accepts offer %(id)s from %(other)s: %(terms)s.", params);
  },
  claim: function (p, ctx) {
    const params = { combo: comboName(p.code), cards: cardList(p.cards), place: ordinal(p.position) };
    return p.queued
      ? said(ctx, p.seat, N_("KUNG FU! You claim %(combo)s with %(cards)s and wait behind the claim being checked (%(place)s in line)."),
        N_("KUNG FU! %(name)s claims %(combo)s with %(cards)s and waits behind the claim being checked (%(place)s in line)."), params)
      : said(ctx, p.seat, N_("KUNG FU! You claim %(combo)s with %(cards)s: the game pauses."),
        N_("KUNG FU! %(name)s claims %(combo)s with %(cards)s: the game pauses."), params);
  },
  claim_correct: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), code: p.combination.code, n: p.points };
    return isYou(ctx, p.seat)
      ? tn("Correct: you complete %(code)s (+%(n)s point).", "Correct: you complete %(code)s (+%(n)s points).", p.points, params)
      : tn("Correct: %(name)s completes %(code)s (+%(n)s point).", "Correct: %(name)s completes %(code)s (+%(n)s points).", p.points, params);
  },
  claim_wrong: function (p, ctx) {
    const n = p.discarded.length;
    const params = { name: nameOf(ctx, p.seat), n: n };
    let out;
    if (p.severe) {
      out = isYou(ctx, p.seat)
        ? tn("You discard %(n)s card and are out of play until another player completes a combination, and lose a completed combination (severe punishment).",
          "You discard %(n)s cards and are out of play until another player completes a combination, and lose a completed combination (severe punishment).", n, params)
        : tn("%(name)s discards %(n)s card and is out of play until another player completes a combination, and loses a completed combination (severe punishment).",
          "%(name)s discards %(n)s cards and is out of play until another player completes a combination, and loses a completed combination (severe punishment).", n, params);
    } else {
      out = isYou(ctx, p.seat)
        ? tn("You discard %(n)s card and are out of play until another player completes a combination.",
          "You discard %(n)s cards and are out of play until another player completes a combination.", n, params)
        : tn("%(name)s discards %(n)s card and is out of play until another player completes a combination.",
          "%(name)s discards %(n)s cards and is out of play until another player completes a combination.", n, params);
    }
    return t("Wrong: %(cards)s do not make %(code)s.", { cards: cardList(p.cards), code: p.combination.code }) + " " + out;
  },
  claim_void: function (p, ctx) {
    return said(ctx, p.seat, N_("Your claim for %(code)s is void: it was taken first. The cards go back to the hand."),
      N_("%(name)s's claim for %(code)s is void: it was taken first. The cards go back to the hand."), { code: p.code });
  },
  draw: function (p, ctx) {
    const params = { name: nameOf(ctx, p.seat), n: p.cards };
    return isYou(ctx, p.seat)
      ? tn("You draw %(n)s card (unseen until play resumes).", "You draw %(n)s cards (unseen until play resumes).", p.cards, params)
      : tn("%(name)s draws %(n)s card (unseen until play resumes).", "%(name)s draws %(n)s cards (unseen until play resumes).", p.cards, params);
  },
  reveal: function (p) {
    const c = p.combination;
    const params = c ? { code: c.code, label: c.label } : {};
    if (p.level === "easy") return c ? t("New easy combination: %(code)s (%(label)s).", params) : t("The easy pile is empty.");
    if (p.level === "normal") return c ? t("New normal combination: %(code)s (%(label)s).", params) : t("The normal pile is empty.");
    return c ? t("New difficult combination: %(code)s (%(label)s).", params) : t("The difficult pile is empty.");
  },
  reshuffle: function (p) {
    return tn("The hit pile ran out: the discard pile (%(n)s card) is shuffled into a new one.",
      "The hit pile ran out: the discard pile (%(n)s cards) is shuffled into a new one.", p.cards, { n: p.cards });
  },
  impasse_vote: function (p, ctx) {
    return p.vote
      ? said(ctx, p.seat, N_("You vote for an impasse."), N_("%(name)s votes for an impasse."))
      : said(ctx, p.seat, N_("You take back the impasse vote."), N_("%(name)s takes back the impasse vote."));
  },
  impasse: function (p) {
    const codes = LEVELS.map(function (lv) { return p.face_up[lv] ? p.face_up[lv].code : null; }).filter(Boolean);
    const fresh = codes.length ? codes.join(", ") : t("none");
    return t("Impasse (%(place)s in a row): the combinations go to the bottom of their piles. New ones: %(codes)s.",
      { place: ordinal(p.count), codes: fresh });
  },
  forfeit: function (p, ctx) {
    const params = { combo: comboName(p.combination.code) };
    return p.reason === "default"
      ? said(ctx, p.seat, N_("You give up %(combo)s (the least valuable, by default)."), N_("%(name)s gives up %(combo)s (the least valuable, by default)."), params)
      : said(ctx, p.seat, N_("You give up %(combo)s."), N_("%(name)s gives up %(combo)s."), params);
  },
  back_in_play: function (p, ctx) { return said(ctx, p.seat, N_("You are back in play."), N_("%(name)s is back in play.")); },
  all_out: function () { return t("Everyone was out of play: all are back in, with fresh cards."); },
  game_over: function (p, ctx) {
    const winners = winnersText(ctx, p.winners, t("share the win"));
    return t("Game over: %(winners)s (%(reason)s).", { winners: winners, reason: GAME_REASONS[p.reason] || p.reason });
  },
  resume: function () { return t("Play resumes."); },
};

const PRIVATE = {
  draft: function (s, p, ctx) {
    const d = s.draft;
    if (!d) return t("You dropped the offer you were building.");
    let gives = t("nothing yet");
    if (d.give) gives = d.say !== d.give ? t("%(cards)s (declared as %(said)s)", { cards: cardList(d.give), said: cardList(d.say) }) : cardList(d.give);
    const params = { to: partnerText(ctx, d.to < 0 ? null : d.to), gives: gives, asks: d.want ? cardList(d.want) : t("nothing yet") };
    return d.open
      ? t("Your offer to %(to)s so far: gives %(gives)s, asks %(asks)s, open cards.", params)
      : t("Your offer to %(to)s so far: gives %(gives)s, asks %(asks)s.", params);
  },
  arrange: function (s) { return t("Your hand, left to right: %(cards)s.", { cards: cardList(s.hand) }); },
  offer: function (s, p) { return t("Your offer %(id)s really hands over %(cards)s.", { id: p.id, cards: cardList(s.cards) }); },
  trade: function (s) {
    const params = { received: cardList(s.received), gave: cardList(s.gave), declared: s.declared ? cardList(s.declared) : "" };
    if (s.cheated !== undefined) {
      if (s.cheated) return t("Innocent cheating! You received %(received)s instead of the declared %(declared)s, and gave %(gave)s.", params);
      return t("You received %(received)s and gave %(gave)s.", params);
    }
    return t("You handed over %(gave)s and received %(received)s.", params);
  },
  resume: function (s) { return t("Your new cards: %(cards)s.", { cards: cardList(s.cards) }); },
};

// What a seat alone saw, in the third person, for a replay that names every
// seat: messages of their own (docs/i18n.md), never the reader's sentence reworded.
const PRIVATE_THIRD = {
  draft: function (s, p, ctx, owner) {
    const d = s.draft;
    const name = nameOf(ctx, owner);
    if (!d) return t("%(name)s dropped the offer being built.", { name: name });
    let gives = t("nothing yet");
    if (d.give) gives = d.say !== d.give ? t("%(cards)s (declared as %(said)s)", { cards: cardList(d.give), said: cardList(d.say) }) : cardList(d.give);
    const third = Object.assign({}, ctx, { useYou: false });
    const params = { name: name, to: partnerText(third, d.to < 0 ? null : d.to), gives: gives, asks: d.want ? cardList(d.want) : t("nothing yet") };
    return d.open
      ? t("%(name)s's offer to %(to)s so far: gives %(gives)s, asks %(asks)s, open cards.", params)
      : t("%(name)s's offer to %(to)s so far: gives %(gives)s, asks %(asks)s.", params);
  },
  arrange: function (s, p, ctx, owner) { return t("%(name)s's hand, left to right: %(cards)s.", { name: nameOf(ctx, owner), cards: cardList(s.hand) }); },
  offer: function (s, p, ctx, owner) { return t("%(name)s's offer %(id)s really hands over %(cards)s.", { name: nameOf(ctx, owner), id: p.id, cards: cardList(s.cards) }); },
  trade: function (s, p, ctx, owner) {
    const params = { name: nameOf(ctx, owner), received: cardList(s.received), gave: cardList(s.gave), declared: s.declared ? cardList(s.declared) : "" };
    if (s.cheated !== undefined) {
      if (s.cheated) return t("Innocent cheating! %(name)s received %(received)s instead of the declared %(declared)s, and gave %(gave)s.", params);
      return t("%(name)s received %(received)s and gave %(gave)s.", params);
    }
    return t("%(name)s handed over %(gave)s and received %(received)s.", params);
  },
  resume: function (s, p, ctx, owner) { return t("%(name)s's new cards: %(cards)s.", { name: nameOf(ctx, owner), cards: cardList(s.cards) }); },
};

const EVENT_TYPES = Object.keys(PUBLIC).sort();

const formatEvent = eventFormatter(PUBLIC, PRIVATE, null, PRIVATE_THIRD);
// The log leaves out the steps of building an offer and others' rearranging
// (many a second at a busy table); the offer itself and one's own hand are logged.
const QUIET = { draft: "public", arrange: "public" };
// One's own rearrangements (and the steps of an offer being built) fold into
// one line while nothing else happens in between: renderLog replaces the last
// line of the same fold instead of adding one, so trades and claims stay in view.
const FOLD = { arrange: "kf09-arrange", draft: "kf09-draft" };
const formatGameSteps = stepsFormatter(function (ev, ctx) {
  return formatEvent(ev, ctx).filter(function (entry) { return QUIET[entry.type] !== entry.scope; }).map(function (entry) {
    if (FOLD[entry.type] && entry.scope !== "public") entry.fold = FOLD[entry.type] + ":" + (entry.seat === undefined ? "" : entry.seat);
    return entry;
  });
});

/**
 * A seat's timer step says which timer ran out (there is no per-move clock
 * here, so "the clock ran out" would point at a clock nobody sees): an
 * offer left unanswered, a severe choice not made, one's own offer left
 * half-built. Another seat's half-built offer is its secret: "its timer".
 */
function timeoutText(step, ctx) {
  const types = (step.events || []).map(function (ev) { return ev.type; });
  const declined = (step.events || []).find(function (ev) { return ev.type === "offer_declined"; });
  if (declined) {
    return said(ctx, step.seat, N_("You did not answer offer %(id)s within 20 s: it is declined."),
      N_("%(name)s did not answer offer %(id)s within 20 s: it is declined."), { id: declined.public.offer });
  }
  if (types.indexOf("forfeit") >= 0) {
    return said(ctx, step.seat, N_("You did not choose within 15 s: the least valuable combination is lost."),
      N_("%(name)s did not choose within 15 s: the least valuable combination is lost."));
  }
  if (types.indexOf("draft") >= 0 && ctx.viewer === step.seat) return t("Your offer being built was dropped: 30 s without a step.");
  return said(ctx, step.seat, N_("Your timer ran out."), N_("%(name)s's timer ran out."));
}

function formatSteps(steps, ctx) {
  const out = [];
  (steps || []).forEach(function (step) {
    if (step.kind !== "timeout") { out.push.apply(out, formatGameSteps([step], ctx)); return; }
    out.push({ scope: "public", type: "timeout", version: step.version, known: true, text: timeoutText(step, ctx) });
    out.push.apply(out, formatGameSteps([Object.assign({}, step, { kind: "move" })], ctx));
  });
  return out;
}

// ---------------------------------------------------------------------------
// Decisions.

function describeAction(actionId, actor, ctx, fallback) {
  if (!actionId) return fallback || "";
  const parts = String(actionId).split(":");
  const kind = parts[0], arg = parts[1];
  const hide = !!ctx.hideCards;
  const say = function (you, other, params) { return said(ctx, actor, you, other, params); };
  const offer = { id: arg };
  switch (kind) {
    case "pass": return say(N_("You wait."), N_("%(name)s waits."));
    case "check": return t("The table checks the claim on the table.");
    case "end": return t("The match's time is up: the game is scored as it stands.");
    case "to": {
      if (arg === "all") return say(N_("You start an offer to everyone."), N_("%(name)s starts an offer to everyone."));
      const to = Number(arg);
      const params = { name: nameOf(ctx, actor), other: nameOf(ctx, to) };
      if (isYou(ctx, actor)) return t("You start an offer to %(other)s.", params);
      if (isYou(ctx, to)) return t("%(name)s starts an offer to you.", params);
      return t("%(name)s starts an offer to %(other)s.", params);
    }
    case "give":
      if (hide) return say(N_("You add a card to the offer."), N_("%(name)s adds a card to the offer."));
      if (parts[2]) {
        return say(N_("You add a %(style)s declared as a %(said)s to the offer."), N_("%(name)s adds a %(style)s declared as a %(said)s to the offer."),
          { style: styleName(arg), said: styleName(parts[2]) });
      }
      return say(N_("You add a %(style)s to the offer."), N_("%(name)s adds a %(style)s to the offer."), { style: styleName(arg) });
    case "say":
      return hide ? say(N_("You declare a card."), N_("%(name)s declares a card."))
        : say(N_("You declare the last card given as a %(style)s."), N_("%(name)s declares the last card given as a %(style)s."), { style: styleName(arg) });
    case "want":
      return hide ? say(N_("You ask for a card in the offer."), N_("%(name)s asks for a card in the offer."))
        : say(N_("You ask for a %(style)s in the offer."), N_("%(name)s asks for a %(style)s in the offer."), { style: styleName(arg) });
    case "open": return say(N_("You play the offer with open cards."), N_("%(name)s plays the offer with open cards."));
    case "send": return say(N_("You make the offer."), N_("%(name)s makes the offer."));
    case "cancel": return say(N_("You drop the offer being built."), N_("%(name)s drops the offer being built."));
    case "accept": return say(N_("You accept offer %(id)s."), N_("%(name)s accepts offer %(id)s."), offer);
    case "decline": return say(N_("You decline offer %(id)s."), N_("%(name)s declines offer %(id)s."), offer);
    case "withdraw": return say(N_("You withdraw offer %(id)s."), N_("%(name)s withdraws offer %(id)s."), offer);
    case "move":
      return say(N_("You move card %(card)s to position %(position)s."), N_("%(name)s moves card %(card)s to position %(position)s."),
        { card: Number(arg) + 1, position: Number(parts[2]) + 1 });
    case "fit": return say(N_("You arrange the hand for the %(code)s combination."), N_("%(name)s arranges the hand for the %(code)s combination."), { code: arg });
    case "claim": return say(N_("You shout KUNG FU for the %(code)s combination."), N_("%(name)s shouts KUNG FU for the %(code)s combination."), { code: arg });
    case "impasse":
      return arg === "no" ? say(N_("You take back the impasse vote."), N_("%(name)s takes back the impasse vote."))
        : say(N_("You vote for an impasse."), N_("%(name)s votes for an impasse."));
    case "forfeit": return say(N_("You give up %(combo)s."), N_("%(name)s gives up %(combo)s."), { combo: comboName(arg) });
    default: return fallback || String(actionId);
  }
}

/*
 * The engine's action labels in the reader's language. The engine words
 * action.label in English (it knows no Django; bots and the API read it); the
 * board words every label it shows from the action's type and parameters, one
 * whole message each (card and combination names stay English), naming people
 * instead of seat numbers. The node test
 * (tests/frontend/log-languages.test.js) holds every kind of label the engine
 * makes to a message here, word for word in English (one's own offer is "your
 * offer": LABELS_OWN_WORDS).
 */
const FIXED_LABELS = {
  pass: N_("Do nothing for now"),
  check: N_("Check the claim being shown"),
  end: N_("End the match (time is up)"),
  open: N_("Play this offer with open cards"),
  send: N_("Make the offer"),
  cancel: N_("Drop the offer being built"),
};
const LABELS_OWN_WORDS = ["withdraw"];
// A combination's level inside a label (translated where it is said).
const LABEL_LEVELS = { easy: N_("easy"), normal: N_("normal"), difficult: N_("difficult") };

/** The cards of an offer's terms for a label: "Tiger, Dragon", or "nothing". */
function termsList(styles) {
  return styles ? cardList(styles) : t("nothing");
}

/** An engine action's words for its button, in the reader's language (ctx: names, viewer). */
function actionText(action, ctx) {
  ctx = ctx || {};
  const type = action.type || String(action.id).split(":")[0];
  if (FIXED_LABELS[type]) return t(FIXED_LABELS[type]);
  switch (type) {
    case "claim":
    case "fit": {
      const c = comboInfo(action.code);
      if (!c) break;
      const params = { level: LABEL_LEVELS[action.level] ? t(LABEL_LEVELS[action.level]) : action.level, code: c.code, combination: c.label };
      return type === "claim" ? t("Shout KUNG FU for %(level)s %(code)s (%(combination)s)", params)
        : t("Arrange your hand for %(level)s %(code)s (%(combination)s)", params);
    }
    case "accept":
    case "decline":
    case "withdraw": {
      const params = { offer: action.offer, name: nameOf(ctx, action.from), gives: termsList(action.gives), asks: termsList(action.asks) };
      if (type === "accept") return t("Accept offer %(offer)s from %(name)s: gives %(gives)s, asks %(asks)s", params);
      if (type === "decline") return t("Decline offer %(offer)s from %(name)s: gives %(gives)s, asks %(asks)s", params);
      return t("Withdraw your offer %(offer)s: gives %(gives)s, asks %(asks)s", params);
    }
    case "to":
      return action.seat === null || action.seat === undefined ? t("Start an offer to everyone")
        : t("Start an offer to %(name)s", { name: nameOf(ctx, action.seat) });
    case "give":
      return action.declared
        ? t("Offer a %(style)s card declared as a %(declared)s (innocent cheating)", { style: styleName(action.style), declared: styleName(action.declared) })
        : t("Offer a %(style)s card", { style: styleName(action.style) });
    case "want": return t("Ask for a %(style)s card", { style: styleName(action.style) });
    case "move": return t("Move card %(from)s to position %(to)s", { from: action.from + 1, to: action.to + 1 });
    case "impasse": return action.vote ? t("Vote for an impasse") : t("Take back your impasse vote");
    case "forfeit": {
      const c = comboInfo(action.code);
      if (!c) break;
      return tn("Give up completed combination %(code)s (%(n)s point)", "Give up completed combination %(code)s (%(n)s points)", c.points, { code: c.code, n: c.points });
    }
  }
  return namedSeats(ctx, action.label || String(action.id));
}

/** The legal actions as groups by type (the board places each group itself). */
function groupLegal(legal, ctx) {
  const groups = [];
  const byType = {};
  (legal || []).forEach(function (action) {
    const type = action.type || String(action.id).split(":")[0];
    let group = byType[type];
    if (!group) {
      group = byType[type] = { kind: type, type: type, title: GROUP_TITLES[type] || capitalize(type), actions: [] };
      groups.push(group);
    }
    group.actions.push(Object.assign({}, action, { text: actionText(action, ctx) }));
  });
  return groups;
}

const GROUP_TITLES = {
  pass: t("Wait"), claim: t("Shout KUNG FU"), fit: t("Arrange for a combination"), move: t("Arrange your hand"),
  to: t("Start an offer"), give: t("Offer a card"), want: t("Ask for a card"),
  open: t("Open cards"), send: t("Make the offer"), cancel: t("Drop the offer"), accept: t("Accept an offer"),
  decline: t("Decline an offer"), withdraw: t("Withdraw your offer"), impasse: t("Impasse"), forfeit: t("Severe punishment"),
};

function autoAction() {
  return null; // nothing is ever chosen for a player: "pass" is doing nothing
}

// ---------------------------------------------------------------------------
// The board model.

function boardModel(frame, opts) {
  const b = frameBasics(frame, opts);
  opts = b.opts;
  const view = b.view, viewer = b.viewer;
  const n = view ? view.players : b.platformSeats.length;
  const mine = viewer !== null ? b.platformSeats[viewer] || {} : {};
  const benched = !!(mine.forfeited || mine.replaced_by_bot);
  const active = b.status === "active";
  const myTurn = !!view && viewer !== null && active && !benched && b.actors.indexOf(viewer) >= 0 && !opts.readOnly;
  // The engine's labels are English and name seats ("Accept offer 3 from seat
  // 1"): the buttons' tooltips and the menu say them in the reader's language,
  // with people's names (actionText).
  const legal = (myTurn ? frame.legal || [] : []).map(function (a) {
    return Object.assign({}, a, { label: actionText(a, b.ctx) });
  });
  const byId = {};
  legal.forEach(function (a) { byId[a.id] = a; });
  const claims = view ? view.claims || [] : [];
  const seats = [];
  for (let i = 0; i < n; i++) {
    let claim = null;
    claims.forEach(function (c, k) { if (c.seat === i) claim = k + 1; });
    seats.push(Object.assign(platformSeat(b, i), {
      handSize: view ? view.hand_sizes[i] : 0,
      inPlay: view ? !!view.in_play[i] : true,
      owes: view ? !!view.owes_forfeit[i] : false,
      won: view ? view.won[i].slice() : [],
      points: view ? view.points[i] : 0,
      voted: view ? !!view.votes[i] : false,
      claimLine: claim,
      offers: view ? view.offers.filter(function (o) { return o.from === i; }).length : 0,
    }));
    seats[i].hand = null; // the hand is drawn from the view below, never from elsewhere
  }
  const hand = view && viewer !== null && typeof view.hand === "string" ? view.hand : null;
  const faceUp = view ? LEVELS.map(function (lv) {
    const c = view.face_up[lv];
    return {
      level: lv,
      name: levelTitle(lv),
      combo: c,
      pile: view.piles[lv],
      ready: !!(c && hand && makes(hand.slice(0, c.hits.length), c.hits)),
      missing: c && hand !== null ? distance(hand, c.hits) : null,
      claim: byId["claim:" + lv] || null,
      fit: byId["fit:" + lv] || null,
    };
  }) : [];
  const offers = view ? view.offers.map(function (o) {
    const toMe = viewer !== null && o.from !== viewer && (o.to === viewer || (o.to === null && o.declined.indexOf(viewer) < 0));
    return Object.assign({}, o, {
      mine: viewer !== null && o.from === viewer,
      toMe: toMe,
      accept: byId["accept:" + o.id] || null,
      decline: byId["decline:" + o.id] || null,
      withdraw: byId["withdraw:" + o.id] || null,
    });
  }) : [];
  const paused = !!view && view.phase === "paused";
  const me = viewer !== null && view ? seats[viewer] : null;
  const ctx = b.ctx;
  let line;
  if (!view) line = t("Waiting for the deal.");
  else if (b.status === "aborted") line = t("The match was called off.");
  else if (b.status === "finished" || view.phase === "over") line = t("The game is over.");
  else if (benched && active) line = t("You left this match: a bot plays your seat.");
  else if (paused) {
    line = said(ctx, claims[0].seat, N_("Paused: Your KUNG FU is being checked. Nobody may trade."),
      N_("Paused: %(name)s's KUNG FU is being checked. Nobody may trade."));
  }
  else if (me && me.owes) line = t("You are punished: choose the completed combination you lose.");
  else if (me && !me.inPlay) line = t("You are out of play until another player completes a combination.");
  else if (myTurn) line = t("Trade, arrange your hand, and shout KUNG FU when its first cards make a face-up combination.");
  else line = t("Everyone trades at once.");
  const moves = {};
  legal.forEach(function (a) { if (a.type === "move") moves[a.id] = a; });
  const partners = legal.filter(function (a) { return a.type === "to"; });
  // A card declared as another style is given through the composer ("say …"
  // beside the card); the half-built draft's buttons keep to honest steps.
  const draftActions = legal.filter(function (a) { return ["give", "want", "open", "send", "cancel"].indexOf(a.type) >= 0 && !a.declared; });
  const due = timersOf(frame, viewer, active);
  const news = [];
  (frame.events || []).forEach(function (ev) {
    const priv = ev.private || {};
    if (viewer === null || isPerSeatPrivate(priv) || !Object.keys(priv).length) return;
    if (ev.type === "trade" && priv.cheated !== undefined) news.push({ kind: priv.cheated ? "cheated" : "trade", text: PRIVATE.trade(priv, ev.public, ctx) });
    else if (ev.type === "trade") news.push({ kind: "trade", text: PRIVATE.trade(priv, ev.public, ctx) });
    else if (ev.type === "resume") news.push({ kind: "resume", text: PRIVATE.resume(priv) });
  });
  return Object.assign(modelBase(b, { statusLine: line, myTurn: myTurn }), {
    players: n,
    benched: benched,
    seats: seats,
    hand: hand,
    unseen: view && viewer !== null ? view.unseen : 0,
    faceUp: faceUp,
    offers: offers,
    draft: view && viewer !== null ? view.draft : null,
    paused: paused,
    claims: claims.map(function (c, k) {
      const combo = comboInfo(c.code);
      return {
        seat: c.seat, name: who(ctx, c.seat), level: c.level, code: c.code, combo: combo,
        cards: c.cards, checking: k === 0,
        // A claim waiting behind another that took the same combination is void.
        taken: view.face_up[c.level] ? view.face_up[c.level].code !== c.code : true,
        marks: combo ? c.cards.split("").map(function (x, j) { return x === combo.hits[j] || x === WILD; }) : [],
      };
    }),
    deck: view ? view.deck : 0,
    discard: view ? view.discard : {},
    removed: view ? view.removed : 0,
    votes: view ? view.votes.slice() : [],
    impasses: view ? view.impasses : 0,
    impasseLimit: view ? view.impasse_limit : 0,
    severe: view ? !!view.severe : false,
    moves: moves,
    canArrange: Object.keys(moves).length > 0,
    partners: partners,
    canOffer: partners.length > 0,
    draftActions: draftActions,
    impasse: byId.impasse || byId["impasse:no"] || null,
    forfeits: legal.filter(function (a) { return a.type === "forfeit"; }),
    legalIds: legal.map(function (a) { return a.id; }),
    news: news,
    due: due,
    // The server's clock minus ours: countdowns are timed on the server's.
    skewMs: frame.server_time && !isNaN(Date.parse(frame.server_time)) ? Date.parse(frame.server_time) - b.nowMs : 0,
    nowMs: b.nowMs,
    result: view ? view.result : null,
  });
}

/**
 * The server timers of the frame (docs/protocol/live.md, `timers`) this seat
 * is shown: the match's end and a claim's check (the table's), and its own:
 * the answer to each offer to it, its offer being built, its severe choice.
 */
function timersOf(frame, viewer, active) {
  const due = { end: null, check: null, draft: null, forfeit: null, answer: {} };
  if (!active || !Array.isArray(frame.timers)) return due;
  frame.timers.forEach(function (timer) {
    const parts = String(timer.action).split(":");
    if (timer.seat === null || timer.seat === undefined) {
      if (parts[0] === "end") due.end = timer.due;
      else if (parts[0] === "check" && !due.check) due.check = timer.due;
    } else if (timer.seat === viewer) {
      if (parts[0] === "decline") due.answer[parts[1]] = timer.due;
      else if (parts[0] === "cancel") due.draft = timer.due;
      else if (parts[0] === "forfeit") due.forfeit = timer.due;
    }
  });
  return due;
}

/** A live countdown to a due time (tickClocks keeps it current). */
function countdownEl(doc, model, dueIso, opts) {
  opts = opts || {};
  const el = h(doc, opts.tag || "span", {
    className: "kf09-countdown" + (opts.className ? " " + opts.className : ""),
    "data-due": dueIso, "data-skew-ms": String(Math.round(model.skewMs || 0)),
    "data-low-ms": opts.lowMs ? String(opts.lowMs) : null,
    "data-warn-ms": opts.warnMs ? String(opts.warnMs) : null,
    "data-role": opts.role || null, role: opts.ariaRole || null,
    text: opts.text || null,
  });
  tickDue(el, model.nowMs);
  return el;
}

/**
 * A message with elements in the places of its placeholders (a live
 * countdown, a row of little cards): the words around them stay one message.
 * `els` maps placeholder names to elements; a missing one stays text.
 */
function messageWith(text, els) {
  const parts = String(text).split(/\uE000(\w+)\uE000/);
  return parts.map(function (part, i) { return i % 2 ? els[part] : part; }).filter(function (part) { return part !== ""; });
}

/** The placeholders of `keys` as markers for messageWith(). */
function markers(keys) {
  const out = {};
  keys.forEach(function (k) { out[k] = "\uE000" + k + "\uE000"; });
  return out;
}

const END_WARN_MS = 60000; // the last minute: warned
const LOW_MS = 10000;

// ---------------------------------------------------------------------------
// Results.

const RESULTS = {
  winnersText: (ctx, winners) => winnersText(ctx, winners, "share the win"),
  reasons: GAME_REASONS,
  columns: (scores, seat) => ({
    points: seatScore(scores, "points", seat),
    difficult: seatScore(scores, "difficult", seat),
    normal: seatScore(scores, "normal", seat),
    easy: seatScore(scores, "easy", seat),
  }),
};

function resultModel(frame, opts) {
  return commonResultModel(frame, opts, RESULTS);
}

// ---------------------------------------------------------------------------
// DOM rendering (browser, or the test DOM).

/** One hit card as a picture: the animal on its style's colour, its name under it. */
function hitEl(doc, style, size, attrs) {
  attrs = attrs || {};
  const tag = attrs.onclick || attrs.button ? "button" : "span";
  const base = {
    className: "kf09-hit kf09-" + (size || "md") + " kf09-style-" + style + (attrs.className ? " " + attrs.className : ""),
    "data-style": style,
    title: attrs.title || styleName(style),
  };
  if (tag === "button") base.type = "button";
  else { base.role = "img"; base["aria-label"] = attrs.title || styleName(style); }
  const rest = Object.assign({}, attrs);
  delete rest.className; delete rest.button;
  return h(doc, tag, Object.assign(base, rest), [
    h(doc, "span", { className: "kf09-hit-icon kf09-icon kf09-icon-" + style, "aria-hidden": "true" }),
    size === "xs" ? null : h(doc, "span", { className: "kf09-hit-name", "aria-hidden": "true", text: styleName(style) }),
  ]);
}

function backEl(doc) {
  return h(doc, "span", { className: "kf09-hit kf09-md kf09-back", role: "img", "aria-label": t("a card drawn during the pause, unseen") }, [
    h(doc, "span", { className: "kf09-hit-icon", "aria-hidden": "true", text: "?" }),
  ]);
}

function hitsRowEl(doc, cards, size, label) {
  const list = typeof cards === "string" ? cards.split("") : cards || [];
  return h(doc, "span", { className: "kf09-hits", role: "group", "aria-label": label || cardList(list) },
    list.map(function (s) { return hitEl(doc, s, size || "xs"); }));
}

/** A combination card: its level's background, its points, its hits left to right. */
function comboEl(doc, code, size, attrs) {
  const c = comboInfo(code);
  attrs = attrs || {};
  if (!c) return h(doc, "span", { className: "kf09-combo kf09-combo-unknown", text: "?" });
  const tag = attrs.onclick ? "button" : "div";
  const label = comboTitle(c);
  const base = {
    className: "kf09-combo kf09-combo-" + (size || "md") + " kf09-level-" + c.level + (attrs.className ? " " + attrs.className : ""),
    "data-code": c.code,
    title: attrs.title || label,
  };
  if (tag === "button") base.type = "button";
  else { base.role = "img"; base["aria-label"] = label; }
  const rest = Object.assign({}, attrs);
  delete rest.className;
  return h(doc, tag, Object.assign(base, rest), [
    h(doc, "span", { className: "kf09-combo-head", "aria-hidden": "true" }, [
      h(doc, "span", { className: "kf09-combo-code", text: c.code }),
      h(doc, "span", { className: "kf09-combo-points", text: String(c.points) }),
    ]),
    size === "sm" ? null : h(doc, "span", { className: "kf09-combo-hits", "aria-hidden": "true" }, c.hits.split("").map(function (s) {
      return h(doc, "span", { className: "kf09-mini kf09-icon kf09-icon-" + s + " kf09-style-" + s, title: styleName(s) });
    })),
  ]);
}

function button(doc, action, text, disabled, onAct, className) {
  if (!action) return null;
  return h(doc, "button", {
    type: "button", className: "choice" + (className ? " " + className : ""), disabled: disabled,
    "data-action": action.id, title: action.label || action.id, onclick: function () { onAct(action); }, text: text,
  });
}

function ctxOf(model) {
  return { names: model.names, viewer: model.viewer, useYou: model.useYou };
}

function seatEl(doc, model, seat, opts) {
  opts = opts || {};
  const classes = ["seat", "kf09-seat"];
  if (seat.isYou) classes.push("is-you");
  if (!seat.inPlay || seat.forfeited) classes.push("is-out");
  if (seat.claimLine) classes.push("is-claiming");
  const badges = [];
  if (seat.claimLine) badges.push(h(doc, "span", { className: "badge seat-badge turn", text: seat.claimLine === 1 ? "KUNG FU!" : t("Waiting to claim") }));
  if (!seat.inPlay) badges.push(h(doc, "span", { className: "badge seat-badge out", "data-role": "punished-" + seat.seat, text: seat.owes ? t("Punished · choosing a loss") : t("Punished · out of play") }));
  if (seat.voted) badges.push(h(doc, "span", { className: "badge seat-badge marker", "data-role": "vote-" + seat.seat, text: t("Impasse ✓") }));
  if (seat.offers) badges.push(h(doc, "span", { className: "badge seat-badge", text: tn("%(n)s offer", "%(n)s offers", seat.offers, { n: seat.offers }) }));
  if (seat.replacedByBot) badges.push(h(doc, "span", { className: "badge seat-badge", text: t("Bot plays on") }));
  else if (seat.forfeited) badges.push(h(doc, "span", { className: "badge seat-badge out", text: t("Forfeited") }));
  const clock = seat.clockText && opts.clocks ? h(doc, "span", {
    className: "clock" + (seat.clockRunning ? " running" : "") + (seat.clockLow ? " low" : ""),
    "data-seat": seat.seat, text: seat.clockText,
  }) : null;
  const backs = [];
  for (let k = 0; k < Math.min(seat.handSize, 12); k++) backs.push(h(doc, "span", { className: "kf09-back-xs", "aria-hidden": "true" }));
  return h(doc, "section", { className: classes.join(" "), "aria-label": t("Seat %(n)s: %(name)s", { n: seat.seat + 1, name: seat.name }), "data-seat": seat.seat }, [
    h(doc, "header", { className: "seat-head" }, [
      h(doc, "span", { className: "seat-name", text: seat.isYou && model.useYou ? t("%(name)s (you)", { name: seat.name }) : seat.name }),
      presenceEl(doc, seat),
      clock,
    ]),
    h(doc, "div", { className: "kf09-seat-row" }, [
      h(doc, "span", { className: "kf09-backs", "data-role": "hand-size-" + seat.seat, role: "group", "aria-label": tn("%(n)s card in hand", "%(n)s cards in hand", seat.handSize, { n: seat.handSize }) }, backs.concat([
        h(doc, "span", { className: "small", text: " " + seat.handSize })])),
      h(doc, "strong", { className: "kf09-points", "data-role": "points-" + seat.seat, text: tn("%(n)s point", "%(n)s points", seat.points, { n: seat.points }) }),
    ]),
    seat.won.length ? h(doc, "div", { className: "kf09-won", "data-role": "won-" + seat.seat, role: "group", "aria-label": t("Completed: %(combos)s", { combos: seat.won.join(", ") }) },
      seat.won.map(function (code) { return comboEl(doc, code, "sm"); })) : null,
    h(doc, "div", { className: "seat-badges" }, badges),
  ]);
}

function offerEl(doc, model, o, onAct, disabled) {
  const ctx = ctxOf(model);
  const who = { name: nameOf(ctx, o.from), other: o.to === null ? "" : nameOf(ctx, o.to), to: partnerText(ctx, o.to) };
  const head = o.mine ? t("Your offer to %(to)s", who) : o.to === null ? t("%(name)s to everyone", who)
    : isYou(ctx, o.to) ? t("%(name)s to you", who) : t("%(name)s to %(other)s", who);
  const real = o.cards !== null && o.cards !== undefined;
  const cheat = real && o.cards !== o.declared;
  const controls = onAct ? [
    button(doc, o.accept, t("Accept"), disabled, onAct, "kf09-accept"),
    button(doc, o.decline, t("Decline"), disabled, onAct, "secondary kf09-decline"),
    button(doc, o.withdraw, t("Withdraw"), disabled, onAct, "secondary kf09-withdraw"),
  ] : [];
  let note = null;
  if (o.toMe && !o.accept && o.decline) note = h(doc, "span", { className: "small muted", text: t("You do not hold what it asks for.") });
  const answerBy = o.toMe && model.due ? model.due.answer[String(o.id)] : null;
  const timer = answerBy ? h(doc, "p", { className: "small kf09-timer", "data-role": "answer-timer-" + o.id },
    messageWith(t("Answer within %(time)s: then it is declined for you.", markers(["time"])), { time: countdownEl(doc, model, answerBy, { lowMs: 5000 }) })) : null;
  const number = o.open ? t("offer %(id)s · open cards", { id: o.id }) : t("offer %(id)s", { id: o.id });
  return h(doc, "li", { className: "kf09-offer" + (o.toMe ? " to-me" : "") + (o.mine ? " mine" : ""), "data-offer": o.id }, [
    h(doc, "p", { className: "kf09-offer-head" }, [
      h(doc, "strong", { text: head }),
      h(doc, "span", { className: "small muted", text: " · " + number }),
    ]),
    h(doc, "div", { className: "kf09-offer-terms" }, [
      h(doc, "span", { className: "kf09-side" }, [h(doc, "span", { className: "pile-label", text: o.open ? t("Gives (shown)") : t("Gives (declared)") }),
        o.declared ? hitsRowEl(doc, o.declared, "sm", t("gives %(cards)s", { cards: cardList(o.declared) })) : h(doc, "span", { className: "small", text: t("nothing") })]),
      h(doc, "span", { className: "kf09-for", "aria-hidden": "true", text: "⇄" }),
      h(doc, "span", { className: "kf09-side" }, [h(doc, "span", { className: "pile-label", text: t("Asks for") }),
        o.want ? hitsRowEl(doc, o.want, "sm", t("asks for %(cards)s", { cards: cardList(o.want) })) : h(doc, "span", { className: "small", text: t("nothing (a gift)") })]),
    ]),
    o.mine && cheat ? h(doc, "p", { className: "small kf09-real", text: t("Really hands over: %(cards)s (innocent cheating)", { cards: cardList(o.cards) }) }) : null,
    o.declined.length ? h(doc, "p", { className: "small muted", text: t("Declined by %(names)s", { names: o.declined.map(function (s) { return objectName(ctx, s); }).join(", ") }) }) : null,
    controls.some(Boolean) || note ? h(doc, "div", { className: "kf09-offer-actions" }, controls.concat([note])) : null,
    timer,
  ]);
}

function faceUpEl(doc, model, f, onAct, disabled) {
  const pile = h(doc, "span", { className: "small muted", "data-role": "pile-" + f.level, text: tn("%(n)s card left", "%(n)s cards left", f.pile, { n: f.pile }) });
  const controls = [];
  if (onAct && f.fit) controls.push(button(doc, f.fit, t("Arrange for it"), disabled, onAct, "secondary small kf09-fit"));
  let hint = null;
  if (f.combo && f.missing !== null && !f.ready) {
    hint = h(doc, "span", { className: "small kf09-missing", text: f.missing ? tn("%(n)s card missing", "%(n)s cards missing", f.missing, { n: f.missing }) : t("you hold it: arrange it") });
  }
  if (f.ready) {
    const size = f.combo.hits.length;
    hint = h(doc, "span", { className: "small kf09-ready-note", text: tn("your first %(n)s card makes it", "your first %(n)s cards make it", size, { n: size }) });
  }
  const points = LEVEL[f.level].points;
  const worth = tn("%(n)s point", "%(n)s points", points, { n: points });
  return h(doc, "div", { className: "kf09-faceup kf09-level-" + f.level + (f.ready ? " ready" : ""), "data-role": "faceup-" + f.level }, [
    h(doc, "span", { className: "pile-label", text: [f.name, worth, t(BACKGROUND[f.level])].join(" · ") }),
    f.combo ? comboEl(doc, f.combo.code, "lg") : emptyPileEl(doc),
    pile, hint,
    controls.length ? h(doc, "div", { className: "kf09-faceup-actions" }, controls) : null,
  ]);
}

function pauseEl(doc, model) {
  if (!model.claims.length) return null;
  return h(doc, "div", { className: "kf09-pause", "data-role": "pause", role: "status" }, [
    h(doc, "p", { className: "kf09-pause-title", text: model.paused ? t("KUNG FU! The game is paused.") : t("Claims on the table") }),
    model.paused && model.due.check ? h(doc, "p", { className: "small kf09-timer", "data-role": "check-timer" },
      messageWith(t("The table checks the claim in %(time)s.", markers(["time"])), { time: countdownEl(doc, model, model.due.check) })) : null,
    h(doc, "ol", { className: "kf09-claims" }, model.claims.map(function (c) {
      return h(doc, "li", { className: "kf09-claim" + (c.checking ? " checking" : ""), "data-role": "claim-" + c.seat }, [
        h(doc, "p", { className: "small", text: [isYou(ctxOf(model), c.seat) ? t("You") : nameOf(ctxOf(model), c.seat), c.code,
          c.taken ? t("taken first: this claim is void, the cards go back") : c.checking ? t("being checked") : t("waits its turn")].join(" · ") }),
        h(doc, "div", { className: "kf09-claim-row" }, [
          comboEl(doc, c.code, "md"),
          h(doc, "span", { className: "kf09-hits kf09-claim-cards", role: "group", "aria-label": t("Cards put down: %(cards)s", { cards: cardList(c.cards) }) }, c.cards.split("").map(function (s, j) {
            const params = { style: styleName(s) };
            return hitEl(doc, s, "sm", { className: c.marks[j] ? "fits" : "misfit", title: c.marks[j] ? t("%(style)s fits", params) : t("%(style)s does not fit", params) });
          })),
        ]),
      ]);
    })),
  ]);
}

function tableInfoEl(doc, model) {
  const disc = STYLES.map(function (s) {
    return h(doc, "span", { className: "kf09-disc", title: styleName(s) + ": " + (model.discard[s] || 0) }, [hitEl(doc, s, "xs"), " " + (model.discard[s] || 0)]);
  });
  return h(doc, "div", { className: "kf09-table-info" }, [
    h(doc, "span", { className: "small", "data-role": "deck", text: tn("Hit pile: %(n)s card", "Hit pile: %(n)s cards", model.deck, { n: model.deck }) }),
    h(doc, "span", { className: "small kf09-discard", "data-role": "discard", role: "group", "aria-label": t("Discard pile (face up)") }, [h(doc, "span", { text: t("Discards: ") })].concat(disc)),
    model.removed ? h(doc, "span", { className: "small muted", text: tn("%(n)s combination removed (face down)", "%(n)s combinations removed (face down)", model.removed, { n: model.removed }) }) : null,
    h(doc, "span", { className: "small", "data-role": "impasses", text: t("Impasses in a row: %(n)s of %(limit)s", { n: model.impasses, limit: model.impasseLimit }) }),
  ]);
}

function centerEl(doc, model, onAct, disabled) {
  const board = model.offers.filter(function (o) { return !o.toMe; });
  return h(doc, "div", { className: "kf09-center" }, [
    pauseEl(doc, model),
    h(doc, "div", { className: "kf09-faceups", "data-role": "faceups" }, model.faceUp.map(function (f) { return faceUpEl(doc, model, f, onAct, disabled); })),
    tableInfoEl(doc, model),
    h(doc, "section", { className: "kf09-offer-board", "data-role": "offer-board", "aria-label": t("Open offers") }, [
      h(doc, "h3", { className: "pile-label", text: model.viewer !== null ? t("Open offers (yours and between others)") : t("Open offers") }),
      board.length ? h(doc, "ul", { className: "kf09-offers" }, board.map(function (o) { return offerEl(doc, model, o, onAct, disabled); }))
        : h(doc, "p", { className: "small muted", text: t("No offers on the table.") }),
    ]),
  ]);
}

// --- your hand and the offer composer ------------------------------------

/** The composer's local state, kept on the board between frames. */
function composerOf(root, model) {
  const st = root.kf09 || (root.kf09 = { to: null, give: [], say: {}, want: "", open: false, selected: null, hand: null });
  if (st.hand !== model.hand) {
    // The hand changed (a trade, a refill, a move): positions mean other cards now.
    st.give = []; st.say = {}; st.selected = null; st.dragging = null; st.hand = model.hand;
  }
  if (st.to !== null && !model.partners.some(function (a) { return a.id === "to:" + st.to; })) st.to = null;
  return st;
}

/** The engine's steps for the composed offer, in the order it takes them. */
function offerPlan(st, hand) {
  if (st.to === null || (!st.give.length && !st.want)) return null;
  const ids = ["to:" + st.to];
  st.give.forEach(function (pos) {
    const real = hand[pos];
    // A card declared as another style is one step, as an honest one is:
    // nobody can count a step more for a cheating offer.
    ids.push("give:" + real + (st.say[pos] && st.say[pos] !== real ? ":" + st.say[pos] : ""));
  });
  st.want.split("").forEach(function (s) { ids.push("want:" + s); });
  if (st.open) ids.push("open");
  ids.push("send");
  return ids;
}

function handEl(doc, model, st, ui) {
  const hand = model.hand || "";
  const canMove = ui.onAct && model.canArrange;
  const canPick = ui.onAct && (model.canArrange || (model.canOffer && ui.canPlan));
  const sizes = {};
  model.faceUp.forEach(function (f) { if (f.ready) sizes[f.combo.hits.length] = true; });
  const readyLen = Object.keys(sizes).map(Number).sort().pop() || 0;
  const cards = hand.split("").map(function (s, i) {
    const given = st.give.indexOf(i) >= 0;
    const cls = "kf09-hand-card" + (st.selected === i ? " selected" : "") + (given ? " given" : "") + (i < readyLen ? " in-combo" : "");
    const params = { n: i + 1, style: styleName(s) };
    if (!canPick) return hitEl(doc, s, "lg", { className: cls, title: t("Card %(n)s: %(style)s", params) });
    const el = hitEl(doc, s, "lg", {
      button: true, className: cls, disabled: ui.disabled, draggable: canMove ? "true" : null,
      "data-index": i, "aria-pressed": st.selected === i ? "true" : "false",
      title: given ? t("Card %(n)s: %(style)s (in your offer). Select, then click a place to move it; arrow keys move it.", params)
        : t("Card %(n)s: %(style)s. Select, then click a place to move it; arrow keys move it.", params),
      onclick: function () { ui.pick(i); },
    });
    el.addEventListener("keydown", function (ev) {
      const j = ev.key === "ArrowLeft" ? i - 1 : ev.key === "ArrowRight" ? i + 1 : null;
      if (j === null || j < 0 || j >= hand.length) return;
      if (ev.preventDefault) ev.preventDefault();
      ui.move(i, j);
    });
    el.addEventListener("dragstart", function (ev) {
      if (ev.dataTransfer) { ev.dataTransfer.setData("text/plain", "kf09:" + i); ev.dataTransfer.effectAllowed = "move"; }
      st.dragging = i;
    });
    el.addEventListener("dragend", function () { ui.dragEnd(); });
    el.addEventListener("dragover", function (ev) { if (ev.preventDefault) ev.preventDefault(); });
    el.addEventListener("drop", function (ev) {
      if (ev.preventDefault) ev.preventDefault();
      const from = dragged(ev, st);
      st.dragging = null;
      if (from !== null && from !== i) ui.move(from, i);
    });
    return el;
  });
  for (let k = 0; k < model.unseen; k++) cards.push(backEl(doc));
  const sel = st.selected;
  let tools = null;
  if (sel !== null && canPick) {
    tools = h(doc, "div", { className: "kf09-hand-tools", "data-role": "hand-tools" }, [
      h(doc, "span", { className: "small", text: t("%(style)s (card %(n)s): ", { style: styleName(hand[sel]), n: sel + 1 }) }),
      button(doc, model.moves["move:" + sel + ":" + (sel - 1)], t("◀ Left"), ui.disabled, ui.onAct, "secondary small"),
      button(doc, model.moves["move:" + sel + ":" + (sel + 1)], t("Right ▶"), ui.disabled, ui.onAct, "secondary small"),
      button(doc, model.moves["move:" + sel + ":0"] && sel > 1 ? model.moves["move:" + sel + ":0"] : null, t("To the front"), ui.disabled, ui.onAct, "secondary small"),
      model.canOffer && ui.canPlan && !model.draft ? h(doc, "button", {
        type: "button", className: "secondary small", "data-role": "give-selected", disabled: ui.disabled,
        text: st.give.indexOf(sel) >= 0 ? t("Take out of the offer") : t("Put in the offer"),
        onclick: function () { ui.toggleGive(sel); },
      }) : null,
    ]);
  }
  return h(doc, "div", { className: "kf09-area", role: "group", "aria-label": t("Your hand") }, [
    h(doc, "h3", { className: "pile-label", text: canMove ? t("Your hand, left to right · drag or select a card to move it") : t("Your hand, left to right") }),
    h(doc, "div", { className: "my-hand kf09-hand", "data-role": "my-hand" }, cards.length ? cards : [h(doc, "span", { className: "muted small", text: t("Your hand is empty.") })]),
    model.unseen ? h(doc, "p", { className: "small", "data-role": "unseen", text: tn("%(n)s card drawn during the pause: you see it when play resumes.", "%(n)s cards drawn during the pause: you see them when play resumes.", model.unseen, { n: model.unseen }) }) : null,
    tools,
  ]);
}

function dragged(ev, st) {
  const text = ev.dataTransfer ? ev.dataTransfer.getData("text/plain") : "";
  const m = /^kf09:(\d+)$/.exec(text || "");
  if (m) return Number(m[1]);
  return st.dragging === undefined ? null : st.dragging;
}

function composerEl(doc, model, st, ui) {
  const ctx = ctxOf(model);
  const hand = model.hand || "";
  const partners = h(doc, "div", { className: "kf09-partners", role: "group", "aria-label": t("Offer to") }, model.partners.map(function (a) {
    const key = a.id.slice(3);
    const text = key === "all" ? t("Everyone") : seatName(ctx, Number(key));
    return h(doc, "button", {
      type: "button", className: "secondary small kf09-partner" + (String(st.to) === key ? " chosen" : ""), "aria-pressed": String(st.to) === key ? "true" : "false",
      disabled: ui.disabled, "data-partner": key, text: text, onclick: function () { ui.setTo(key); },
    });
  }));
  const giveZone = h(doc, "div", { className: "kf09-give-zone", "data-role": "give-zone", role: "group", "aria-label": t("Cards you give") },
    st.give.length ? st.give.map(function (pos) {
      const real = hand[pos];
      const said = st.say[pos] || real;
      const say = h(doc, "select", { className: "kf09-say", "aria-label": t("Declare this %(style)s as", { style: styleName(real) }), disabled: ui.disabled, "data-pos": pos },
        STYLES.map(function (s) {
          const params = { style: styleName(s) };
          return h(doc, "option", { value: s, selected: s === said ? "selected" : null, text: s === real ? t("%(style)s (honest)", params) : t("say %(style)s", params) });
        }));
      say.addEventListener("change", function (ev) { ui.say(pos, ev.target.value); });
      return h(doc, "span", { className: "kf09-given" + (said !== real ? " cheat" : "") }, [
        hitEl(doc, real, "sm"),
        say,
        h(doc, "button", { type: "button", className: "kf09-take-out", "aria-label": t("Take the %(style)s out of the offer", { style: styleName(real) }), disabled: ui.disabled, text: "×", onclick: function () { ui.toggleGive(pos); } }),
      ]);
    }) : [h(doc, "span", { className: "small muted", text: t("Drag cards here, or select a card and press “Put in the offer”. Nothing given makes it a plea.") })]);
  giveZone.addEventListener("dragover", function (ev) { if (ev.preventDefault) ev.preventDefault(); });
  giveZone.addEventListener("drop", function (ev) {
    if (ev.preventDefault) ev.preventDefault();
    const from = dragged(ev, st);
    st.dragging = null;
    if (from !== null && st.give.indexOf(from) < 0) ui.toggleGive(from);
  });
  const wants = h(doc, "div", { className: "kf09-want" }, [
    h(doc, "span", { className: "kf09-want-pick", role: "group", "aria-label": t("Ask for") }, STYLES.map(function (s) {
      return hitEl(doc, s, "sm", { button: true, className: "kf09-want-add", disabled: ui.disabled || st.want.length >= 5, "data-want": s, title: t("Ask for a %(style)s", { style: styleName(s) }), onclick: function () { ui.want(s); } });
    })),
    h(doc, "span", { className: "kf09-want-list", "data-role": "want-list" }, st.want ? st.want.split("").map(function (s, k) {
      return hitEl(doc, s, "sm", { button: true, className: "kf09-want-drop", disabled: ui.disabled, title: t("Stop asking for this %(style)s", { style: styleName(s) }), onclick: function () { ui.unwant(k); } });
    }) : [h(doc, "span", { className: "small muted", text: t("nothing (a gift)") })]),
  ]);
  const open = h(doc, "label", { className: "small kf09-open" }, [
    h(doc, "input", { type: "checkbox", checked: st.open ? "checked" : null, disabled: ui.disabled, "data-role": "open-cards" }),
    " " + t("Open cards (the real cards are shown to everyone: no cheating)"),
  ]);
  open.firstChild.addEventListener("change", function (ev) { ui.setOpen(!!ev.target.checked); });
  const plan = offerPlan(st, hand);
  const cheating = st.give.some(function (pos) { return st.say[pos] && st.say[pos] !== hand[pos]; });
  return h(doc, "section", { className: "kf09-composer", "data-role": "composer", "aria-label": t("Make an offer") }, [
    h(doc, "h3", { className: "pile-label", text: t("Make an offer") }),
    h(doc, "div", { className: "kf09-row" }, [h(doc, "span", { className: "small kf09-row-label", text: t("To") }), partners]),
    h(doc, "div", { className: "kf09-row" }, [h(doc, "span", { className: "small kf09-row-label", text: t("You give") }), giveZone]),
    h(doc, "div", { className: "kf09-row" }, [h(doc, "span", { className: "small kf09-row-label", text: t("You ask for") }), wants]),
    open,
    cheating && st.open ? h(doc, "p", { className: "small warn", text: t("With open cards everyone sees the real cards: the declarations are ignored.") }) : null,
    h(doc, "div", { className: "kf09-composer-actions" }, [
      h(doc, "button", {
        type: "button", className: "kf09-send", "data-role": "send-offer", disabled: ui.disabled || !plan,
        text: st.to === null ? t("Choose who the offer is for") : plan ? t("Make the offer") : t("Give or ask for a card"),
        onclick: function () { if (plan) ui.send(plan); },
      }),
      h(doc, "button", { type: "button", className: "secondary small", "data-role": "clear-offer", disabled: ui.disabled, text: t("Clear"), onclick: ui.clear }),
    ]),
  ]);
}

/** The terms of the offer being built, with the places of its cards marked (messageWith). */
function draftTerms(cheat, open) {
  const m = markers(["gives", "said", "asks"]);
  if (cheat) return open ? t("Gives %(gives)s declared as %(said)s · asks %(asks)s · open cards", m) : t("Gives %(gives)s declared as %(said)s · asks %(asks)s", m);
  return open ? t("Gives %(gives)s · asks %(asks)s · open cards", m) : t("Gives %(gives)s · asks %(asks)s", m);
}

/** The offer the server holds while its steps are sent (or left half-built). */
function serverDraftEl(doc, model, ui) {
  const d = model.draft;
  if (!d) return null;
  const ctx = ctxOf(model);
  const cheat = d.say !== d.give;
  const items = model.draftActions.map(function (a) {
    if (a.type === "give" || a.type === "want") {
      const words = { give: t("Give"), want: t("Ask") }[a.type];
      return h(doc, "button", {
        type: "button", className: "secondary small kf09-draft-step", disabled: ui.disabled, "data-action": a.id, title: a.label,
        onclick: function () { ui.onAct(a); },
      }, [words + " ", hitEl(doc, a.style, "xs")]);
    }
    const text = { open: t("Open cards"), send: t("Make the offer"), cancel: t("Drop it") }[a.type] || a.label;
    return button(doc, a, text, ui.disabled, ui.onAct, a.type === "send" ? "kf09-send" : "secondary small");
  });
  return h(doc, "section", { className: "kf09-server-draft", "data-role": "server-draft" }, [
    h(doc, "h3", { className: "pile-label", text: t("Offer being made to %(to)s", { to: partnerText(ctx, d.to < 0 ? null : d.to) }) }),
    h(doc, "p", { className: "small" }, messageWith(draftTerms(cheat, d.open), {
      gives: d.give ? hitsRowEl(doc, d.give, "xs") : t("nothing"),
      said: cheat ? hitsRowEl(doc, d.say, "xs") : "",
      asks: d.want ? hitsRowEl(doc, d.want, "xs") : t("nothing"),
    })),
    items.length ? h(doc, "div", { className: "kf09-draft-steps" }, items) : null,
    model.due.draft ? h(doc, "p", { className: "small kf09-timer", "data-role": "draft-timer" },
      messageWith(t("Dropped in %(time)s unless you take a step.", markers(["time"])), { time: countdownEl(doc, model, model.due.draft, { lowMs: LOW_MS }) })) : null,
  ]);
}

function newsEl(doc, model) {
  if (!model.news.length) return null;
  return h(doc, "div", { className: "kf09-news", "data-role": "news", role: "status" }, model.news.map(function (n) {
    return h(doc, "p", { className: "kf09-news-" + n.kind, text: n.text });
  }));
}

function promptControls(doc, model, ui) {
  if (!ui.onAct) return null;
  const wrap = h(doc, "div", { className: "actions" });
  // KUNG FU heads the prompt: on a phone the prompt is pinned at the bottom
  // of the screen, so the shout is one tap away wherever the page is scrolled.
  const kungfu = model.faceUp.filter(function (f) { return f.ready && f.claim; });
  if (kungfu.length) {
    wrap.appendChild(h(doc, "div", { className: "kf09-kungfu-bar", "data-role": "kungfu" }, kungfu.map(function (f) {
      return h(doc, "button", {
        type: "button", className: "kf09-kungfu kf09-kungfu-big", disabled: ui.disabled, "data-action": f.claim.id, title: f.claim.label,
        onclick: function () { ui.onAct(f.claim); }, text: "KUNG FU! · " + f.combo.code,
      });
    })));
  }
  const incoming = model.offers.filter(function (o) { return o.toMe; });
  if (incoming.length) {
    wrap.appendChild(actionGroupEl(doc, { kind: "offers", title: t("Offers to you") }, [
      h(doc, "ul", { className: "kf09-offers", "data-role": "offers-to-me" }, incoming.map(function (o) { return offerEl(doc, model, o, ui.onAct, ui.disabled); })),
    ], "kf09-incoming"));
  }
  if (model.forfeits.length) {
    const choices = model.forfeits.map(function (a) {
      return comboEl(doc, a.code, "md", { onclick: function () { ui.onAct(a); }, disabled: ui.disabled, "data-action": a.id, title: a.label, className: "kf09-choice" });
    });
    if (model.due.forfeit) {
      choices.push(h(doc, "p", { className: "small kf09-timer", "data-role": "forfeit-timer" },
        messageWith(t("Choose within %(time)s: then the least valuable is lost.", markers(["time"])), { time: countdownEl(doc, model, model.due.forfeit, { lowMs: 5000 }) })));
    }
    wrap.appendChild(actionGroupEl(doc, { kind: "forfeit", title: t("Severe punishment: give up one completed combination") }, choices));
  }
  if (model.impasse) {
    const voted = model.impasse.id === "impasse:no";
    const count = model.votes.filter(Boolean).length;
    const live = model.seats.filter(function (s) { return s.inPlay; }).length;
    wrap.appendChild(actionGroupEl(doc, { kind: "impasse", title: t("Impasse") }, [
      h(doc, "p", { className: "small", text: count + " of " + live + " players in play vote for an impasse (all must agree: new combinations, hands kept)." }),
      button(doc, model.impasse, voted ? t("Take back my vote") : t("Vote for an impasse"), ui.disabled, ui.onAct, "secondary small"),
    ]));
  }
  return wrap.childNodes.length ? wrap : null;
}

function youEl(doc, model, root, ui) {
  const st = composerOf(root, model);
  const me = model.seats[model.viewer];
  const parts = [
    seatEl(doc, model, me, { clocks: model.status === "active" }),
    newsEl(doc, model),
    handEl(doc, model, st, ui),
  ];
  if (ui.onAct && model.draft) parts.push(serverDraftEl(doc, model, ui));
  // The composed offer goes out as a plan of steps: only a page that sends plans gets the composer.
  else if (ui.onAct && ui.canPlan && model.canOffer) parts.push(composerEl(doc, model, st, ui));
  else if (ui.onAct && model.canArrange && me.offers >= 3) {
    parts.push(h(doc, "p", { className: "small", "data-role": "offer-limit", text: t("You have 3 open offers, the most at once: withdraw one to make another.") }));
  }
  return h(doc, "div", { className: "kf09-you" }, parts);
}

function isSet(v) {
  return v !== null && v !== undefined;
}

const FOCUS_KEYS = ["data-index", "data-action", "data-partner", "data-want", "data-pos", "data-role"];

/** What has the keyboard focus in the board, as an attribute and value to find it again. */
function focusKey(root) {
  const el = root.ownerDocument.activeElement;
  if (!el || el === root || typeof root.contains !== "function" || !root.contains(el)) return null;
  for (let k = 0; k < FOCUS_KEYS.length; k++) {
    const v = el.getAttribute(FOCUS_KEYS[k]);
    if (v !== null) return [FOCUS_KEYS[k], v];
  }
  return null;
}

/** Give the focus back to the same control after a redraw (or to the card just moved). */
function restoreFocus(root, st, focus) {
  const want = st && isSet(st.focusIndex) ? ["data-index", String(st.focusIndex)] : focus || (st && st.lastFocus) || null;
  if (!want) return;
  const scope = want[0] === "data-index" ? root.querySelector('[data-role="my-hand"]') : root;
  const target = scope ? scope.querySelector("[" + want[0] + '="' + want[1] + '"]') : null;
  if (target && !target.disabled && typeof target.focus === "function") {
    if (root.ownerDocument.activeElement !== target) target.focus();
    if (st) { st.focusIndex = null; st.lastFocus = null; }
  } else if (st) {
    // Disabled while the choice is sent: try again on the next frame.
    st.lastFocus = want;
    st.focusIndex = null;
  }
}

function renderBoard(root, model, opts) {
  opts = opts || {};
  const doc = root.ownerDocument;
  const slot = function (name) { return root.querySelector('[data-role="' + name + '"]'); };
  const onAct = opts.onAct || null;
  const disabled = !!opts.pending;
  const redraw = function () { renderBoard(root, model, opts); };
  const before = root.kf09 ? root.kf09.hand : undefined;
  const st = model.viewer !== null ? composerOf(root, model) : null;
  const focus = focusKey(root);
  const ui = {
    onAct: onAct,
    canPlan: typeof opts.onPlan === "function",
    disabled: disabled,
    pick: function (i) {
      if (st.selected === null || !model.canArrange) st.selected = st.selected === i ? null : i;
      else if (st.selected === i) st.selected = null;
      else { const from = st.selected; st.selected = null; ui.move(from, i); return; }
      redraw();
    },
    move: function (i, j) {
      const a = model.moves["move:" + i + ":" + j];
      if (!a) return;
      st.selected = null;
      st.focusIndex = j; // the keyboard's focus follows the card
      onAct(a);
    },
    dragEnd: function () {
      st.dragging = null;
      const d = st.deferred;
      st.deferred = null;
      if (d) renderBoard(root, d.model, d.opts);
    },
    toggleGive: function (pos) {
      const k = st.give.indexOf(pos);
      if (k >= 0) { st.give.splice(k, 1); delete st.say[pos]; }
      else if (st.give.length < 5) st.give.push(pos);
      st.selected = null;
      redraw();
    },
    say: function (pos, style) { st.say[pos] = style; redraw(); },
    want: function (s) { if (st.want.length < 5) st.want += s; redraw(); },
    unwant: function (k) { st.want = st.want.slice(0, k) + st.want.slice(k + 1); redraw(); },
    setTo: function (key) { st.to = String(st.to) === key ? null : key; redraw(); },
    setOpen: function (on) { st.open = on; redraw(); },
    clear: function () { st.to = null; st.give = []; st.say = {}; st.want = ""; st.open = false; redraw(); },
    send: function (plan) {
      st.to = null; st.give = []; st.say = {}; st.want = ""; st.open = false;
      redraw();
      opts.onPlan(plan);
    },
  };
  const opponents = slot("opponents");
  if (opponents) {
    clear(opponents);
    model.seats.forEach(function (seat) {
      if (seat.seat !== model.viewer) opponents.appendChild(seatEl(doc, model, seat, { clocks: model.status === "active" }));
    });
  }
  const center = slot("center");
  if (center) clear(center).appendChild(centerEl(doc, model, onAct, disabled));
  const you = slot("you");
  // At a busy table frames arrive several times a second: a card being
  // dragged is not pulled from under the player while the hand stays the
  // same (the seat is redrawn when the drag ends).
  const holding = st && before === model.hand && you && you.firstChild && isSet(st.dragging);
  if (st) st.deferred = holding ? { model: model, opts: opts } : null;
  if (you && !holding) {
    clear(you);
    you.hidden = model.viewer === null;
    if (model.viewer !== null && model.seats[model.viewer]) you.appendChild(youEl(doc, model, root, ui));
  }
  restoreFocus(root, st, focus);
  root.classList.toggle("kf09-board", true);
  root.classList.toggle("kf09-paused", model.paused);
  root.classList.toggle("kf09-urgent", !!onAct && (model.forfeits.length > 0 || model.offers.some(function (o) { return o.toMe; })));
  const controls = promptControls(doc, model, ui);
  const warning = endWarningEl(doc, model);
  const prompt = warning && controls ? h(doc, "div", {}, [warning, controls]) : warning || controls;
  renderPanel(root, model, opts, prompt, model.paused ? t("Paused") : model.phase === "over" ? t("Game over") : t("Real time"));
  const round = slot("round");
  if (round && model.due.end) {
    const title = model.paused ? t("When the time is up, the game is scored as it stands (after the claim is checked)") : t("When the time is up, the game is scored as it stands");
    const left = messageWith(t("%(time)s left", markers(["time"])), { time: countdownEl(doc, model, model.due.end, { lowMs: END_WARN_MS }) });
    round.appendChild(h(doc, "span", { className: "kf09-match-clock", "data-role": "match-clock", title: title }, [" · "].concat(left)));
  }
  return model;
}

/** The warning before the match's end: shown in the last minute. */
function endWarningEl(doc, model) {
  if (!model.due.end) return null;
  return countdownEl(doc, model, model.due.end, {
    tag: "p", className: "kf09-time-warning", role: "time-warning", ariaRole: "alert", warnMs: END_WARN_MS,
    text: t("Less than a minute left: when the time is up, the game is scored as it stands."),
  });
}

const RESULT_COLUMNS = [
  { title: t("Points"), value: (row) => row.points },
  { title: t("Difficult"), value: (row) => row.difficult },
  { title: t("Normal"), value: (row) => row.normal },
  { title: t("Easy"), value: (row) => row.easy },
];

function resultsEl(doc, res, opts) {
  const because = res.gameReason ? t("The game ended because %(reason)s.", { reason: res.gameReason }) : "";
  const reason = [res.endReason, because].join(" ").trim();
  return resultsPanelEl(doc, res, reason, resultsTableEl(doc, res, RESULT_COLUMNS), opts || {});
}

/** Under the table: the five styles and the three kinds of combinations. */
function renderCardReference(container) {
  if (!container) return;
  const doc = container.ownerDocument;
  clear(container);
  const rows = STYLES.map(function (s) {
    const n = DATA.hit_counts[s];
    const params = { style: styleName(s), n: n };
    return [hitEl(doc, s, "sm"), s === WILD
      ? tn("%(style)s: %(n)s card. Wild: it replaces any other hit in a combination.", "%(style)s: %(n)s cards. Wild: it replaces any other hit in a combination.", n, params)
      : tn("%(style)s: %(n)s card.", "%(style)s: %(n)s cards.", n, params)];
  });
  LEVELS.forEach(function (lv) {
    const L = LEVEL[lv];
    const example = DATA.combinations.filter(function (c) { return c.level === lv; })[0];
    const worth = tn("%(n)s point", "%(n)s points", L.points, { n: L.points });
    const params = { level: levelTitle(lv), background: t(BACKGROUND[lv]), n: L.size, points: worth };
    rows.push([comboEl(doc, example.code, "md"), tn(
      "%(level)s (%(background)s): %(n)s hit, worth %(points)s. The first %(n)s card of your hand must show its hit.",
      "%(level)s (%(background)s): %(n)s hits, worth %(points)s. The first %(n)s cards of your hand, left to right, must show its hits.",
      L.size, params)]);
  });
  container.appendChild(h(doc, "table", { className: "card-ref kf09-ref" }, [
    h(doc, "thead", {}, [h(doc, "tr", {}, [h(doc, "th", { text: t("Picture") }), h(doc, "th", { text: t("What it means") })])]),
    h(doc, "tbody", {}, rows.map(function (r) { return h(doc, "tr", {}, [h(doc, "td", {}, [r[0]]), h(doc, "td", { text: r[1] })]); })),
  ]));
}

/** The table in words for the screen-reader mode: one line per fact. */
function describeBoard(model) {
  const ctx = ctxOf(model);
  const lines = [];
  if (model.paused) lines.push(model.statusLine);
  lines.push.apply(lines, describeSeats(model, function (s) {
    const points = tn("%(n)s point", "%(n)s points", s.points, { n: s.points });
    return [
      tn("%(n)s card in hand", "%(n)s cards in hand", s.handSize, { n: s.handSize }),
      s.inPlay ? null : s.owes ? t("punished, choosing a loss") : t("punished, out of play"),
      s.won.length ? t("%(points)s (completed %(combos)s)", { points: points, combos: s.won.map(comboName).join(", ") }) : points,
      s.offers ? tn("%(n)s offer open", "%(n)s offers open", s.offers, { n: s.offers }) : null,
      s.voted ? t("voted for an impasse") : null,
    ];
  }));
  model.faceUp.forEach(function (f) {
    let what = t("none");
    if (f.combo) {
      const params = { combo: comboName(f.combo.code), cards: cardList(f.combo.hits), n: f.missing };
      if (f.ready) what = t("%(combo)s, %(cards)s; your hand makes it now", params);
      else if (f.missing !== null) what = tn("%(combo)s, %(cards)s; %(n)s card missing from your hand", "%(combo)s, %(cards)s; %(n)s cards missing from your hand", f.missing, params);
      else what = t("%(combo)s, %(cards)s", params);
    }
    lines.push(t("%(level)s combination: %(what)s.", { level: capitalize(LEVEL_WORD[f.level] ? levelWord(f.level) : f.name), what: what }));
  });
  model.offers.forEach(function (o) {
    const params = {
      id: o.id, to: partnerText(ctx, o.to), name: nameOf(ctx, o.from),
      gives: o.declared ? cardList(o.declared) : t("nothing"), asks: o.want ? cardList(o.want) : t("nothing"),
    };
    const terms = o.open
      ? t("gives %(gives)s (shown), asks for %(asks)s", params)
      : t("gives %(gives)s (declared), asks for %(asks)s", params);
    let head;
    if (o.mine) head = t("Your offer %(id)s to %(to)s", params);
    else if (o.to === null || o.to === undefined) head = t("Offer %(id)s from %(name)s to everyone", params);
    else head = t("Offer %(id)s from %(name)s to %(to)s", params);
    lines.push(t("%(head)s: %(terms)s.", { head: head, terms: terms }));
  });
  lines.push(tn("Deck: %(n)s card.", "Deck: %(n)s cards.", model.deck, { n: model.deck }));
  if (model.hand !== null) {
    lines.push(viewerLine(model, N_("Your hand, left to right: %(cards)s."), N_("%(name)s's hand, left to right: %(cards)s."), { cards: cardList(model.hand) }));
  }
  return lines;
}

function dealText(players) {
  return tn("Five hit cards are dealt to each of the %(n)s player and one combination of each pile is revealed.",
    "Five hit cards are dealt to each of the %(n)s players and one combination of each pile is revealed.", players, { n: players });
}

export {
  GROUP_TITLES,
  actionText, LABELS_OWN_WORDS, PRIVATE, PRIVATE_THIRD,
  describeBoard,
  EVENT_TYPES,
  COMBOS,
  STYLES,
  styleName,
  cardList,
  comboInfo,
  comboTitle,
  hitsText,
  LEVEL_TITLE,
  BACKGROUND,
  makes,
  messageWith,
  markers,
  offerPlan,
  formatEvent,
  formatSteps,
  groupLegal,
  autoAction,
  describeAction,
  boardModel,
  resultModel,
  dealText,
  hitEl,
  comboEl,
  renderBoard,
  renderCardReference,
  resultsEl,
};
