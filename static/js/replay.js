/*
 * Replay viewer: step through a finished match as one perspective saw it.
 *
 * The API (GET <replay_api>?perspective=full|seat:N|spectator) returns every
 * step with the events and the observation of that perspective; this file
 * turns a step into a board frame (drawn read-only by the game's board), builds the
 * log up to the step, and checks the revealed seed against the hash that was
 * published before the first move.
 */
(function (root, factory) {
  "use strict";
  // factory(board) gives the viewer for one game's board (KfaBoards[game]).
  if (typeof module === "object" && module.exports) {
    module.exports = factory;
  } else {
    root.KfaReplay = factory;
    if (root.document) {
      var start = function () {
        var el = root.document.getElementById("kfa-board");
        var board = el && (root.KfaBoards || {})[el.getAttribute("data-game")];
        if (board) factory(board).startPage(root);
      };
      if (root.document.readyState === "loading") root.document.addEventListener("DOMContentLoaded", start);
      else start();
    }
  }
})(typeof self !== "undefined" ? self : this, function (B) {
  "use strict";

  /** "full" | "spectator" | "seat:N" -> {kind, seat}. */
  function parsePerspective(value) {
    var m = /^seat:(\d+)$/.exec(value || "");
    if (m) return { kind: "seat", seat: Number(m[1]) };
    return { kind: value === "spectator" ? "spectator" : "full", seat: null };
  }

  /** The formatting context of a perspective: names, no "You", who sees what. */
  function logContext(data) {
    var p = parsePerspective(data.perspective);
    return {
      names: data.players || [],
      viewer: p.seat,
      useYou: false,
      allPrivate: p.kind === "full",
    };
  }

  /** A board frame (as the board's boardModel expects) for step `index`. */
  function stepFrame(data, index) {
    var step = data.steps[index];
    var p = parsePerspective(data.perspective);
    return {
      match: data.match,
      status: "replay",
      version: step.version,
      seat: p.seat,
      seats: (data.players || []).map(function (name, i) { return { number: i, name: name }; }),
      view: step.view,
      legal: [],
      hands: p.kind === "full" ? step.hands || null : null,
    };
  }

  /** A step's server stamp (ms from the start) as "m:ss.mmm", or "" if unknown. */
  function timeText(ms) {
    if (typeof ms !== "number" || !isFinite(ms) || ms < 0) return "";
    var minutes = Math.floor(ms / 60000);
    var seconds = (ms % 60000) / 1000;
    return minutes + ":" + (seconds < 10 ? "0" : "") + seconds.toFixed(3);
  }

  /** "Step i of n", with when the server applied it (the timeline). */
  function positionText(data, index) {
    var text = "Step " + index + " of " + (data.steps.length - 1);
    var at = index > 0 ? timeText(data.steps[index].at_ms) : "";
    return at ? text + " · at " + at : text;
  }

  /** What happened at step `index`, in one line. */
  function stepLabel(data, index) {
    var step = data.steps[index];
    var ctx = logContext(data);
    if (index === 0 || step.action_id === null || step.action_id === undefined) {
      return "The deal: " + (data.players || []).length + " players, round 1.";
    }
    // Another seat's choice of card is hidden in its perspective until revealed.
    var p = parsePerspective(data.perspective);
    var hide = p.kind === "spectator" || (p.kind === "seat" && p.seat !== step.seat);
    var text = B.describeAction(step.action_id, step.seat, Object.assign({}, ctx, { hideCards: hide }), step.label);
    if (step.kind === "timeout") text += " (clock ran out: default choice)";
    if (step.kind === "takeover") text += " (played by the bot that took over)";
    return "Move " + step.version + ": " + text;
  }

  /** Log entries up to and including step `index`; that step's are `current`. */
  function replayLog(data, index) {
    var ctx = logContext(data);
    var p = parsePerspective(data.perspective);
    var first = data.steps[0];
    var deal = { scope: "public", version: 0, known: true, text: B.dealText ? B.dealText((data.players || []).length) : "The cards are dealt." };
    var entries = [deal];
    if (p.kind === "full" && first && first.hands) {
      first.hands.forEach(function (hand, seat) {
        entries.push({ scope: "reveal", tag: "Secret", version: 0, known: true, seat: seat, text: (ctx.names[seat] || "Seat " + seat) + " was dealt " + B.cardList(hand) + "." });
      });
    } else if (p.kind === "seat" && first && first.view && first.view.hand) {
      entries.push({ scope: "private", tag: "Only " + (ctx.names[p.seat] || "Seat " + p.seat), version: 0, known: true, seat: p.seat, text: (ctx.names[p.seat] || "Seat " + p.seat) + " was dealt " + B.cardList(first.view.hand) + "." });
    }
    entries = entries.concat(B.formatSteps(data.steps.slice(1, index + 1), ctx));
    var current = data.steps[index].version;
    entries.forEach(function (e) { e.current = e.version === current; });
    return entries;
  }

  function clampStep(data, index) {
    if (!data || !data.steps.length) return 0;
    return Math.max(0, Math.min(data.steps.length - 1, index));
  }

  function parseHash(hash) {
    var out = {};
    String(hash || "").replace(/^#/, "").split("&").forEach(function (part) {
      var kv = part.split("=");
      if (kv[0]) out[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || "");
    });
    return out;
  }

  // ---------------------------------------------------------------------------
  // The page.

  function startPage(win) {
    var doc = win.document;
    var panel = doc.getElementById("replay-controls");
    var board = doc.getElementById("kfa-board");
    if (!panel || !board || !B) return null;
    var q = function (el, role) { return el.querySelector('[data-role="' + role + '"]'); };
    var select = q(panel, "perspective");
    var slider = q(panel, "slider");
    var loading = q(panel, "loading");
    var position = q(panel, "position");
    var label = q(panel, "step-label");
    var errorBox = q(panel, "replay-error");
    var verifyBtn = q(panel, "verify");
    var verifyOut = q(panel, "verify-out");
    var seedLine = q(panel, "seed-line");
    var logList = q(board, "log");
    // The log is redrawn at every step; the step label is what gets announced.
    logList.setAttribute("aria-live", "off");
    var cache = {};
    var data = null;
    var index = 0;
    var requested = null;

    B.renderCardReference(q(board, "card-reference"), Number(board.getAttribute("data-players")) || 2);

    function writeHash() {
      if (!data) return;
      var hash = "#perspective=" + encodeURIComponent(data.perspective) + "&step=" + index;
      if (win.history && win.history.replaceState) win.history.replaceState(null, "", hash);
    }

    function show(i) {
      if (!data) return;
      index = clampStep(data, i);
      slider.value = String(index);
      position.textContent = positionText(data, index);
      label.textContent = stepLabel(data, index);
      var frame = stepFrame(data, index);
      var model = B.boardModel(frame, { names: data.players, readOnly: true, useYou: false });
      B.renderBoard(board, model, {});
      var status = q(board, "status");
      if (status) status.textContent = model.statusLine.replace(/^Your move: /, "");
      B.renderLog(logList, replayLog(data, index), { replace: true, scroll: false });
      var cur = logList.querySelector(".current:last-child") || logList.lastElementChild;
      if (cur) logList.scrollTop = Math.max(0, cur.offsetTop - logList.offsetTop - logList.clientHeight + cur.offsetHeight + 8);
      Array.prototype.forEach.call(panel.querySelectorAll("[data-nav]"), function (b) {
        var nav = b.getAttribute("data-nav");
        b.disabled = (nav === "start" || nav === "back") ? index === 0 : index === data.steps.length - 1;
      });
      writeHash();
    }

    function fail(message) {
      errorBox.textContent = message;
      errorBox.hidden = false;
      loading.textContent = "";
    }

    function load(perspective, step) {
      requested = perspective;
      errorBox.hidden = true;
      if (cache[perspective]) {
        data = cache[perspective];
        loading.textContent = "";
        slider.max = String(data.steps.length - 1);
        show(step === undefined ? index : step);
        return;
      }
      loading.textContent = "Loading…";
      var url = panel.getAttribute("data-api") + "?perspective=" + encodeURIComponent(perspective);
      win.fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(function (res) {
        return res.json().then(function (body) {
          if (!res.ok) throw new Error(body.detail || body.message || "The replay could not be loaded (" + res.status + ").");
          return body;
        });
      }).then(function (body) {
        cache[perspective] = body;
        if (requested !== perspective) return;
        data = body;
        loading.textContent = "";
        slider.max = String(data.steps.length - 1);
        seedLine.textContent = "Seed " + data.seed + " · published hash " + data.seed_hash;
        show(step === undefined ? index : step);
      }).catch(function (err) {
        fail(err.message || String(err));
      });
    }

    select.addEventListener("change", function () { load(select.value); });
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    panel.addEventListener("click", function (ev) {
      var b = ev.target.closest("[data-nav]");
      if (!b || !data) return;
      var nav = b.getAttribute("data-nav");
      if (nav === "start") show(0);
      else if (nav === "end") show(data.steps.length - 1);
      else if (nav === "back") show(index - 1);
      else if (nav === "forward") show(index + 1);
    });
    doc.addEventListener("keydown", function (ev) {
      if (!data || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var tag = (ev.target && ev.target.tagName) || "";
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      var moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: data.steps.length - 1 };
      if (!(ev.key in moves)) return;
      ev.preventDefault();
      show(moves[ev.key]);
    });
    verifyBtn.addEventListener("click", function () {
      if (!data) return;
      verifyOut.textContent = "Computing…";
      verifyOut.className = "";
      B.verifySeed(data.match, data.seed, data.seed_hash).then(function (r) {
        verifyOut.textContent = r.ok
          ? "✓ sha256(\"" + data.match + ":" + data.seed + "\") matches the hash published at the start."
          : "✗ The hash does not match: computed " + r.computed + ".";
        verifyOut.className = "verify-out " + (r.ok ? "ok" : "bad");
      }, function (err) {
        verifyOut.textContent = "✗ " + err.message;
        verifyOut.className = "verify-out bad";
      });
    });

    var initial = parseHash(win.location.hash);
    var perspective = initial.perspective || "full";
    if (!Array.prototype.some.call(select.options, function (o) { return o.value === perspective; })) perspective = "full";
    select.value = perspective;
    load(perspective, initial.step !== undefined ? Number(initial.step) || 0 : 0);
    return { show: show, load: load };
  }

  return {
    parsePerspective: parsePerspective,
    logContext: logContext,
    stepFrame: stepFrame,
    stepLabel: stepLabel,
    timeText: timeText,
    positionText: positionText,
    replayLog: replayLog,
    clampStep: clampStep,
    parseHash: parseHash,
    startPage: startPage,
  };
});
