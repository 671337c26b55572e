// The analysis panel's polling (static/js/analysis.js): while the analysis is
// queued or running the panel asks again every 1.5 s, and a poll that fails
// (the server busy or restarting) does not end the polling before the end.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import { Document } from "./minidom.js";
import { startAnalysis } from "../../static/js/analysis.js";

/** The replay page's panel on a window whose fetch answers `answers` in turn
 * (an Error: the request failed; {status, body}: a response) and whose timers
 * run when the test says. */
function page(answers) {
  const doc = new Document();
  const box = doc.createElement("section");
  box.setAttribute("data-api", "/api/matches/m/analysis/");
  for (const [tag, role] of [["p", "analysis-status"], ["progress", "analysis-progress"], ["div", "analysis-body"]]) {
    const el = doc.createElement(tag);
    el.setAttribute("data-role", role);
    box.appendChild(el);
  }
  const replay = doc.createElement("div");
  doc.getElementById = (id) => ({ "analysis-panel": box, "replay-controls": replay })[id] || null;
  const timers = new Map();
  let ids = 0;
  const asked = [];
  const win = {
    document: doc,
    setTimeout(fn) { ids += 1; timers.set(ids, fn); return ids; },
    clearTimeout(id) { timers.delete(id); },
    fetch(url) {
      asked.push(url);
      const next = answers.shift();
      if (next instanceof Error) return Promise.reject(next);
      return Promise.resolve({
        ok: next.status === 200,
        status: next.status,
        json: () => (next.body instanceof Error ? Promise.reject(next.body) : Promise.resolve(next.body)),
      });
    },
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    asked,
    timers,
    status: () => box.querySelector('[data-role="analysis-status"]').textContent,
    start: async () => { startAnalysis(win, null); await settle(); },
    /** The poll the page has scheduled, run to its answer. */
    async poll() {
      assert.equal(timers.size, 1, "one poll scheduled");
      const [[id, fn]] = timers;
      timers.delete(id);
      fn();
      await settle();
    },
  };
}

const running = (done) => ({ status: 200, body: { status: "running", progress: { done: done, total: 10 } } });

test("a failed poll while the analysis runs is tried again, to the end", async () => {
  const p = page([
    running(1),
    new TypeError("Failed to fetch"),
    { status: 502, body: new SyntaxError("Unexpected token '<'") },
    running(5),
    { status: 200, body: { status: "failed", error: "the worker was lost" } },
  ]);
  await p.start();
  assert.equal(p.status(), "Analysing… 1 of 10 decisions");
  await p.poll();
  assert.equal(p.status(), "Failed to fetch");
  await p.poll();
  assert.equal(p.status(), "Unexpected token '<'");
  await p.poll();
  assert.equal(p.status(), "Analysing… 5 of 10 decisions");
  await p.poll();
  assert.equal(p.status(), "The analysis failed: the worker was lost.");
  assert.equal(p.timers.size, 0, "no poll after the end");
  assert.equal(p.asked.length, 5);
});

test("a page that could not read the analysis at all does not poll", async () => {
  const p = page([{ status: 404, body: { detail: "Not found." } }]);
  await p.start();
  assert.equal(p.status(), "Not found.");
  assert.equal(p.timers.size, 0);
});
