/*
 * Replay viewer: step through a finished match as one perspective saw it.
 *
 * The API (GET <replay_api>?perspective=full|seat:N|spectator) returns every
 * step with the events and the observation of that perspective; this file
 * turns a step into a board frame (drawn read-only by the game's board), builds the
 * log up to the step, and checks the revealed seed against the hash that was
 * published before the first move. `B` is the game's board module, which
 * templates/gameplay/replay.html imports and hands to startPage.
 */

import { renderLog, verifySeed } from "./boards/common.js";
import { renderLines } from "./screen-reader.js";
import { t } from "./i18n.js";

/** "full" | "spectator" | "seat:N" -> {kind, seat}. */
function parsePerspective(value) {
  const m = /^seat:(\d+)$/.exec(value || "");
  if (m) return { kind: "seat", seat: Number(m[1]) };
  return { kind: value === "spectator" ? "spectator" : "full", seat: null };
}

/** The formatting context of a perspective: names, no "You", who sees what. */
function logContext(data) {
  const p = parsePerspective(data.perspective);
  return {
    names: data.players || [],
    viewer: p.seat,
    useYou: false,
    allPrivate: p.kind === "full",
  };
}

/** A board frame (as the board's boardModel expects) for step `index`. */
function stepFrame(data, index) {
  const step = data.steps[index];
  const p = parsePerspective(data.perspective);
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
  const minutes = Math.floor(ms / 60000);
  const seconds = (ms % 60000) / 1000;
  return minutes + ":" + (seconds < 10 ? "0" : "") + seconds.toFixed(3);
}

/** "Step i of n", with when the server applied it (the timeline). */
function positionText(data, index) {
  const text = "Step " + index + " of " + (data.steps.length - 1);
  const at = index > 0 ? timeText(data.steps[index].at_ms) : "";
  return at ? text + " · at " + at : text;
}

/** What happened at step `index`, in one line. */
function stepLabel(B, data, index) {
  const step = data.steps[index];
  const ctx = logContext(data);
  if (index === 0 || step.action_id === null || step.action_id === undefined) {
    return "The deal: " + (data.players || []).length + " players, round 1.";
  }
  // Another seat's choice of card is hidden in its perspective until revealed.
  const p = parsePerspective(data.perspective);
  const hide = p.kind === "spectator" || (p.kind === "seat" && p.seat !== step.seat);
  let text = B.describeAction(step.action_id, step.seat, Object.assign({}, ctx, { hideCards: hide }), step.label);
  if (step.kind === "timeout") text += " (clock ran out: default choice)";
  if (step.kind === "takeover") text += " (played by the bot that took over)";
  return "Move " + step.version + ": " + text;
}

/** Log entries up to and including step `index`; that step's are `current`. */
function replayLog(B, data, index) {
  const ctx = logContext(data);
  const p = parsePerspective(data.perspective);
  const first = data.steps[0];
  const deal = { scope: "public", version: 0, known: true, text: B.dealText((data.players || []).length) };
  let entries = [deal];
  if (p.kind === "full" && first && first.hands) {
    first.hands.forEach(function (hand, seat) {
      entries.push({ scope: "reveal", tag: t("Secret"), version: 0, known: true, seat: seat, text: (ctx.names[seat] || "Seat " + seat) + " was dealt " + B.cardList(hand) + "." });
    });
  } else if (p.kind === "seat" && first && first.view && first.view.hand) {
    entries.push({ scope: "private", tag: "Only " + (ctx.names[p.seat] || "Seat " + p.seat), version: 0, known: true, seat: p.seat, text: (ctx.names[p.seat] || "Seat " + p.seat) + " was dealt " + B.cardList(first.view.hand) + "." });
  }
  entries = entries.concat(B.formatSteps(data.steps.slice(1, index + 1), ctx));
  const current = data.steps[index].version;
  entries.forEach(function (e) { e.current = e.version === current; });
  return entries;
}

function clampStep(data, index) {
  if (!data || !data.steps.length) return 0;
  return Math.max(0, Math.min(data.steps.length - 1, index));
}

function parseHash(hash) {
  const out = {};
  String(hash || "").replace(/^#/, "").split("&").forEach(function (part) {
    const kv = part.split("=");
    if (kv[0]) out[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || "");
  });
  return out;
}

// ---------------------------------------------------------------------------
// The page.

function startPage(win, B) {
  const doc = win.document;
  const panel = doc.getElementById("replay-controls");
  const board = doc.getElementById("kfa-board");
  if (!panel || !board || !B) return null;
  const q = function (el, role) { return el.querySelector('[data-role="' + role + '"]'); };
  const select = q(panel, "perspective");
  const slider = q(panel, "slider");
  const loading = q(panel, "loading");
  const position = q(panel, "position");
  const label = q(panel, "step-label");
  const errorBox = q(panel, "replay-error");
  const verifyBtn = q(panel, "verify");
  const verifyOut = q(panel, "verify-out");
  const seedLine = q(panel, "seed-line");
  const logList = q(board, "log");
  // The log is redrawn at every step; the step label is what gets announced.
  logList.setAttribute("aria-live", "off");
  const cache = {};
  let data = null;
  let index = 0;
  let requested = null;

  B.renderCardReference(q(board, "card-reference"), Number(board.getAttribute("data-players")) || 2);

  function writeHash() {
    if (!data) return;
    const hash = "#perspective=" + encodeURIComponent(data.perspective) + "&step=" + index;
    if (win.history && win.history.replaceState) win.history.replaceState(null, "", hash);
  }

  function show(i) {
    if (!data) return;
    index = clampStep(data, i);
    slider.value = String(index);
    position.textContent = positionText(data, index);
    label.textContent = stepLabel(B, data, index);
    const frame = stepFrame(data, index);
    const model = B.boardModel(frame, { names: data.players, readOnly: true, useYou: false });
    B.renderBoard(board, model, {});
    const status = q(board, "status");
    if (status) status.textContent = model.statusLine.replace(/^Your move: /, "");
    // The step in words (the board's describeBoard, as in the live table's
    // screen-reader mode), under "The table in words".
    const words = q(panel, "step-words");
    if (words) renderLines(words, B.describeBoard(model));
    renderLog(logList, replayLog(B, data, index), { replace: true, scroll: false });
    const cur = logList.querySelector(".current:last-child") || logList.lastElementChild;
    if (cur) logList.scrollTop = Math.max(0, cur.offsetTop - logList.offsetTop - logList.clientHeight + cur.offsetHeight + 8);
    Array.prototype.forEach.call(panel.querySelectorAll("[data-nav]"), function (b) {
      const nav = b.getAttribute("data-nav");
      b.disabled = (nav === "start" || nav === "back") ? index === 0 : index === data.steps.length - 1;
    });
    writeHash();
    // The analysis panel (analysis.js) follows the step shown.
    if (typeof win.CustomEvent === "function") {
      panel.dispatchEvent(new win.CustomEvent("replay:step", {
        detail: { index: index, version: data.steps[index].version, perspective: data.perspective },
      }));
    }
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
    loading.textContent = t("Loading…");
    const url = panel.getAttribute("data-api") + "?perspective=" + encodeURIComponent(perspective);
    win.fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(function (res) {
      return res.json().then(function (body) {
        if (!res.ok) throw new Error(body.detail || body.message || t("The replay could not be loaded (%(status)s).", { status: res.status }));
        return body;
      });
    }).then(function (body) {
      cache[perspective] = body;
      if (requested !== perspective) return;
      data = body;
      loading.textContent = "";
      slider.max = String(data.steps.length - 1);
      seedLine.textContent = t("Seed %(seed)s · published hash %(hash)s", { seed: data.seed, hash: data.seed_hash });
      show(step === undefined ? index : step);
    }).catch(function (err) {
      fail(err.message || String(err));
    });
  }

  select.addEventListener("change", function () { load(select.value); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  panel.addEventListener("click", function (ev) {
    const b = ev.target.closest("[data-nav]");
    if (!b || !data) return;
    const nav = b.getAttribute("data-nav");
    if (nav === "start") show(0);
    else if (nav === "end") show(data.steps.length - 1);
    else if (nav === "back") show(index - 1);
    else if (nav === "forward") show(index + 1);
  });
  doc.addEventListener("keydown", function (ev) {
    if (!data || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: data.steps.length - 1 };
    if (!(ev.key in moves)) return;
    ev.preventDefault();
    show(moves[ev.key]);
  });
  verifyBtn.addEventListener("click", function () {
    if (!data) return;
    verifyOut.textContent = t("Computing…");
    verifyOut.className = "";
    verifySeed(data.match, data.seed, data.seed_hash).then(function (r) {
      verifyOut.textContent = r.ok
        ? "✓ sha256(\"" + data.match + ":" + data.seed + "\") matches the hash published at the start."
        : "✗ The hash does not match: computed " + r.computed + ".";
      verifyOut.className = "verify-out " + (r.ok ? "ok" : "bad");
    }, function (err) {
      verifyOut.textContent = "✗ " + err.message;
      verifyOut.className = "verify-out bad";
    });
  });

  const initial = parseHash(win.location.hash);
  let perspective = initial.perspective || "full";
  if (!Array.prototype.some.call(select.options, function (o) { return o.value === perspective; })) perspective = "full";
  select.value = perspective;
  load(perspective, initial.step !== undefined ? Number(initial.step) || 0 : 0);
  return { show: show, load: load };
}

export { parsePerspective, logContext, stepFrame, stepLabel, timeText, positionText, replayLog,
  clampStep, parseHash, startPage };
