/*
 * What every game's board shares: seat names and sentences, the game log,
 * clocks, the seed check, the side panel (status, prompt, action groups,
 * "Sending your choice…") and the small DOM helpers. A game's board script
 * (static/js/boards/<game>.js) takes these and only draws its own game.
 *
 * In the browser this registers window.KfaBoardCommon and must load before
 * the game's script (templates/gameplay/match.html and replay.html load it);
 * in node (tests/frontend/) it is a CommonJS module the board scripts require.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.KfaBoardCommon = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

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

  function possessive(ctx, seat) {
    var name = seatName(ctx, seat);
    if (name === "You") return "Your";
    return name + (/s$/.test(name) ? "'" : "'s");
  }

  /** Object form: "your" mid-sentence for the viewer. */
  function possessiveLower(ctx, seat) {
    var p = possessive(ctx, seat);
    return p === "Your" ? "your" : p;
  }

  function objectName(ctx, seat) {
    var name = seatName(ctx, seat);
    return name === "You" ? "you" : name;
  }

  /** Subject + verb agreeing with "You": subj(ctx, 1, "draw", "draws"). */
  function subj(ctx, seat, you, other) {
    var name = seatName(ctx, seat);
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
  var END_REASONS = {
    completed: "The game was played to the end.",
    resigned: "A player resigned.",
    aborted: "The match was called off before the first move.",
    abandoned: "A player left and did not come back.",
    left: "A player left and a bot finished their seat.",
    "time forfeit": "A player ran out of time.",
  };

  function endReasonText(reason) {
    if (!reason) return "";
    return END_REASONS[reason] || "Ended: " + String(reason).replace(/_/g, " ") + ".";
  }

  // ---------------------------------------------------------------------------
  // The game log.

  function isPerSeatPrivate(priv) {
    var keys = Object.keys(priv || {});
    return keys.length > 0 && keys.every(function (k) { return /^\d+$/.test(k); });
  }

  /** The label of a private log entry: "Only you", or "Only Ana" in a replay. */
  function privateTag(ctx, seat) {
    return ctx.useYou === false ? "Only " + seatName(Object.assign({}, ctx, { useYou: false }), seat) : "Only you";
  }

  /**
   * A game's formatEvent from its sentence tables. PUBLIC[type](pub, ctx) gives
   * the public sentence; PRIVATE[type](priv, pub, ctx, owner) what that seat
   * alone saw; thirdPerson(text, ctx, owner) rewords a private sentence for
   * a full-reveal replay.
   *
   * A seat's own events carry `private` as that seat's part ({card: 6});
   * a full-reveal replay carries raw events whose `private` maps seat numbers
   * to parts ({"0": {card: 6}}): each becomes a "reveal" entry naming its seat.
   */
  function eventFormatter(PUBLIC, PRIVATE, thirdPerson) {
    return function formatEvent(ev, ctx) {
      ctx = ctx || {};
      var type = ev && ev.type;
      var pub = (ev && ev.public) || {};
      var priv = (ev && ev.private) || {};
      var fmt = PUBLIC[type];
      var entries = [{
        scope: "public", type: type, known: !!fmt,
        text: fmt ? fmt(pub, ctx) : "Event: " + String(type).replace(/_/g, " ") + ".",
      }];
      var pfmt = PRIVATE[type];
      if (!pfmt) return entries;
      if (ctx.allPrivate || isPerSeatPrivate(priv)) {
        Object.keys(priv).sort().forEach(function (key) {
          var owner = Number(key);
          var text = pfmt(priv[key], pub, Object.assign({}, ctx, { viewer: owner }), owner);
          entries.push({ scope: "reveal", type: type, seat: owner, known: true, tag: "Secret", text: thirdPerson(text, ctx, owner) });
        });
      } else if (Object.keys(priv).length) {
        var own = pfmt(priv, pub, ctx, ctx.viewer);
        if (ctx.useYou === false && ctx.viewer !== null && ctx.viewer !== undefined) own = thirdPerson(own, ctx, ctx.viewer);
        entries.push({ scope: "private", type: type, seat: ctx.viewer, known: true, text: own, tag: privateTag(ctx, ctx.viewer) });
      }
      return entries;
    };
  }

  /** A game's formatSteps: log entries for steps ({version, seat, kind, events}). */
  function stepsFormatter(formatEvent) {
    return function formatSteps(steps, ctx) {
      var out = [];
      (steps || []).forEach(function (step) {
        if (step.kind === "timeout") {
          out.push({ scope: "public", type: "timeout", version: step.version, known: true, text: possessive(ctx, step.seat) + " clock ran out: the default choice was played." });
        } else if (step.kind === "takeover") {
          out.push({ scope: "public", type: "takeover", version: step.version, known: true, text: "A bot moved for " + objectName(ctx, step.seat) + ", who left the match." });
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
      var deadline = Date.parse(seat.deadline);
      if (!isNaN(deadline)) return Math.max(0, deadline - nowMs);
    }
    if (seat.clock_ms !== null && seat.clock_ms !== undefined) return Math.max(0, seat.clock_ms);
    return null;
  }

  function formatClock(ms) {
    if (ms === null || ms === undefined) return "";
    var total = Math.ceil(ms / 1000);
    var hrs = Math.floor(total / 3600);
    var m = Math.floor((total % 3600) / 60);
    var s = total % 60;
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
    var view = frame.view || null;
    var viewer = frame.seat === undefined ? null : frame.seat;
    var platformSeats = frame.seats || [];
    var names = opts.names || platformSeats.map(function (s, i) { return s.name || "Seat " + i; });
    var status = frame.status || "active";
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
    var ps = b.platformSeats[i] || {};
    var isActor = b.actors.indexOf(i) >= 0;
    var hand = null;
    if (b.viewer === i && b.view && b.view.hand) hand = b.view.hand.slice();
    else if (b.fullHands && b.fullHands[i]) hand = b.fullHands[i].slice();
    var clock = clockRemaining(ps, b.nowMs, b.clocksRun && isActor);
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
   * Whose move it is and the status line. phaseWait[phase] words what the
   * actor is doing; myTurnSuffix (optional) is added to "Your move: …".
   */
  function turnStatus(b, phaseWait, myTurnSuffix) {
    var view = b.view, status = b.status, actors = b.actors;
    // A seat that resigned or left is played by a bot: its player only watches.
    var mine = b.viewer !== null ? b.platformSeats[b.viewer] || {} : {};
    var benched = !!(mine.forfeited || mine.replaced_by_bot);
    var myTurn = b.viewer !== null && actors.indexOf(b.viewer) >= 0 && status === "active" && !benched;
    var line;
    if (!view) line = "Waiting for the deal.";
    else if (status === "aborted") line = "The match was called off.";
    else if (status === "finished" || !actors.length) line = "The game is over.";
    else if (benched && status === "active") line = "You left this match: a bot plays your seat.";
    else if (myTurn) line = "Your move: " + sentence(view.prompt) + (myTurnSuffix || "");
    else line = subj(b.ctx, actors[0], "are", "is") + " " + (phaseWait[view.phase] || view.prompt) + ".";
    return { myTurn: myTurn, benched: benched, statusLine: line };
  }

  /** The fields every game's board model has; a game's boardModel adds its own. */
  function modelBase(b, turn) {
    var view = b.view;
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
      prompt: view ? capitalize(view.prompt) : "",
      statusLine: turn.statusLine,
      actors: b.actors.slice(),
      myTurn: turn.myTurn,
    };
  }

  // ---------------------------------------------------------------------------
  // The seed commitment.

  /** SHA-256 hex of `text` (the published commitment hashes "<match>:<seed>"). */
  function sha256Hex(text, cryptoImpl) {
    var c = cryptoImpl || (typeof crypto !== "undefined" ? crypto : null);
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
    var el = doc.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
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
    return h(doc, "div", { className: "kcard kcard-md kcard-empty", text: "empty" });
  }

  /** A seat's connection: online, away or bot (nothing when unknown). */
  function presenceEl(doc, seat) {
    if (seat.connected === null) return null;
    var text = seat.isBot ? "bot" : seat.connected ? "online" : "away";
    return h(doc, "span", {
      className: "presence " + (seat.isBot ? "bot" : seat.connected ? "on" : "off"),
      title: seat.isBot ? "Played by a bot" : seat.connected ? "Connected" : "Not connected",
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
    var doc = root.ownerDocument;
    var slot = function (name) { return root.querySelector('[data-role="' + name + '"]'); };
    var prompt = slot("prompt");
    var status = slot("status");
    if (status && !prompt) status.textContent = model.statusLine;
    var round = slot("round");
    if (round) round.textContent = roundText || "";
    var delay = slot("delay");
    if (delay) {
      delay.hidden = !model.delayedBy;
      delay.textContent = model.delayedBy ? "Delayed by " + plural(model.delayedBy, "move", "moves") : "";
    }
    if (prompt) {
      clear(prompt);
      prompt.classList.toggle("my-turn", model.myTurn);
      prompt.appendChild(h(doc, "p", { className: "prompt-text", text: model.statusLine }));
      if (controls) prompt.appendChild(controls);
      if (opts && opts.pending) prompt.appendChild(h(doc, "p", { className: "small muted", text: "Sending your choice…" }));
    }
    root.classList.toggle("is-spectator", model.spectator);
    root.classList.toggle("is-my-turn", model.myTurn);
  }

  /** Refresh only the clock labels (called every second). */
  function tickClocks(root, frame, nowMs) {
    var seats = frame.seats || [];
    var actors = frame.view ? frame.view.actors || [] : [];
    var active = frame.status === "active";
    Array.prototype.forEach.call(root.querySelectorAll(".clock[data-seat]"), function (el) {
      var i = Number(el.getAttribute("data-seat"));
      var running = active && actors.indexOf(i) >= 0;
      var ms = clockRemaining(seats[i], nowMs, running);
      el.textContent = formatClock(ms);
      el.classList.toggle("low", running && ms !== null && ms < 10000);
    });
  }

  /** Append log entries to an <ol>; entries marked `current` are highlighted. */
  function renderLog(list, entries, opts) {
    opts = opts || {};
    var doc = list.ownerDocument;
    if (opts.replace) clear(list);
    entries.forEach(function (entry) {
      var label = entry.scope === "public" ? null : entry.tag || (entry.scope === "private" ? "Only you" : "Secret");
      list.appendChild(h(doc, "li", {
        className: "log-entry log-" + entry.scope + (entry.current ? " current" : ""),
        "data-version": entry.version === undefined ? null : entry.version,
      }, [label ? h(doc, "span", { className: "log-tag", text: label }) : null, entry.text]));
    });
    if (opts.scroll !== false) list.scrollTop = list.scrollHeight;
  }

  /**
   * The results panel: headline, `reason` line, the game's own `table`, then
   * the seed with its check and the replay link. res: a game's resultModel
   * (headline, seed, seedHash, match, aborted); opts: {replayUrl}.
   */
  function resultsPanelEl(doc, res, reason, table, opts) {
    opts = opts || {};
    var verifyOut = h(doc, "span", { className: "verify-out", "aria-live": "polite" });
    var verifyBtn = res.seed !== null && res.seedHash ? h(doc, "button", {
      type: "button", className: "secondary small", text: "Verify seed",
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
        h(doc, "dt", { text: "Seed" }), h(doc, "dd", {}, [h(doc, "code", { text: String(res.seed) })]),
        h(doc, "dt", { text: "Published hash" }), h(doc, "dd", {}, [h(doc, "code", { className: "hash", text: res.seedHash || "" })]),
      ]) : null,
      h(doc, "p", { className: "results-actions" }, [
        verifyBtn, verifyOut,
        opts.replayUrl && !res.aborted ? h(doc, "a", { className: "button", href: opts.replayUrl, text: "Watch the replay" }) : null,
      ]),
    ]);
  }

  /**
   * What a finished (or called-off) match's results panel shows, the same for
   * every game: the headline, whether the viewer won, the platform's and the
   * game's reasons, the seat rows (none when called off) and the seed to check.
   * ``parts``: winners (seats), winnersText (their names as a phrase),
   * gameReason (the game's own wording or null), rows (the game's seat rows).
   */
  function finishedSummary(frame, ctx, parts) {
    var aborted = frame.status === "aborted";
    var winners = parts.winners;
    var headline;
    if (aborted) headline = "Match called off: no result.";
    else if (winners.length) headline = capitalize(parts.winnersText) + "!";
    else headline = "The game is over.";
    return {
      aborted: aborted,
      headline: headline,
      youWon: ctx.viewer !== null && winners.indexOf(ctx.viewer) >= 0,
      endReason: endReasonText(frame.end_reason),
      gameReason: parts.gameReason,
      rows: aborted ? [] : parts.rows,
      seed: frame.seed === undefined ? null : frame.seed,
      seedHash: frame.seed_hash || null,
      match: frame.match || null,
    };
  }

  return {
    plural: plural,
    seatName: seatName,
    possessive: possessive,
    possessiveLower: possessiveLower,
    objectName: objectName,
    subj: subj,
    capitalize: capitalize,
    sentence: sentence,
    END_REASONS: END_REASONS,
    endReasonText: endReasonText,
    finishedSummary: finishedSummary,
    isPerSeatPrivate: isPerSeatPrivate,
    privateTag: privateTag,
    eventFormatter: eventFormatter,
    stepsFormatter: stepsFormatter,
    clockRemaining: clockRemaining,
    formatClock: formatClock,
    frameBasics: frameBasics,
    platformSeat: platformSeat,
    turnStatus: turnStatus,
    modelBase: modelBase,
    sha256Hex: sha256Hex,
    verifySeed: verifySeed,
    h: h,
    clear: clear,
    emptyPileEl: emptyPileEl,
    presenceEl: presenceEl,
    actionGroupEl: actionGroupEl,
    renderPanel: renderPanel,
    tickClocks: tickClocks,
    renderLog: renderLog,
    resultsPanelEl: resultsPanelEl,
  };
});
