/*
 * Post-game analysis in the replay viewer (docs/analysis.md).
 *
 * Reads GET /api/matches/<id>/analysis/?perspective=… (the same perspective as
 * the replay's "View"), polls it while the analysis is queued or running and
 * shows the progress, then draws the estimated win chance over the game as an
 * SVG graph with each decision marked by its grade, and, at the replay's
 * current step, the menu of the decision taken from that position with each
 * action's estimated value, the best one and the one taken. A seat's view
 * carries only that seat's own menus (the server strips the rest).
 */

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const GRADE_TEXT = { best: t("best"), inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder"), only: t("only move") };

/** A seat's name, or "Seat 2" when the page has none. */
function seatName(names, seat) {
  return names[Number(seat)] || t("Seat %(n)s", { n: seat });
}
const POLL_MS = 1500;

/** Points of the graph: per seat, [version, estimated win share] at each of
 * its searched decisions; with two players each decision also gives the other
 * seat's point (1 - value). */
function graphSeries(analysis) {
  const players = analysis.players || 2;
  const series = [];
  for (let s = 0; s < players; s += 1) series.push([]);
  (analysis.decisions || []).forEach(function (d) {
    if (d.value === null || d.value === undefined) return;
    series[d.seat].push({ version: d.version, y: d.value, grade: d.grade, own: true });
    if (players === 2) series[1 - d.seat].push({ version: d.version, y: 1 - d.value, grade: d.grade, own: false });
  });
  return series;
}

function pct(v) { return Math.round(v * 100) + "%"; }
function signed(v) { return (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(Math.round(v * 100)) + "%"; }

function el(doc, tag, attrs, text) {
  const node = tag.indexOf("svg:") === 0 ? doc.createElementNS(SVG, tag.slice(4)) : doc.createElement(tag);
  Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The SVG graph: one line per seat, decisions as graded dots. */
function graphEl(doc, analysis, names, lastVersion, onPick) {
  const W = 640, H = 180, L = 34, R = 8, T = 8, B = 20;
  const svg = el(doc, "svg:svg", { viewBox: "0 0 " + W + " " + H, class: "analysis-graph", role: "img",
    "aria-label": t("Estimated win chance over the game, each decision marked by its grade") });
  const x = function (v) { return L + (W - L - R) * (lastVersion ? v / lastVersion : 0); };
  const y = function (p) { return T + (H - T - B) * (1 - p); };
  [0, 0.5, 1].forEach(function (p) {
    svg.appendChild(el(doc, "svg:line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: "analysis-grid" }));
    svg.appendChild(el(doc, "svg:text", { x: 2, y: y(p) + 4, class: "analysis-axis" }, pct(p)));
  });
  const cursor = el(doc, "svg:line", { x1: L, x2: L, y1: T, y2: H - B, class: "analysis-cursor", "data-role": "cursor" });
  svg.appendChild(cursor);
  graphSeries(analysis).forEach(function (points, seat) {
    if (!points.length) return;
    const d = points.map(function (p, i) { return (i ? "L" : "M") + x(p.version).toFixed(1) + " " + y(p.y).toFixed(1); }).join(" ");
    svg.appendChild(el(doc, "svg:path", { d: d, class: "analysis-line seat-" + seat, "data-seat": seat }));
    points.forEach(function (p) {
      if (!p.own) return;
      const dot = el(doc, "svg:circle", { cx: x(p.version), cy: y(p.y), r: p.grade === "best" ? 2.5 : 4.5,
        class: "analysis-dot grade-" + p.grade + " seat-" + seat, "data-version": p.version, "data-grade": p.grade, tabindex: 0 });
      const title = t("%(name)s, step %(step)s: %(grade)s, estimated win chance %(chance)s",
        { name: seatName(names, seat), step: p.version, grade: GRADE_TEXT[p.grade], chance: pct(p.y) });
      dot.appendChild(el(doc, "svg:title", {}, title));
      dot.addEventListener("click", function () { onPick(p.version); });
      svg.appendChild(dot);
    });
  });
  svg.moveCursor = function (version) {
    cursor.setAttribute("x1", x(version));
    cursor.setAttribute("x2", x(version));
  };
  return svg;
}

/** The decision taken from the position after ``version`` (the next step). */
function decisionAfter(analysis, version) {
  const list = analysis.decisions || [];
  for (let i = 0; i < list.length; i += 1) if (list[i].version === version + 1) return list[i];
  return null;
}

/**
 * An action of a menu in the reader's language: the game's board words it
 * from its fields (board.actionText, docs/i18n.md); an analysis stored before
 * the fields were kept shows the engine's English label.
 */
function actionWords(B, names, id, fields, label) {
  if (!B || !B.actionText || !fields) return label || id;
  return B.actionText(Object.assign({ id: id, label: label }, fields), { names: names, viewer: null });
}

function menuEl(doc, d, names, B) {
  const taken = actionWords(B, names, d.taken, d.taken_action, d.taken_label);
  const params = { name: seatName(names, d.seat), grade: GRADE_TEXT[d.grade], action: taken, loss: d.loss ? pct(d.loss) : "" };
  const box = el(doc, "div", { class: "analysis-menu", "data-role": "analysis-menu" });
  if (!d.menu) {
    box.appendChild(el(doc, "p", { class: "small muted" }, t("%(name)s's decision (%(grade)s): its menu is not shown in this view.", params)));
    return box;
  }
  let head;
  if (d.grade === "only") head = t("%(name)s had one legal move.", params);
  else if (d.loss) head = t("%(name)s chose %(action)s: %(grade)s (loss %(loss)s).", params);
  else head = t("%(name)s chose %(action)s: %(grade)s.", params);
  box.appendChild(el(doc, "p", { class: "analysis-verdict grade-" + d.grade }, head));
  if (d.grade === "only") return box;
  const table = el(doc, "table", { class: "analysis-actions" });
  const thead = el(doc, "tr", {});
  [t("Action"), t("Estimated win chance"), t("Visits"), ""].forEach(function (title) { thead.appendChild(el(doc, "th", {}, title)); });
  table.appendChild(thead);
  d.menu.forEach(function (m) {
    const row = el(doc, "tr", { "data-action": m.id, class: (m.id === d.best ? "best " : "") + (m.id === d.taken ? "taken" : "") });
    row.appendChild(el(doc, "td", {}, actionWords(B, names, m.id, m.action, m.label)));
    row.appendChild(el(doc, "td", {}, m.value === null || m.value === undefined ? "–" : pct(m.value)));
    row.appendChild(el(doc, "td", {}, m.visits === undefined ? "" : String(m.visits)));
    const marks = [];
    if (m.id === d.best) marks.push("★ " + t("best"));
    if (m.id === d.taken) marks.push("✓ " + t("played"));
    row.appendChild(el(doc, "td", {}, marks.join(" · ")));
    table.appendChild(row);
  });
  box.appendChild(table);
  return box;
}

function summaryEl(doc, analysis, names) {
  const table = el(doc, "table", { class: "analysis-summary", "data-role": "analysis-summary" });
  const head = el(doc, "tr", {});
  const titles = [t("Player"), t("Decisions"), t("Mean loss"), t("Inaccuracies"), t("Mistakes"), t("Blunders"), t("Own decisions"), t("Chance"), t("Biggest mistakes")];
  titles.forEach(function (title) { head.appendChild(el(doc, "th", {}, title)); });
  table.appendChild(head);
  Object.keys(analysis.summary || {}).forEach(function (seat) {
    const s = analysis.summary[seat];
    const row = el(doc, "tr", {});
    row.appendChild(el(doc, "td", {}, seatName(names, seat)));
    row.appendChild(el(doc, "td", {}, String(s.decisions)));
    row.appendChild(el(doc, "td", {}, s.mean_loss === null ? "–" : pct(s.mean_loss)));
    row.appendChild(el(doc, "td", {}, String(s.grades.inaccuracy)));
    row.appendChild(el(doc, "td", {}, String(s.grades.mistake)));
    row.appendChild(el(doc, "td", {}, String(s.grades.blunder)));
    // Luck and skill: how the win share moved by the player's own choices
    // and by chance (deals, draws, dice), from the even start to the result.
    const luck = (analysis.luck || {})[seat];
    row.appendChild(el(doc, "td", {}, luck ? signed(luck.own_decisions) : "–"));
    row.appendChild(el(doc, "td", {}, luck ? signed(luck.chance) : "–"));
    const worst = (s.worst || []).map(function (w) {
      return t("step %(step)s: %(taken)s (best %(best)s, −%(loss)s)", { step: w.version, taken: w.taken, best: w.best, loss: pct(w.loss) });
    });
    row.appendChild(el(doc, "td", {}, worst.join("; ")));
    table.appendChild(row);
  });
  return table;
}

function secs(ms) { return t("%(s)s s", { s: (ms / 1000).toFixed(1) }); }

/** The real-time game's review: per player counts, then each moment. */
function reviewEl(doc, r, names) {
  const box = el(doc, "div", { class: "analysis-review", "data-role": "analysis-review" });
  const table = el(doc, "table", { class: "analysis-summary", "data-role": "analysis-summary" });
  const head = el(doc, "tr", {});
  [t("Player"), t("Missed claims"), t("Wrong claims"), t("Trades away")].forEach(function (title) { head.appendChild(el(doc, "th", {}, title)); });
  table.appendChild(head);
  Object.keys(r.summary).forEach(function (seat) {
    const s = r.summary[seat];
    const row = el(doc, "tr", {});
    [seatName(names, seat), s.missed_claims, s.wrong_claims, s.trades_away].forEach(function (v) { row.appendChild(el(doc, "td", {}, String(v))); });
    table.appendChild(row);
  });
  box.appendChild(table);
  const list = el(doc, "ul", { class: "analysis-moments" });
  r.missed_claims.forEach(function (m) {
    const params = { at: secs(m.from_ms), name: seatName(names, m.seat), code: m.code, level: m.level, held: secs(m.held_ms) };
    list.appendChild(el(doc, "li", {}, m.claimed_late
      ? t("%(at)s: %(name)s could claim %(code)s (%(level)s) for %(held)s before claiming it", params)
      : t("%(at)s: %(name)s could claim %(code)s (%(level)s) for %(held)s and never did", params)));
  });
  r.wrong_claims.forEach(function (w) {
    list.appendChild(el(doc, "li", {}, t("%(at)s: %(name)s's KUNG FU on %(code)s was wrong", { at: secs(w.at_ms), name: seatName(names, w.seat), code: w.code })));
  });
  r.trades_away.forEach(function (away) {
    const params = { at: secs(away.at_ms), name: seatName(names, away.seat), before: away.before, after: away.after };
    list.appendChild(el(doc, "li", {}, t("%(at)s: %(name)s traded away from every face-up combination (%(before)s → %(after)s cards missing at best)", params)));
  });
  if (!list.childNodes.length) list.appendChild(el(doc, "li", {}, t("Nothing to report: no missed, wrong or backward move.")));
  box.appendChild(list);
  return box;
}

/** win: the page's window; B: the game's board module (words the menus' actions). */
function startAnalysis(win, B) {
  const doc = win.document;
  const box = doc.getElementById("analysis-panel");
  const replay = doc.getElementById("replay-controls");
  if (!box || !replay) return null;
  const q = function (role) { return box.querySelector('[data-role="' + role + '"]'); };
  const statusLine = q("analysis-status");
  const bar = q("analysis-progress");
  const out = q("analysis-body");
  const names = JSON.parse(box.getAttribute("data-names") || "[]");
  let perspective = "full";
  let version = 0;
  let body = null;
  let graph = null;
  let timer = null;

  function showStep() {
    if (!body || !body.analysis || body.analysis.kind === "review") return;
    if (graph) graph.moveCursor(version);
    const old = out.querySelector('[data-role="analysis-menu"]');
    if (old) old.remove();
    const d = decisionAfter(body.analysis, version);
    if (d) out.appendChild(menuEl(doc, d, names, B));
  }

  function pick(v) {
    const slider = replay.querySelector('[data-role="slider"]');
    slider.value = String(v);
    slider.dispatchEvent(new win.Event("input"));
  }

  function render() {
    const status = body.status;
    const form = q("analysis-request");
    if (form) form.hidden = !(status === "none" || status === "failed");
    bar.hidden = !(status === "queued" || status === "running");
    if (status === "none") statusLine.textContent = t("No analysis yet.");
    else if (status === "queued") statusLine.textContent = t("Analysis queued…");
    else if (status === "running") {
      const p = body.progress || { done: 0, total: 0 };
      statusLine.textContent = t("Analysing… %(done)s of %(total)s decisions", { done: p.done, total: p.total });
      bar.max = Math.max(1, p.total);
      bar.value = p.done;
    } else if (status === "failed") {
      statusLine.textContent = body.error ? t("The analysis failed: %(error)s.", { error: body.error }) : t("The analysis failed: unknown error.");
    }
    else if (status === "done" && body.analysis.kind === "review") {
      const r = body.analysis.review;
      statusLine.textContent = t("Claim and trade review: a combination held %(s)s s without a KUNG FU counts as a missed claim.", { s: r.window_s });
      out.textContent = "";
      out.appendChild(reviewEl(doc, r, names));
    } else if (status === "done") {
      const a = body.analysis;
      statusLine.textContent = t("ISMCTS, %(n)s iterations per decision, from each player's own information.", { n: a.iterations });
      out.textContent = "";
      const last = (a.decisions.length ? a.decisions[a.decisions.length - 1].version : 0);
      graph = graphEl(doc, a, names, last, pick);
      out.appendChild(graph);
      out.appendChild(summaryEl(doc, a, names));
      showStep();
    }
    if (status === "queued" || status === "running") timer = win.setTimeout(load, POLL_MS);
  }

  function load() {
    if (timer) win.clearTimeout(timer);
    timer = null;
    const want = perspective;
    const url = box.getAttribute("data-api") + "?perspective=" + encodeURIComponent(want);
    win.fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(function (res) {
      return res.json().then(function (b) {
        if (!res.ok) throw new Error(b.detail || t("The analysis could not be loaded (%(status)s).", { status: res.status }));
        return b;
      });
    }).then(function (b) {
      if (want !== perspective) return;
      body = b;
      render();
    }).catch(function (err) {
      if (want !== perspective) return;
      statusLine.textContent = err.message || String(err);
      // A poll that failed (the server busy or restarting) is tried again
      // while the analysis runs: the page must not stop short of its end.
      if (body && (body.status === "queued" || body.status === "running")) timer = win.setTimeout(load, POLL_MS);
    });
  }

  replay.addEventListener("replay:step", function (ev) {
    version = ev.detail.version;
    if (ev.detail.perspective !== perspective) {
      perspective = ev.detail.perspective;
      out.textContent = "";
      graph = null;
      load();
    } else {
      showStep();
    }
  });
  load();
  return { load: load };
}

export { graphSeries, decisionAfter, startAnalysis, menuEl };
