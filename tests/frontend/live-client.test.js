// The live WebSocket client (static/js/live-match.js) against a fake socket
// and fake timers: sync on connect, version gaps, acts, errors, reconnects.
"use strict";

import test from "node:test";
import assert from "node:assert/strict";
import * as L from "../../static/js/live-match.js";

function harness(extra) {
  const sockets = [];
  const timers = [];
  let now = 1000;
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.sent = [];
      this.readyState = 0;
      this.closedWith = null;
      sockets.push(this);
    }
    send(text) { this.sent.push(JSON.parse(text)); }
    close(code) { this.closedWith = code; this.readyState = 3; this.onclose({ code }); }
    open() { this.readyState = 1; this.onopen(); }
    receive(frame) { this.onmessage({ data: JSON.stringify(frame) }); }
    drop(code) { this.readyState = 3; this.onclose({ code: code || 1006 }); }
  }
  const seen = { frames: [], steps: [], statuses: [], errors: [], acks: [] };
  const client = new L.LiveClient(Object.assign({
    url: "ws://test/ws/match/x/",
    WebSocket: FakeSocket,
    initialFrame: { type: "state", match: "x", version: 0, status: "active" },
    setTimeout: (fn, ms) => { timers.push({ fn, at: now + ms, ms, live: true }); return timers.length; },
    clearTimeout: (id) => { if (timers[id - 1]) timers[id - 1].live = false; },
    now: () => now,
    random: () => 0.5,
    onFrame: (f) => seen.frames.push(f),
    onSteps: (s) => seen.steps.push(...s),
    onStatus: (s, info) => seen.statuses.push([s, info]),
    onError: (e) => seen.errors.push(e),
    onAck: (a) => seen.acks.push(a),
  }, extra || {}));
  const advance = (ms) => {
    now += ms;
    for (const t of timers) {
      if (t.live && t.at <= now) { t.live = false; t.fn(); }
    }
  };
  return { client, sockets, timers, seen, advance, ws: () => sockets[sockets.length - 1] };
}

// events undefined -> null: a frame that does not carry its step's events.
const state = (version, events, extra) => Object.assign({ type: "state", match: "x", version, status: "active", events: events === undefined ? null : events }, extra || {});
const E = (n) => [{ type: "turn", public: { seat: 0, turn: n }, private: {} }];

test("on connect the client asks for the whole log (sync from version 0)", () => {
  const h = harness();
  h.client.connect();
  assert.equal(h.ws().url, "ws://test/ws/match/x/");
  h.ws().open();
  assert.deepEqual(h.ws().sent, [{ type: "sync", version: 0 }]);
  assert.deepEqual(h.seen.statuses.map((s) => s[0]), ["connecting", "open"]);
  h.ws().receive(state(4));
  h.ws().receive({ type: "history", after_version: 0, steps: [1, 2, 3, 4].map((v) => ({ version: v, seat: 0, kind: "move", events: E(v) })) });
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2, 3, 4]);
  assert.equal(h.client.loggedVersion, 4);
  assert.equal(h.ws().sent.length, 1, "no second sync while the first is answered");
});

test("the next version with its events is logged; a skipped version triggers a resync", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [{ version: 1, seat: 0, kind: "move", events: E(1) }] });
  h.ws().receive(state(2, E(2)));
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2]);
  assert.equal(h.ws().sent.length, 1);
  h.ws().receive(state(4, E(4)));
  assert.deepEqual(h.ws().sent[1], { type: "sync", version: 2 }, "gap 3 -> ask for everything after 2");
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2], "version 4's events wait for the history");
  assert.equal(h.client.frame.version, 4, "the table still shows the newest state");
  h.ws().receive({ type: "history", after_version: 2, steps: [3, 4].map((v) => ({ version: v, seat: 1, kind: "move", events: E(v) })) });
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2, 3, 4]);
});

test("a frame that advances without its events resyncs; presence frames and empty steps do not", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [{ version: 1, seat: 0, kind: "move", events: E(1) }] });
  h.ws().receive(state(1, null));
  assert.equal(h.ws().sent.length, 1, "same version, no events: a presence change");
  h.ws().receive(state(2, []));
  assert.equal(h.ws().sent.length, 1, "a step whose own events are empty is simply logged");
  assert.equal(h.client.loggedVersion, 2);
  h.ws().receive(state(3, null));
  assert.deepEqual(h.ws().sent[1], { type: "sync", version: 2 });
});

test("frames that arrive during a sync are kept; a history that falls short is asked again", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive(state(3));
  // The history was computed at version 3; versions 4 and 5 arrive meanwhile.
  h.ws().receive(state(4, E(4)));
  h.ws().receive(state(6, E(6)));
  h.ws().receive({ type: "history", after_version: 0, steps: [1, 2, 3].map((v) => ({ version: v, seat: 0, kind: "move", events: E(v) })) });
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2, 3, 4], "buffered 4 is logged, 6 is not contiguous");
  assert.deepEqual(h.ws().sent[h.ws().sent.length - 1], { type: "sync", version: 4 }, "5 and 6 are asked for");
  h.ws().receive({ type: "history", after_version: 4, steps: [5, 6].map((v) => ({ version: v, seat: 0, kind: "move", events: E(v) })) });
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2, 3, 4, 5, 6]);
  const sent = h.ws().sent.length;
  h.ws().receive(state(6));
  assert.equal(h.ws().sent.length, sent, "caught up: no more syncs");
});

test("a server whose history never catches up is not asked forever", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive(state(9));
  let calls = 0;
  h.client.opts.onSteps = (steps) => { calls += 1; assert.equal(steps.length, 0); };
  for (let i = 0; i < 6; i++) h.ws().receive({ type: "history", after_version: 0, steps: [] });
  assert.equal(calls, 6, "an empty history is still reported (the page stops saying 'Loading')");
  const syncs = h.ws().sent.filter((m) => m.type === "sync").length;
  assert.equal(syncs, 4, "the first sync and three retries");
});

test("an older frame never replaces a newer one", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive(state(6));
  h.ws().receive(state(5));
  assert.equal(h.client.frame.version, 6);
  assert.deepEqual(h.seen.frames.map((f) => f.version), [6]);
});

test("act sends the version the choice was made at, and the ack clears it", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  const id = h.client.act("card:3", 4);
  assert.deepEqual(h.ws().sent[1], { type: "act", action: "card:3", version: 4, request_id: id, ack: "state" });
  assert.equal(h.client.hasPending(), true);
  h.ws().receive({ type: "ack", version: 5, request_id: id });
  assert.equal(h.client.hasPending(), false);
  assert.equal(h.seen.acks.length, 1);
  assert.equal(h.client.isBusy(), true, "acknowledged, but version 5 is not on the table yet");
  h.ws().receive(state(5, E(5)));
  assert.equal(h.client.isBusy(), false);
  h.client.frame = state(4);
  const implicit = h.client.act("face:up");
  assert.equal(h.ws().sent[2].version, 4, "defaults to the shown frame's version");
  assert.equal(h.ws().sent[2].request_id, implicit);
});

test("an ack folded into the state frame clears the act and shows the frame", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive(state(4, E(4)));
  const id = h.client.act("card:3", 4);
  const other = h.client.act("card:4", 4);
  assert.equal(h.client.isBusy(), true);
  h.ws().receive(state(5, E(5), { ack: true, request_id: id }));
  assert.deepEqual(h.seen.acks, [{ type: "ack", version: 5, request_id: id }]);
  assert.equal(h.client.ackedVersion, 5);
  assert.equal(h.client.frame.version, 5, "the frame is shown as any state frame");
  assert.deepEqual(h.seen.frames.map((f) => f.version), [4, 5]);
  assert.equal(h.client.isBusy(), true, "the other act is still in flight");
  // A state frame without "ack": true (another seat's step) acknowledges nothing,
  // whatever request_id it might carry.
  h.ws().receive(state(6, E(6), { request_id: other }));
  assert.equal(h.client.isBusy(), true);
  // The separate form still works for the same client.
  h.ws().receive({ type: "ack", version: 7, request_id: other });
  h.ws().receive(state(7, E(7)));
  assert.equal(h.client.isBusy(), false);
  assert.equal(h.seen.acks.length, 2);
});

test("a stale_version error is shown and triggers a resync", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [{ version: 1, seat: 0, kind: "move", events: E(1) }] });
  const id = h.client.act("card:3", 1);
  h.ws().receive({ type: "error", code: "stale_version", message: "the match is at version 2, not 1", request_id: id });
  assert.equal(h.client.hasPending(), false);
  assert.equal(h.seen.errors[0].code, "stale_version");
  assert.deepEqual(h.ws().sent[2], { type: "sync", version: 1 });
  assert.ok(L.ERROR_TEXT.stale_version.length > 20);
});

test("acting while offline reports an error instead of silently dropping the move", () => {
  const h = harness();
  assert.equal(h.client.act("card:1"), null);
  assert.equal(h.seen.errors[0].code, "offline");
});

test("a dropped connection backs off exponentially and resumes from the last logged version", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [7].map((v) => ({ version: v, seat: 0, kind: "move", events: E(v) })) });
  const id = h.client.act("card:2", 7);
  h.ws().drop();
  assert.equal(h.seen.errors.pop().code, "connection_lost", "the unanswered act is reported");
  assert.equal(h.client.hasPending(), false);
  assert.ok(id);
  const waits = [];
  for (let attempt = 0; attempt < 4; attempt++) {
    const [status, info] = h.seen.statuses[h.seen.statuses.length - 1];
    assert.equal(status, "waiting");
    waits.push(info.delay);
    h.advance(info.delay);
    assert.equal(h.sockets.length, attempt + 2, "a new socket after the wait");
    h.ws().drop();
  }
  assert.deepEqual(waits, [500, 1000, 2000, 4000]);
  h.advance(8000);
  h.ws().open();
  assert.deepEqual(h.ws().sent, [{ type: "sync", version: 7 }]);
  assert.equal(h.client.attempt, 0, "backoff resets once connected");
});

test("backoff is capped and jittered", () => {
  assert.equal(L.backoffDelay(0, () => 0.5), 500);
  assert.equal(L.backoffDelay(20, () => 0.5), 15000);
  assert.equal(L.backoffDelay(20, () => 0), 11250);
  assert.equal(L.backoffDelay(20, () => 1), 18750);
});

test("close codes that cannot improve stop reconnecting", () => {
  const h = harness();
  h.client.connect();
  h.ws().drop(4404);
  const [status, info] = h.seen.statuses[h.seen.statuses.length - 1];
  assert.equal(status, "closed");
  assert.match(info.reason, /does not exist/);
  h.advance(60000);
  assert.equal(h.sockets.length, 1);
});

test("ping keeps the socket alive; silence after a ping closes and reconnects", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.advance(L.PING_EVERY_MS);
  assert.deepEqual(h.ws().sent[1], { type: "ping" });
  h.ws().receive({ type: "pong", request_id: null });
  h.advance(L.PONG_TIMEOUT_MS);
  assert.equal(h.ws().closedWith, null, "pong arrived: still open");
  h.advance(L.PING_EVERY_MS - L.PONG_TIMEOUT_MS);
  assert.deepEqual(h.ws().sent[2], { type: "ping" });
  h.advance(L.PONG_TIMEOUT_MS);
  assert.equal(h.sockets[0].closedWith, 4000, "no answer: the dead socket is closed");
  assert.equal(h.seen.statuses[h.seen.statuses.length - 1][0], "waiting");
});

test("commands carry a request id; socket URLs follow the page's scheme", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.client.command("claim", { claim: "win" });
  assert.equal(h.ws().sent[1].type, "claim");
  assert.equal(h.ws().sent[1].claim, "win");
  assert.ok(h.ws().sent[1].request_id);
  assert.equal(L.socketUrl("/ws/match/a/", { protocol: "https:", host: "arena.example" }), "wss://arena.example/ws/match/a/");
  assert.equal(L.socketUrl("/ws/match/a/", { protocol: "http:", host: "localhost:8000" }), "ws://localhost:8000/ws/match/a/");
  assert.equal(L.socketUrl("ws://other/x", { protocol: "https:", host: "h" }), "ws://other/x");
});

test("a beat ahead of the table resyncs; a lost broadcast of our own move ends busy", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [] });
  h.ws().receive(state(4, null));
  h.ws().receive({ type: "history", after_version: 0, steps: [1, 2, 3, 4].map((v) => ({ version: v, seat: 0, kind: "move", events: E(v) })) });
  const sentBefore = h.ws().sent.length;
  h.ws().receive({ type: "beat", version: 4 });
  assert.equal(h.ws().sent.length, sentBefore, "a beat at our version asks for nothing");
  // Our move commits and is acknowledged, but its broadcast is lost (Redis blip).
  const id = h.client.act("card:1", 4);
  h.ws().receive({ type: "ack", version: 5, request_id: id });
  assert.equal(h.client.isBusy(), true);
  h.ws().receive({ type: "beat", version: 5 });
  const asked = h.ws().sent[h.ws().sent.length - 1];
  assert.deepEqual(asked, { type: "sync", version: 4 });
  h.ws().receive({ type: "history", after_version: 4, steps: [{ version: 5, seat: 0, kind: "move", events: E(5) }] });
  h.ws().receive(state(5, null));
  assert.equal(h.client.isBusy(), false);
  assert.equal(h.client.loggedVersion, 5);
  // While a sync is on its way, further beats do not pile up more syncs.
  h.ws().receive({ type: "beat", version: 7 });
  const count = h.ws().sent.length;
  h.ws().receive({ type: "beat", version: 7 });
  assert.equal(h.ws().sent.length, count);
});

test("a frame that leaves its menu out gets the held one back when the digest matches", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [] });
  const menu = [{ id: "pass", label: "Pass" }, { id: "to:all", label: "Offer" }];
  h.ws().receive(state(1, E(1), { seat: 2, legal: menu, legal_digest: "aa" }));
  const sent = h.ws().sent.length;
  h.ws().receive(state(2, E(2), { seat: 2, legal_digest: "aa" }));
  assert.deepEqual(h.client.frame.legal, menu, "the menu held since version 1");
  assert.deepEqual(h.seen.frames[h.seen.frames.length - 1].legal, menu, "the page sees it too");
  assert.equal(h.ws().sent.length, sent, "nothing to ask for");
  // A changed menu comes in full and replaces the held one.
  const next = [{ id: "pass", label: "Pass" }];
  h.ws().receive(state(3, E(3), { seat: 2, legal: next, legal_digest: "bb" }));
  h.ws().receive(state(4, E(4), { seat: 2, legal_digest: "bb" }));
  assert.deepEqual(h.client.frame.legal, next);
});

test("an older frame that crossed a newer one neither replaces the held menu nor asks for one", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [] });
  const menu = [{ id: "pass" }, { id: "to:all" }];
  h.ws().receive(state(1, E(1), { seat: 2, legal: [{ id: "pass" }], legal_digest: "aa" }));
  // Version 3 (the owner's step, with its full menu) overtook version 2 (a
  // timer step broadcast by the worker, whose menu is now out of date).
  h.ws().receive(state(3, E(3), { seat: 2, legal: menu, legal_digest: "cc" }));
  const sent = h.ws().sent.length;
  h.ws().receive(state(2, E(2), { seat: 2, legal_digest: "aa" }));
  h.ws().receive(state(2, E(2), { seat: 2, legal: [{ id: "x" }], legal_digest: "bb" }));
  assert.equal(h.client.frame.version, 3, "the newer frame stays shown");
  // The next step leaves out the menu it sent with version 3: still held.
  h.ws().receive(state(4, E(4), { seat: 2, legal_digest: "cc" }));
  assert.deepEqual(h.client.frame.legal, menu);
  assert.equal(
    h.ws().sent.filter((m) => m.type === "sync").length,
    h.ws().sent.slice(0, sent).filter((m) => m.type === "sync").length,
    "no full frame asked for on account of the old frames",
  );
});

test("a left-out menu the client does not hold is never guessed: no choices, and a full frame is asked for", () => {
  const h = harness({ initialFrame: { type: "state", match: "x", seat: 2, version: 0, status: "active", legal: [{ id: "pass" }], legal_digest: "aa" } });
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [] });
  assert.equal(h.ws().sent.length, 1);
  // The frame that carried menu "bb" was lost: the next one names "bb" only.
  h.ws().receive(state(2, E(2), { seat: 2, legal_digest: "bb" }));
  assert.deepEqual(h.client.frame.legal, [], "the stale menu 'aa' is not shown");
  assert.deepEqual(h.ws().sent[1], { type: "sync", version: 0 }, "ask for the full frame");
  // The sync's answer carries the full menu again.
  const full = [{ id: "to:all" }];
  h.ws().receive({ type: "history", after_version: 0, steps: [1, 2].map((v) => ({ version: v, seat: 0, kind: "move", events: E(v) })) });
  h.ws().receive(state(2, null, { seat: 2, legal: full, legal_digest: "bb" }));
  assert.deepEqual(h.client.frame.legal, full);
  h.ws().receive(state(3, E(3), { seat: 2, legal_digest: "bb" }));
  assert.deepEqual(h.client.frame.legal, full, "held from the full frame");
  // A menu held from another seat or match is not reused.
  h.ws().receive(state(4, E(4), { seat: 3, legal_digest: "bb" }));
  assert.deepEqual(h.client.frame.legal, []);
});

test("a frame after steps that were quiet for us names its last frame (since): no gap, no resync", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive({ type: "history", after_version: 0, steps: [1, 2].map((v) => ({ version: v, seat: 0, kind: "move", events: E(v) })) });
  // Versions 3 and 4 were another seat rearranging its hand: not sent to us.
  h.ws().receive(state(5, E(5), { since: 2 }));
  assert.equal(h.ws().sent.length, 1, "nothing missed: no sync");
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2, 5]);
  assert.equal(h.client.loggedVersion, 5);
  // A presence frame after quiet steps: nothing to log, nothing missed.
  h.ws().receive(state(7, null, { since: 5 }));
  assert.equal(h.ws().sent.length, 1);
  assert.equal(h.client.loggedVersion, 7);
  assert.equal(h.client.frame.version, 7);
  // A frame whose last one we never got (since beyond what we logged) is a gap.
  h.ws().receive(state(10, E(10), { since: 8 }));
  assert.deepEqual(h.ws().sent[1], { type: "sync", version: 7 });
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2, 5]);
});

test("a frame with since that arrives during a sync is logged once the history reaches its last frame", () => {
  const h = harness();
  h.client.connect();
  h.ws().open();
  h.ws().receive(state(3));
  h.ws().receive(state(6, E(6), { since: 3 }));
  h.ws().receive(state(9, E(9), { since: 7 }));
  h.ws().receive({ type: "history", after_version: 0, steps: [1, 2, 3].map((v) => ({ version: v, seat: 0, kind: "move", events: E(v) })) });
  assert.deepEqual(h.seen.steps.map((s) => s.version), [1, 2, 3, 6], "6 follows 3; 9's last frame (7) was never seen");
  assert.deepEqual(h.ws().sent[h.ws().sent.length - 1], { type: "sync", version: 6 });
});
