/*
 * What every game's board shares: seat names and sentences, the game log,
 * clocks, the seed check, the side panel (status, prompt, action groups,
 * "Sending your choice…"), the results and the small DOM helpers. A game's
 * board module (static/js/boards/<game>.js) imports these and only draws its
 * own game; the pages (live-match.js, replay.js) import the log, clock and
 * seed helpers from here too. The same ES module runs in the browser and in
 * node (tests/frontend/).
 */
import { language, t } from "../i18n.js";

function plural(n, one, many) {
  return n + " " + (n === 1 ? one : many);
}

// ---------------------------------------------------------------------------
// Names. `ctx` = {names: [seat names], viewer: seat or null, useYou: bool}.

function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "nobody";
  if (ctx.useYou !== false && ctx.viewer === seat) return "You";
  return (ctx.names || [])[seat] || "Seat " + seat;
}

/**
 * Whether a sentence about `seat` speaks to the reader ("You draw …"): the
 * viewer's own seat, unless a replay names every seat (useYou false). Each
 * log sentence is a whole message per person (docs/i18n.md), chosen by this.
 */
function isYou(ctx, seat) {
  return seat !== null && seat !== undefined && ctx.useYou !== false && ctx.viewer === seat;
}

/** A seat's name in the third person, never "You" (for a message's %(name)s). */
function nameOf(ctx, seat) {
  if (seat === null || seat === undefined) return t("nobody");
  return (ctx.names || [])[seat] || t("Seat %(n)s", { n: seat + 1 });
}

/** A seat as the label of a list ("You: …", "Ana: …"). */
function seatLabel(ctx, seat) {
  return isYou(ctx, seat) ? t("You") : nameOf(ctx, seat);
}

function possessive(ctx, seat) {
  const name = seatName(ctx, seat);
  if (name === "You") return "Your";
  return name + (/s$/.test(name) ? "'" : "'s");
}

/** Object form: "your" mid-sentence for the viewer. */
function possessiveLower(ctx, seat) {
  const p = possessive(ctx, seat);
  return p === "Your" ? "your" : p;
}

function objectName(ctx, seat) {
  const name = seatName(ctx, seat);
  return name === "You" ? "you" : name;
}

/**
 * An engine's words with people's names: engines name seats "seat 2" (they
 * know no names; docs/engine.md), so an error such as "offer 12 is not open
 * (declined by seat 1)" reads "(declined by Bruno)", or "you" for the viewer.
 * A number that is no seat at this table stays as it is.
 */
function namedSeats(ctx, text) {
  const names = ctx.names || [];
  return String(text || "").replace(/\b([Ss])eat (\d+)\b('s\b)?/g, function (whole, s, n, owns) {
    const seat = Number(n);
    if (!(seat < names.length)) return whole;
    // "seat 2's KUNG FU": "Cy's KUNG FU", or "your KUNG FU".
    const name = owns ? possessiveLower(ctx, seat) : objectName(ctx, seat);
    return s === "S" ? capitalize(name) : name;
  });
}

/** Subject + verb agreeing with "You": subj(ctx, 1, "draw", "draws"). */
function subj(ctx, seat, you, other) {
  const name = seatName(ctx, seat);
  return name + " " + (name === "You" ? you : other);
}

function capitalize(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** End a prompt with a full stop unless it already ends a sentence. */
function sentence(text) {
  text = String(text || "");
  return /[.?!]$/.test(text) ? text : text + ".";
}

// How a match ended (the platform's reasons, the same for every game).
const END_REASONS = {
  completed: t("The game was played to the end."),
  resigned: t("A player resigned."),
  aborted: t("The match was called off before the first move."),
  abandoned: t("A player left and did not come back."),
  left: t("A player left and a bot finished their seat."),
  "time forfeit": t("A player ran out of time."),
  rules_changed: t("This game was started under an earlier version of the rules, which the site no longer plays: it was called off without a result."),
};

function endReasonText(reason) {
  if (!reason) return "";
  return END_REASONS[reason] || t("Ended: %(reason)s.", { reason: String(reason).replace(/_/g, " ") });
}

/**
 * The clauses of one text (a card's effects, its combinations) joined in the
 * reader's punctuation: "a; b; c" in English, "a；b；c" in Chinese.
 */
function joinClauses(parts) {
  return parts.length ? parts.reduce(function (first, next) { return t("%(first)s; %(next)s", { first: first, next: next }); }) : "";
}

/** The same for a list of short phrases: "a, b" ("a，b"). */
function joinPhrases(parts) {
  return parts.length ? parts.reduce(function (first, next) { return t("%(first)s, %(next)s", { first: first, next: next }); }) : "";
}

/** "no cards", or the cards named by `cardName` and joined: "Tiger, Crane". */
function cardListText(cards, cardName) {
  if (!cards || !cards.length) return t("no cards");
  return Array.from(cards, cardName).join(", ");
}

// ---------------------------------------------------------------------------
// The game log.

function isPerSeatPrivate(priv) {
  const keys = Object.keys(priv || {});
  return keys.length > 0 && keys.every(function (k) { return /^\d+$/.test(k); });
}

/** The label of a private log entry: "Only you", or "Only Ana" in a replay. */
function privateTag(ctx, seat) {
  return ctx.useYou === false ? t("Only %(name)s", { name: seatName(Object.assign({}, ctx, { useYou: false }), seat) }) : t("Only you");
}

/**
 * A game's formatEvent from its sentence tables. PUBLIC[type](pub, ctx) gives
 * the public sentence; PRIVATE[type](priv, pub, ctx, owner) what that seat
 * alone saw; PRIVATE_THIRD[type](priv, pub, ctx, owner) the same in the third
 * person for a replay that names every seat (messages of its own: a
 * translation cannot be reworded), else thirdPerson(text, ctx, owner), when
 * given, rewords the private sentence.
 *
 * A seat's own events carry `private` as that seat's part ({card: 6});
 * a full-reveal replay carries raw events whose `private` maps seat numbers
 * to parts ({"0": {card: 6}}): each becomes a "reveal" entry naming its seat.
 */
function eventFormatter(PUBLIC, PRIVATE, thirdPerson, PRIVATE_THIRD) {
  return function formatEvent(ev, ctx) {
    ctx = ctx || {};
    const type = ev && ev.type;
    const pub = (ev && ev.public) || {};
    const priv = (ev && ev.private) || {};
    const fmt = PUBLIC[type];
    const entries = [{
      scope: "public", type: type, known: !!fmt,
      text: fmt ? fmt(pub, ctx) : t("Event: %(type)s.", { type: String(type).replace(/_/g, " ") }),
    }];
    const pfmt = PRIVATE[type];
    if (!pfmt) return entries;
    // What `owner` alone saw, told in the third person (a replay that names
    // every seat): the game's own message when it has one, else reworded.
    const third = PRIVATE_THIRD && PRIVATE_THIRD[type];
    const revealed = function (part, owner) {
      if (third) return third(part, pub, ctx, owner);
      const own = pfmt(part, pub, Object.assign({}, ctx, { viewer: owner }), owner);
      // Without a third-person message: the sentence as its owner read it, under their name.
      return thirdPerson ? thirdPerson(own, ctx, owner) : t("%(name)s: %(text)s", { name: nameOf(ctx, owner), text: own });
    };
    if (ctx.allPrivate || isPerSeatPrivate(priv)) {
      Object.keys(priv).sort().forEach(function (key) {
        const owner = Number(key);
        entries.push({ scope: "reveal", type: type, seat: owner, known: true, tag: t("Secret"), text: revealed(priv[key], owner) });
      });
    } else if (Object.keys(priv).length) {
      const named = ctx.useYou === false && ctx.viewer !== null && ctx.viewer !== undefined;
      const own = named ? revealed(priv, ctx.viewer) : pfmt(priv, pub, ctx, ctx.viewer);
      entries.push({ scope: "private", type: type, seat: ctx.viewer, known: true, text: own, tag: privateTag(ctx, ctx.viewer) });
    }
    return entries;
  };
}

/** A game's formatSteps: log entries for steps ({version, seat, kind, events}). */
function stepsFormatter(formatEvent) {
  return function formatSteps(steps, ctx) {
    const out = [];
    (steps || []).forEach(function (step) {
      if (step.kind === "timeout") {
        const text = isYou(ctx, step.seat)
          ? t("Your clock ran out: the default choice was played.")
          : t("%(name)s's clock ran out: the default choice was played.", { name: nameOf(ctx, step.seat) });
        out.push({ scope: "public", type: "timeout", version: step.version, known: true, text: text });
      } else if (step.kind === "takeover") {
        const text = isYou(ctx, step.seat)
          ? t("A bot moved for you: you left the match.")
          : t("A bot moved for %(name)s, who left the match.", { name: nameOf(ctx, step.seat) });
        out.push({ scope: "public", type: "takeover", version: step.version, known: true, text: text });
      }
      (step.events || []).forEach(function (ev) {
        formatEvent(ev, ctx).forEach(function (entry) { entry.version = step.version; out.push(entry); });
      });
    });
    return out;
  };
}

// ---------------------------------------------------------------------------
// Clocks.

/** Milliseconds left on a seat's clock at `nowMs`, or null when untimed. */
function clockRemaining(seat, nowMs, running) {
  if (!seat) return null;
  if (running && seat.deadline) {
    const deadline = Date.parse(seat.deadline);
    if (!isNaN(deadline)) return Math.max(0, deadline - nowMs);
  }
  if (seat.clock_ms !== null && seat.clock_ms !== undefined) return Math.max(0, seat.clock_ms);
  return null;
}

function formatClock(ms) {
  if (ms === null || ms === undefined) return "";
  const total = Math.ceil(ms / 1000);
  // Correspondence clocks run for days: "2d 23h", then "23:59:59" on the last day.
  if (total >= 86400) {
    const days = Math.floor(total / 86400);
    return days + "d " + Math.floor((total % 86400) / 3600) + "h";
  }
  const hrs = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return (hrs ? hrs + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s;
}

// ---------------------------------------------------------------------------
// The board model: what the platform's part of a frame says.

/**
 * The parts of a frame every game reads. frame: a live `state` frame, or a
 * replay step shaped like one ({view, seat, seats, legal, status, hands?});
 * opts: {names, nowMs, readOnly, useYou}.
 */
function frameBasics(frame, opts) {
  opts = opts || {};
  const view = frame.view || null;
  const viewer = frame.seat === undefined ? null : frame.seat;
  const platformSeats = frame.seats || [];
  const names = opts.names || platformSeats.map(function (s, i) { return s.name || "Seat " + i; });
  const status = frame.status || "active";
  return {
    frame: frame,
    opts: opts,
    view: view,
    viewer: viewer,
    platformSeats: platformSeats,
    names: names,
    ctx: { names: names, viewer: viewer, useYou: opts.useYou !== false },
    status: status,
    // A replay shows every step "as it was": the actor and turn highlighted.
    active: status === "active" || opts.readOnly === true,
    clocksRun: status === "active",
    actors: view ? view.actors || [] : [],
    nowMs: opts.nowMs === undefined ? Date.now() : opts.nowMs,
    fullHands: frame.hands || null,
  };
}

/** The platform's part of seat `i` (name, hand if known, presence, clock); a game adds its own. */
function platformSeat(b, i) {
  const ps = b.platformSeats[i] || {};
  const isActor = b.actors.indexOf(i) >= 0;
  let hand = null;
  if (b.viewer === i && b.view && b.view.hand) hand = b.view.hand.slice();
  else if (b.fullHands && b.fullHands[i]) hand = b.fullHands[i].slice();
  const clock = clockRemaining(ps, b.nowMs, b.clocksRun && isActor);
  return {
    seat: i,
    name: b.names[i] || "Seat " + i,
    isYou: b.viewer === i,
    hand: hand,
    isActor: isActor && b.active,
    connected: ps.connected === undefined ? null : !!ps.connected,
    isBot: !!ps.is_bot,
    forfeited: !!ps.forfeited,
    replacedByBot: !!ps.replaced_by_bot,
    clockMs: clock,
    clockRunning: !!(b.clocksRun && isActor && ps.deadline),
    clockText: formatClock(clock),
    clockLow: clock !== null && clock < 10000 && b.clocksRun && isActor,
  };
}

/**
 * Whose move it is and the status line. phaseWait[phase] is the message for
 * what the actor is doing ("%(name)s is choosing a card to play."); prompts
 * [phase] the message for the engine's English view.prompt, in the reader's
 * language; myTurnSuffix (optional) is added to "Your move: …".
 */
function turnStatus(b, phaseWait, myTurnSuffix, prompts) {
  const view = b.view, status = b.status, actors = b.actors;
  // A seat that resigned or left is played by a bot: its player only watches.
  const mine = b.viewer !== null ? b.platformSeats[b.viewer] || {} : {};
  const benched = !!(mine.forfeited || mine.replaced_by_bot);
  const myTurn = b.viewer !== null && actors.indexOf(b.viewer) >= 0 && status === "active" && !benched;
  const prompt = view ? (prompts && prompts[view.phase] ? t(prompts[view.phase]) : view.prompt) : "";
  let line;
  if (!view) line = t("Waiting for the deal.");
  else if (status === "aborted") line = t("The match was called off.");
  else if (status === "finished" || !actors.length) line = t("The game is over.");
  else if (benched && status === "active") line = t("You left this match: a bot plays your seat.");
  else if (myTurn) line = t("Your move: %(prompt)s", { prompt: sentence(prompt) }) + (myTurnSuffix || "");
  else if (phaseWait[view.phase]) line = t(phaseWait[view.phase], { name: nameOf(b.ctx, actors[0]) });
  else line = t("%(name)s to move: %(prompt)s", { name: nameOf(b.ctx, actors[0]), prompt: sentence(prompt) });
  return { myTurn: myTurn, benched: benched, statusLine: line, prompt: prompt };
}

/** The fields every game's board model has; a game's boardModel adds its own. */
function modelBase(b, turn) {
  const view = b.view;
  return {
    viewer: b.viewer,
    useYou: b.ctx.useYou,
    spectator: b.viewer === null,
    names: b.names,
    status: b.status,
    version: b.frame.version === undefined ? null : b.frame.version,
    delayedBy: b.frame.delayed_by || null,
    round: view ? view.round : null,
    phase: view ? view.phase : null,
    prompt: capitalize(turn.prompt || (view ? view.prompt : "")),
    statusLine: turn.statusLine,
    actors: b.actors.slice(),
    myTurn: turn.myTurn,
  };
}

// ---------------------------------------------------------------------------
// The table in words (the screen-reader mode, static/js/screen-reader.js).

/**
 * One sentence per seat for a board's describeBoard: the name ("(you)"),
 * then `details(seat)` (the game's own words, a list), then whether the seat
 * is to move, away, a bot or forfeited. The clocks are read separately.
 */
function describeSeats(model, details) {
  return (model.seats || []).map(function (s) {
    const parts = (details(s) || []).filter(Boolean);
    if (s.isActor) parts.push(t("to move"));
    if (s.forfeited) parts.push(t("forfeited"));
    if (s.isBot) parts.push(t("a bot"));
    else if (s.connected === false) parts.push(t("away"));
    const name = s.isYou && model.useYou !== false ? t("%(name)s (you)", { name: s.name }) : s.name;
    return parts.length ? t("%(name)s: %(details)s.", { name: name, details: parts.join(", ") }) : t("%(name)s.", { name: name });
  });
}

/**
 * A line about the viewer's own things: `you` ("Your hand: %(cards)s."), or
 * `other` with %(name)s where the page says no "you" (a replay's seat view).
 */
function viewerLine(model, you, other, params) {
  const ctx = { names: model.names, viewer: model.viewer, useYou: model.useYou };
  return isYou(ctx, model.viewer) ? t(you, params) : t(other, Object.assign({ name: nameOf(ctx, model.viewer) }, params));
}

/** "Your", or "Ana's" where the page says no "you" (a replay's seat view). */
function viewerPossessive(model) {
  return possessive({ names: model.names, viewer: model.viewer, useYou: model.useYou }, model.viewer);
}

// ---------------------------------------------------------------------------
// The seed commitment.

/** SHA-256 hex of `text` (the published commitment hashes "<match>:<seed>"). */
function sha256Hex(text, cryptoImpl) {
  const c = cryptoImpl || (typeof crypto !== "undefined" ? crypto : null);
  if (!c || !c.subtle) return Promise.reject(new Error("this browser cannot compute SHA-256 (needs a secure context)"));
  return c.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (buf) {
    return Array.prototype.map.call(new Uint8Array(buf), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  });
}

function verifySeed(match, seed, seedHash, cryptoImpl) {
  return sha256Hex(match + ":" + seed, cryptoImpl).then(function (hex) {
    return { ok: hex === String(seedHash || "").toLowerCase(), computed: hex };
  });
}

// ---------------------------------------------------------------------------
// DOM rendering (browser, or the test DOM). `doc` is the element's document.

function h(doc, tag, attrs, children) {
  const el = doc.createElement(tag);
  if (attrs) {
    Object.keys(attrs).forEach(function (key) {
      const value = attrs[key];
      if (value === null || value === undefined || value === false) return;
      if (key === "text") el.textContent = value;
      else if (key === "className") el.className = value;
      else if (key === "onclick") el.addEventListener("click", value);
      else el.setAttribute(key, value === true ? "" : value);
    });
  }
  (children || []).forEach(function (child) {
    if (child === null || child === undefined || child === false) return;
    el.appendChild(typeof child === "string" ? doc.createTextNode(child) : child);
  });
  return el;
}

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** The empty place of a pile. */
function emptyPileEl(doc) {
  return h(doc, "div", { className: "kcard kcard-md kcard-empty", text: t("empty") });
}

/** A seat's connection: online, away or bot (nothing when unknown). */
function presenceEl(doc, seat) {
  if (seat.connected === null) return null;
  const text = seat.isBot ? "bot" : seat.connected ? "online" : "away";
  return h(doc, "span", {
    className: "presence " + (seat.isBot ? "bot" : seat.connected ? "on" : "off"),
    title: seat.isBot ? t("Played by a bot") : seat.connected ? t("Connected") : t("Not connected"),
  }, [h(doc, "span", { className: "presence-dot", "aria-hidden": "true" }), text]);
}

/** One decision as a fieldset: the group's title and its controls. */
function actionGroupEl(doc, group, items, extraClass) {
  return h(doc, "fieldset", { className: "action-group action-" + group.kind + (extraClass ? " " + extraClass : "") }, [
    h(doc, "legend", { text: group.title }),
    h(doc, "div", { className: "action-items" }, items),
  ]);
}

/**
 * The side panel and the bar: the status line, the prompt with `controls`
 * (an element, or null) and "Sending your choice…", the round text and
 * the spectator delay. opts: {pending}.
 */
function renderPanel(root, model, opts, controls, roundText) {
  const doc = root.ownerDocument;
  const slot = function (name) { return root.querySelector('[data-role="' + name + '"]'); };
  const prompt = slot("prompt");
  const status = slot("status");
  if (status && !prompt) status.textContent = model.statusLine;
  const round = slot("round");
  if (round) round.textContent = roundText || "";
  const delay = slot("delay");
  if (delay) {
    delay.hidden = !model.delayedBy;
    delay.textContent = model.delayedBy ? "Delayed by " + plural(model.delayedBy, "move", "moves") : "";
  }
  if (prompt) {
    clear(prompt);
    prompt.classList.toggle("my-turn", model.myTurn);
    prompt.appendChild(h(doc, "p", { className: "prompt-text", text: model.statusLine }));
    if (controls) prompt.appendChild(controls);
    if (opts && opts.pending) prompt.appendChild(h(doc, "p", { className: "small muted", text: t("Sending your choice…") }));
  }
  root.classList.toggle("is-spectator", model.spectator);
  root.classList.toggle("is-my-turn", model.myTurn);
}

/**
 * A countdown to a server due time (`frame.timers`, docs/protocol/live.md):
 * the element's text is the time left; `data-skew-ms` is the server's clock
 * minus ours when the frame was drawn. With `data-warn-ms` it is a warning,
 * shown only when that little time is left; with `data-low-ms` it is marked
 * "low" then. tickClocks keeps every countdown in `root` current.
 */
function dueLeft(el, nowMs) {
  const due = Date.parse(el.getAttribute("data-due"));
  if (isNaN(due)) return null;
  return Math.max(0, due - (nowMs + Number(el.getAttribute("data-skew-ms") || 0)));
}

function tickDue(el, nowMs) {
  const ms = dueLeft(el, nowMs);
  if (ms === null) return;
  const warn = el.getAttribute("data-warn-ms");
  if (warn !== null) el.hidden = ms > Number(warn);
  else el.textContent = formatClock(ms);
  const low = el.getAttribute("data-low-ms");
  if (low !== null) el.classList.toggle("low", ms <= Number(low));
}

/** Refresh only the clock labels and countdowns (called every half second). */
function tickClocks(root, frame, nowMs) {
  Array.prototype.forEach.call(root.querySelectorAll("[data-due]"), function (el) { tickDue(el, nowMs); });
  const seats = frame.seats || [];
  const actors = frame.view ? frame.view.actors || [] : [];
  const active = frame.status === "active";
  Array.prototype.forEach.call(root.querySelectorAll(".clock[data-seat]"), function (el) {
    const i = Number(el.getAttribute("data-seat"));
    const running = active && actors.indexOf(i) >= 0;
    const ms = clockRemaining(seats[i], nowMs, running);
    el.textContent = formatClock(ms);
    el.classList.toggle("low", running && ms !== null && ms < 10000);
  });
}

/**
 * Append log entries to an <ol>; entries marked `current` are highlighted. An
 * entry with `fold` (a key) replaces the last line when that line has the same
 * key: a run of like entries (a game's rearrangements) takes one line.
 */
function renderLog(list, entries, opts) {
  opts = opts || {};
  const doc = list.ownerDocument;
  if (opts.replace) clear(list);
  entries.forEach(function (entry) {
    const label = entry.scope === "public" ? null : entry.tag || (entry.scope === "private" ? t("Only you") : t("Secret"));
    const last = list.lastElementChild;
    if (entry.fold && last && last.getAttribute("data-fold") === entry.fold) last.remove();
    list.appendChild(h(doc, "li", {
      className: "log-entry log-" + entry.scope + (entry.current ? " current" : ""),
      "data-version": entry.version === undefined ? null : entry.version,
      "data-fold": entry.fold || null,
    }, [label ? h(doc, "span", { className: "log-tag", text: label }) : null, entry.text]));
  });
  if (opts.scroll !== false) list.scrollTop = list.scrollHeight;
}

/**
 * The results table every game draws: the place (a star for a winner), the
 * player (" (forfeited)", then `note(row)`, e.g. " (knocked out)"), then the
 * game's number columns ([{title, value(row)}]); null when there are no rows.
 */
function resultsTableEl(doc, res, columns, note) {
  if (!res.rows.length) return null;
  const num = (value) => h(doc, "td", { className: "num", text: value === null || value === undefined ? "" : String(value) });
  return h(doc, "table", { className: "results-table" }, [
    h(doc, "thead", {}, [h(doc, "tr", {}, [
      h(doc, "th", { text: t("Place") }), h(doc, "th", { text: t("Player") }),
      ...columns.map((column) => h(doc, "th", { className: "num", text: column.title })),
    ])]),
    h(doc, "tbody", {}, res.rows.map((row) => h(doc, "tr", { className: row.winner ? "winner" : null }, [
      h(doc, "td", { text: (row.winner ? "★ " : "") + row.placeText }),
      h(doc, "td", { text: row.name + (row.forfeited ? " (forfeited)" : "") + (note ? note(row) : "") }),
      ...columns.map((column) => num(column.value(row))),
    ]))),
  ]);
}

/**
 * The results panel: headline, `reason` line, the game's own `table`, then
 * the seed with its check and the replay link. res: a game's resultModel
 * (headline, seed, seedHash, match, aborted); opts: {replayUrl, analysisUrl, csrf}.
 */
function resultsPanelEl(doc, res, reason, table, opts) {
  opts = opts || {};
  const verifyOut = h(doc, "span", { className: "verify-out", "aria-live": "polite" });
  const verifyBtn = res.seed !== null && res.seedHash ? h(doc, "button", {
    type: "button", className: "secondary small", text: t("Verify seed"),
    onclick: function () {
      verifyOut.textContent = "…";
      verifySeed(res.match, res.seed, res.seedHash).then(function (r) {
        verifyOut.textContent = r.ok ? "✓ matches the published hash" : "✗ does not match (" + r.computed.slice(0, 12) + "…)";
        verifyOut.className = "verify-out " + (r.ok ? "ok" : "bad");
      }, function (err) {
        verifyOut.textContent = "✗ " + err.message;
        verifyOut.className = "verify-out bad";
      });
    },
  }) : null;
  return h(doc, "div", { className: "results-inner" }, [
    h(doc, "h2", { text: res.headline }),
    h(doc, "p", { className: "muted", text: reason }),
    table,
    res.seed !== null ? h(doc, "dl", { className: "seed-info" }, [
      h(doc, "dt", { text: t("Seed") }), h(doc, "dd", {}, [h(doc, "code", { text: String(res.seed) })]),
      h(doc, "dt", { text: t("Published hash") }), h(doc, "dd", {}, [h(doc, "code", { className: "hash", text: res.seedHash || "" })]),
    ]) : null,
    h(doc, "p", { className: "results-actions" }, [
      verifyBtn, verifyOut,
      opts.replayUrl && !res.aborted ? h(doc, "a", { className: "button", href: opts.replayUrl, text: t("Watch the replay") }) : null,
      // One button: queue the post-game analysis and read it in the replay.
      opts.analysisUrl && opts.csrf && !res.aborted ? h(doc, "form", { method: "post", action: opts.analysisUrl, className: "inline" }, [
        h(doc, "input", { type: "hidden", name: "csrfmiddlewaretoken", value: opts.csrf }),
        h(doc, "button", { type: "submit", className: "secondary", text: t("Analyse this game") }),
      ]) : null,
    ]),
  ]);
}

// ---------------------------------------------------------------------------
// Results: one model for every game (each board used to keep its own copy, and
// the copies had drifted: names capitalised in some, "nullth" places or only
// "1st"/"2nd" in others).

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th", 22 -> "22nd", 112 -> "112th". */
function ordinal(n) {
  // Other languages write a place their own way ("1º", "1.", "第1名").
  if (!/^en\b/.test(language())) return t("%(n)s. (place)", { n: n });
  const suffixes = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (suffixes[(v - 20) % 10] || suffixes[v] || suffixes[0]);
}

/**
 * "Ana wins", "You win", or the winners joined ("Ana, Bo and Chen") and
 * `several` ("win" unless a game has its own words: "share the win"). Names
 * are shown as written: a player called "mei" is never turned into "Mei".
 */
function winnersText(ctx, winners, several) {
  if (!winners || !winners.length) return t("nobody wins");
  const names = winners.map((seat) => seatLabel(ctx, seat));
  if (names.length === 1) return isYou(ctx, winners[0]) ? t("You win") : t("%(name)s wins", { name: names[0] });
  const params = { names: names.slice(0, -1).join(", "), last: names[names.length - 1] };
  return several ? t("%(names)s and %(last)s", params) + " " + several : t("%(names)s and %(last)s win", params);
}

/** A seat's value in one of the engine's per-seat score lists, or null. */
function seatScore(scores, key, seat) {
  const values = scores[key];
  return values && values[seat] !== undefined ? values[seat] : null;
}

/**
 * What a finished (or called-off) match's results panel shows, the same for
 * every game: the headline, whether the viewer won, the platform's and the
 * game's reasons, the seat rows in place order (none when called off) and the
 * seed to check. frame: a `state` frame with `result`; opts: {names, useYou};
 * game: {winnersText(ctx, winners), reasons (the engine's reason -> the
 * game's words), columns(scores, seat) (the game's own fields of a row)}.
 */
function resultModel(frame, opts, game) {
  opts = opts || {};
  const names = opts.names || (frame.seats || []).map((s, i) => s.name || "Seat " + i);
  const ctx = { names: names, viewer: frame.seat === undefined ? null : frame.seat, useYou: opts.useYou !== false };
  const result = frame.result || {};
  const engine = result.engine || null;
  const placements = result.placements || [];
  const winners = result.winners || [];
  const forfeited = result.forfeited || [];
  const scores = (engine && engine.scores) || {};
  const rows = names.map((name, seat) => {
    const place = placements[seat] === undefined ? null : placements[seat];
    return Object.assign({
      seat: seat,
      name: seatName(ctx, seat) === "You" ? t("%(name)s (you)", { name: name }) : name,
      place: place,
      placeText: place ? ordinal(place) : "",
      winner: winners.includes(seat),
      forfeited: forfeited.includes(seat),
    }, game.columns(scores, seat));
  });
  // A seat without a place comes after the placed ones, in seat order.
  const order = (row) => row.place || Number.MAX_SAFE_INTEGER;
  rows.sort((a, b) => order(a) - order(b) || a.seat - b.seat);
  const aborted = frame.status === "aborted";
  let headline;
  if (aborted) headline = t("Match called off: no result.");
  else if (winners.length) headline = game.winnersText(ctx, winners) + "!";
  else headline = t("The game is over.");
  return {
    aborted: aborted,
    headline: headline,
    youWon: ctx.viewer !== null && winners.includes(ctx.viewer),
    endReason: endReasonText(frame.end_reason),
    gameReason: engine && engine.reason ? game.reasons[engine.reason] || engine.reason : null,
    rows: aborted ? [] : rows,
    seed: frame.seed === undefined ? null : frame.seed,
    seedHash: frame.seed_hash || null,
    match: frame.match || null,
  };
}

export { joinClauses, joinPhrases, isYou, nameOf, seatLabel, plural, seatName, possessive, possessiveLower, objectName, namedSeats, subj, capitalize, sentence,
  END_REASONS, endReasonText, ordinal, winnersText, seatScore, resultModel, isPerSeatPrivate, privateTag, eventFormatter,
  stepsFormatter, clockRemaining, formatClock, frameBasics, platformSeat, turnStatus, modelBase, describeSeats, viewerLine, viewerPossessive,
  sha256Hex, verifySeed, h, clear, emptyPileEl, presenceEl, actionGroupEl, renderPanel, tickClocks, tickDue,
  renderLog, resultsPanelEl, resultsTableEl, cardListText };
