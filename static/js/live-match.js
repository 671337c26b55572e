/*
 * Live match page: the WebSocket client (LiveClient) and the page that draws
 * its frames with the game's board (the module static/js/boards/<game>.js,
 * which templates/gameplay/match.html imports and passes to startPage).
 *
 * Protocol (docs/protocol/live.md): the server sends `state` frames (a seat's
 * own view, or the public view), `history` (the logged steps after a version,
 * in answer to `sync`), `ack`, `error`, `pong` and `beat` (the version the
 * socket should be at, every few seconds: being behind it means resync). The
 * client sends `act` with the version the choice was made at, `sync` with the
 * last version whose events it has, `resign`, `abort`, `claim` and `ping`.
 *
 * LiveClient has no DOM code so the node tests can drive it with a fake
 * socket; startPage(window, board, config) wires it to the page.
 */

import { h, namedSeats, renderLog, tickClocks } from "./boards/common.js";
import { clocksSentence, renderScreenReader, srModel, storeMode, storedMode } from "./screen-reader.js";
import { formatTime, t } from "./i18n.js";

const PING_EVERY_MS = 20000;
const PONG_TIMEOUT_MS = 10000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 15000;
// Close codes after which reconnecting cannot help.
const FINAL_CLOSE_CODES = { 4403: t("You may not watch this match."), 4404: t("This match does not exist.") };

/** Delay before reconnect attempt `attempt` (0-based), with +-25% jitter. */
function backoffDelay(attempt, random) {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * Math.pow(2, attempt));
  const r = typeof random === "function" ? random() : Math.random();
  return Math.round(base * (0.75 + 0.5 * r));
}

/** Absolute ws:// or wss:// URL for a path served by the page's host. */
function socketUrl(path, loc) {
  if (/^wss?:\/\//.test(path)) return path;
  const scheme = loc.protocol === "https:" ? "wss://" : "ws://";
  return scheme + loc.host + path;
}

/**
 * opts: {url, WebSocket, initialFrame, setTimeout, clearTimeout, now,
 *        random, onFrame(frame), onSteps(steps), onStatus(status, info),
 *        onError(error), onAck(ack)}
 *
 * Keeps `frame` (the newest state) and `loggedVersion` (the last version
 * whose events were passed to onSteps). A state frame that skips a version,
 * or advances without its events, means something was missed: the client
 * asks for the history since `loggedVersion` (sync) and carries on. Unless
 * the frame names the version of the last frame we were sent (`since`) and
 * we have logged that far: the steps in between had nothing for us.
 */
function LiveClient(opts) {
  this.opts = opts;
  this.WS = opts.WebSocket;
  // Wrapped: the browser's timers refuse to be called as methods of another object.
  this.setTimeout = opts.setTimeout || function (fn, ms) { return setTimeout(fn, ms); };
  this.clearTimeout = opts.clearTimeout || function (id) { clearTimeout(id); };
  this.now = opts.now || Date.now;
  this.frame = opts.initialFrame || null;
  // The last menu a state frame carried, named by its digest: a broadcast
  // leaves out a seat's menu it sent unchanged (docs/protocol/live.md).
  this.menu = null;
  this._keepMenu(this.frame);
  // The log starts empty: the first sync asks for everything since version 0.
  this.loggedVersion = 0;
  this.syncing = false;
  // Events of frames that arrived while a sync was being answered, by version.
  this.buffered = {};
  this.resyncs = 0;
  this.pending = {};
  // The version an acknowledged act produced: until a frame that new arrives,
  // the shown choices are already used up.
  this.ackedVersion = 0;
  this.nextRequest = 1;
  this.attempt = 0;
  this.ws = null;
  this.stopped = false;
  this.timers = {};
  this.status = "idle";
  this.lastHeardAt = 0;
}

LiveClient.prototype._timer = function (name, ms, fn) {
  if (this.timers[name]) this.clearTimeout(this.timers[name]);
  const self = this;
  this.timers[name] = this.setTimeout(function () {
    self.timers[name] = null;
    fn();
  }, ms);
};

LiveClient.prototype._cancel = function (name) {
  if (this.timers[name]) this.clearTimeout(this.timers[name]);
  this.timers[name] = null;
};

LiveClient.prototype._setStatus = function (status, info) {
  this.status = status;
  if (this.opts.onStatus) this.opts.onStatus(status, info || {});
};

LiveClient.prototype.connect = function () {
  if (this.stopped) return;
  this._cancel("reconnect");
  const self = this;
  let ws;
  this._setStatus(this.attempt ? "reconnecting" : "connecting", { attempt: this.attempt });
  try {
    ws = new this.WS(this.opts.url);
  } catch (err) {
    this._scheduleReconnect();
    return;
  }
  this.ws = ws;
  ws.onopen = function () {
    if (self.ws !== ws) return;
    self.attempt = 0;
    self.lastHeardAt = self.now();
    self._setStatus("open");
    self.sync();
    self._schedulePing();
  };
  ws.onmessage = function (msg) {
    if (self.ws !== ws) return;
    let frame;
    try {
      frame = JSON.parse(msg.data);
    } catch (err) {
      return;
    }
    self.lastHeardAt = self.now();
    self.handle(frame);
  };
  ws.onclose = function (ev) {
    if (self.ws !== ws) return;
    self.ws = null;
    self._cancel("ping");
    self._cancel("pong");
    self.syncing = false;
    self._dropPending(t("The connection dropped before the server answered; the table will show whether your choice was applied."));
    const code = ev && ev.code;
    if (FINAL_CLOSE_CODES[code]) {
      self.stopped = true;
      self._setStatus("closed", { reason: FINAL_CLOSE_CODES[code] });
      return;
    }
    self._scheduleReconnect();
  };
  ws.onerror = function () {
    // A close event always follows; reconnection is handled there.
  };
};

LiveClient.prototype._scheduleReconnect = function () {
  if (this.stopped) return;
  const delay = backoffDelay(this.attempt, this.opts.random);
  this.attempt += 1;
  this._setStatus("waiting", { delay: delay, until: this.now() + delay, attempt: this.attempt });
  const self = this;
  this._timer("reconnect", delay, function () { self.connect(); });
};

/**
 * The browser says the network is gone: the socket will not notice for a
 * while (until the ping times out), so close it now and show the table as
 * offline; reconnecting starts when the browser is back online.
 */
LiveClient.prototype.goOffline = function () {
  const ws = this.ws;
  if (!ws) return;
  // The close handshake cannot finish without a network: act on it now
  // (the close event that follows later finds this socket already gone).
  ws.close(4000);
  if (this.ws === ws && ws.onclose) ws.onclose({ code: 4000 });
};

/** Skip the backoff wait (the browser came back online, the tab is visible). */
LiveClient.prototype.reconnectNow = function () {
  if (this.stopped || this.ws) return;
  this.connect();
};

LiveClient.prototype.stop = function () {
  this.stopped = true;
  const self = this;
  Object.keys(this.timers).forEach(function (name) { self._cancel(name); });
  if (this.ws) {
    const ws = this.ws;
    this.ws = null;
    ws.close(1000);
  }
  this._setStatus("closed", { reason: "stopped" });
};

LiveClient.prototype._schedulePing = function () {
  const self = this;
  this._timer("ping", PING_EVERY_MS, function () {
    if (!self.ws) return;
    self.send({ type: "ping" });
    self._timer("pong", PONG_TIMEOUT_MS, function () {
      // Nothing heard since the ping: the connection is dead even if the
      // browser has not noticed. Closing it triggers the reconnect.
      if (self.ws && self.now() - self.lastHeardAt >= PONG_TIMEOUT_MS) self.ws.close(4000);
    });
    self._schedulePing();
  });
};

LiveClient.prototype.send = function (message) {
  if (!this.ws || this.ws.readyState !== 1) return false;
  this.ws.send(JSON.stringify(message));
  return true;
};

/** Ask for every step after the last version whose events we have. */
LiveClient.prototype.sync = function () {
  if (this.send({ type: "sync", version: this.loggedVersion })) this.syncing = true;
};

/**
 * Send a decision chosen while looking at `version` (defaults to the shown
 * frame's). Returns the request id, or null when offline.
 */
LiveClient.prototype.act = function (actionId, version) {
  const v = version === undefined ? (this.frame ? this.frame.version : null) : version;
  const requestId = "a" + this.nextRequest++;
  // "ack": "state": the server may acknowledge it inside the state frame of
  // the version it made (one frame instead of two; docs/protocol/live.md).
  if (!this.send({ type: "act", action: actionId, version: v, request_id: requestId, ack: "state" })) {
    if (this.opts.onError) this.opts.onError({ code: "offline", message: t("Not connected; your choice was not sent. Wait for the connection to come back.") });
    return null;
  }
  this.pending[requestId] = { action: actionId, version: v };
  return requestId;
};

LiveClient.prototype.command = function (type, extra) {
  const message = Object.assign({ type: type, request_id: "c" + this.nextRequest++ }, extra || {});
  if (!this.send(message)) {
    if (this.opts.onError) this.opts.onError({ code: "offline", message: t("Not connected; try again when the connection is back.") });
    return null;
  }
  return message.request_id;
};

LiveClient.prototype.hasPending = function () {
  return Object.keys(this.pending).length > 0;
};

/** True while a choice is in flight or its result has not been shown yet. */
LiveClient.prototype.isBusy = function () {
  return this.hasPending() || (!!this.frame && this.frame.version < this.ackedVersion);
};

LiveClient.prototype._dropPending = function (message) {
  const had = this.hasPending();
  this.pending = {};
  if (had && this.opts.onError) this.opts.onError({ code: "connection_lost", message: message });
};

LiveClient.prototype._log = function (steps) {
  const fresh = [];
  for (let i = 0; i < steps.length; i++) {
    if (steps[i].version > this.loggedVersion) {
      fresh.push(steps[i]);
      this.loggedVersion = steps[i].version;
    }
  }
  if (fresh.length && this.opts.onSteps) this.opts.onSteps(fresh);
};

LiveClient.prototype.handle = function (frame) {
  switch (frame.type) {
    case "state":
      // An act's ack folded into the frame of the version it made.
      if (frame.ack === true) this._ack({ type: "ack", version: frame.version, request_id: frame.request_id });
      return this._state(frame);
    case "history":
      return this._history(frame);
    case "ack":
      return this._ack(frame);
    case "error":
      if (frame.request_id !== null && frame.request_id !== undefined) delete this.pending[frame.request_id];
      if (frame.code === "stale_version") this.sync();
      if (this.opts.onError) this.opts.onError(frame);
      return;
    case "pong":
      this._cancel("pong");
      return;
    case "beat":
      // The server's periodic word of the version this socket should be at.
      // A broadcast lost in a Redis blip leaves us behind (and "busy" if it
      // carried our own move): catch up without waiting for the next move.
      if (typeof frame.version === "number" && !this.syncing &&
          frame.version > Math.max(this.loggedVersion, this.frame ? this.frame.version : 0)) this.sync();
      return;
    default:
      // Frames of other apps on this socket (chat): their own module's.
      if (this.opts.onOther) this.opts.onOther(frame);
      return;
  }
};

LiveClient.prototype._ack = function (frame) {
  delete this.pending[frame.request_id];
  if (typeof frame.version === "number" && frame.version > this.ackedVersion) this.ackedVersion = frame.version;
  if (this.opts.onAck) this.opts.onAck(frame);
};

LiveClient.prototype._history = function (frame) {
  const before = this.loggedVersion;
  this.syncing = false;
  this._log(frame.steps || []);
  if (before === this.loggedVersion && this.opts.onSteps) this.opts.onSteps([]);
  // Frames that came in while the history was on its way may carry the steps
  // right after it; anything still missing means asking again (a few times
  // at most, so a server that cannot answer is not asked forever).
  const buffered = this.buffered;
  this.buffered = {};
  const self = this;
  Object.keys(buffered).map(Number).sort(function (a, b) { return a - b; }).forEach(function (v) {
    if (v > self.loggedVersion && self._follows(v, buffered[v].since)) self._log([buffered[v].step]);
  });
  if (this.loggedVersion > before) this.resyncs = 0;
  if (this.frame && this.frame.version > this.loggedVersion && this.resyncs < 3) {
    this.resyncs += 1;
    this.sync();
  }
};

/**
 * Whether the step of version `v` comes right after the logged ones: the
 * next version, or one whose frame says the steps since `since` (the last
 * frame we were sent) were quiet for us.
 */
LiveClient.prototype._follows = function (v, since) {
  return v === this.loggedVersion + 1 || (since !== null && since <= this.loggedVersion);
};

/** Remember the menu a frame carries, by its digest. */
LiveClient.prototype._keepMenu = function (frame) {
  if (frame && Array.isArray(frame.legal) && typeof frame.legal_digest === "string") {
    this.menu = { match: frame.match, seat: frame.seat, digest: frame.legal_digest, legal: frame.legal };
  }
};

/**
 * A frame without `legal` but with `legal_digest` means "the menu you hold":
 * put it back when ours has that digest. When it does not (we missed the
 * frame that carried it), show no choices and ask for a full frame (sync);
 * a stale menu is never shown.
 */
LiveClient.prototype._fillMenu = function (frame) {
  if (frame.legal !== undefined || typeof frame.legal_digest !== "string") return;
  const held = this.menu;
  if (held && held.digest === frame.legal_digest && held.match === frame.match && held.seat === frame.seat) {
    frame.legal = held.legal;
    return;
  }
  frame.legal = [];
  frame.legal_missing = true;
  if (!this.syncing) this.sync();
};

LiveClient.prototype._state = function (frame) {
  const shown = this.frame;
  const v = frame.version;
  // A frame older than the one shown crossed a newer one on the way (a
  // timer step the worker broadcast, overtaken by the owner's next step):
  // it is not shown, so it neither replaces the held menu nor asks for one.
  const stale = !!shown && shown.match === frame.match && v < shown.version;
  if (!stale) {
    this._fillMenu(frame);
    if (!frame.legal_missing) this._keepMenu(frame);
  }
  if (v > this.loggedVersion) {
    // events is null when the frame does not carry its step's events
    // (connect, presence); an array, even empty, is that step's own.
    const known = Array.isArray(frame.events);
    // `since`: the version of the last frame this seat was sent; the steps
    // after it whose events this frame does not carry had nothing for us
    // (another seat rearranging its hand, say), so they leave no gap.
    const since = typeof frame.since === "number" ? frame.since : null;
    // The frame names who made its step and how (a timeout's default choice).
    const made = frame.step || {};
    const step = {
      version: v,
      seat: made.seat === undefined ? null : made.seat,
      kind: made.kind || "move",
      events: frame.events || [],
    };
    if (this.syncing) {
      if (known) this.buffered[v] = { step: step, since: since };
    } else if (this._follows(v, since) && known) {
      this._log([step]);
    } else if (since !== null && since <= this.loggedVersion) {
      // No events of its own, and every step up to it was quiet for us.
      this.loggedVersion = v;
    } else {
      this.sync();
    }
  }
  // Frames can cross a sync answer; never step the table back in time.
  if (shown && v < shown.version && shown.match === frame.match) return;
  this.frame = frame;
  if (this.opts.onFrame) this.opts.onFrame(frame);
};

// ---------------------------------------------------------------------------
// Pure helpers of the page (tested in node).

/**
 * Whether `me` may claim the win now, by the server's own rule: every other
 * seat still in the match is an absent person whose `claimable_at` (sent by
 * the server: grace period after the disconnect, or after the start for a
 * player who never connected) has passed. `serverNow` is the server's clock.
 * -> {away, canClaim, waitMs}
 */
function claimState(frame, me, serverNow) {
  const seats = (frame && frame.seats) || [];
  const others = seats.filter(function (s, i) { return i !== me && !s.forfeited; });
  if (!others.length || others.some(function (s) { return !s.claimable_at; })) {
    return { away: false, canClaim: false, waitMs: null };
  }
  const at = Math.max.apply(null, others.map(function (s) { return Date.parse(s.claimable_at); }));
  const waitMs = at - serverNow;
  return { away: true, canClaim: waitMs <= 0, waitMs: Math.max(0, waitMs) };
}

/** Server clock minus ours, from a frame's `server_time` (0 without one). */
function clockOffset(frame, nowMs) {
  const serverMs = frame && frame.server_time ? Date.parse(frame.server_time) : NaN;
  return isNaN(serverMs) ? 0 : serverMs - nowMs;
}

// Why a seat is out, as a whole sentence about it (N_: translated where shown).
const N_ = (text) => text;
const FORFEIT_TEXT = {
  "time forfeit": N_("%(name)s ran out of time and lost the match."),
  resigned: N_("%(name)s resigned."),
  left: N_("%(name)s left the match."),
  abandoned: N_("%(name)s was away too long and lost the match."),
  // An uploaded bot's forfeits (bots.protocol: "bot " + the fault).
  "bot crash": N_("%(name)s crashed and is out of the match."),
  "bot timeout": N_("%(name)s took too long to answer and is out of the match."),
  "bot line_too_long": N_("%(name)s sent an answer over the size limit and is out of the match."),
  "bot malformed_output": N_("%(name)s sent a malformed answer and is out of the match."),
  "bot illegal_action": N_("%(name)s chose an action that was not allowed and is out of the match."),
  "bot sandbox unavailable": N_("%(name)s could not be run safely (no sandbox) and is out of the match."),
  "bot disabled": N_("%(name)s was disabled and is out of the match."),
  "bot version missing": N_("%(name)s is no longer available and is out of the match."),
};

/** A log line for a seat that forfeited ("Bruno ran out of time …. A bot plays on in that seat."). */
function forfeitText(name, seat) {
  const message = FORFEIT_TEXT[seat.forfeit_reason] || N_("%(name)s is out of the match.");
  let text = t(message, { name: name });
  if (seat.replaced_by_bot) text += " " + t("A bot plays on in that seat.");
  return text;
}

/**
 * A rating change as every page prints it: one decimal, always signed, a real
 * minus sign ("+13.4", "\u221220.0", "\u00b10.0"). The server's template filter
 * `rating_delta` (league.ratings.elo.delta_text) prints the same; both are held
 * to tests/frontend/fixtures/rating_deltas.json.
 */
function ratingDelta(delta) {
  const tenths = Math.round(Math.abs(Number(delta) || 0) * 10);
  if (tenths === 0) return "\u00b10.0";
  return (delta > 0 ? "+" : "\u2212") + Math.floor(tenths / 10) + "." + (tenths % 10);
}

/** The rating changes of a finished match as table rows. */
function ratingRows(changes) {
  return (changes || []).map(function (c) {
    const text = ratingDelta(c.delta);
    return {
      name: c.name, pool: c.pool, before: c.before, after: c.after,
      delta: text, up: text[0] === "+", down: text[0] === "\u2212",
    };
  });
}

// ---------------------------------------------------------------------------
// The page.

const ERROR_TEXT = {
  stale_version: t("Too late: the game moved on before your choice arrived, so it was not applied. Look at the table and choose again."),
  not_your_turn: t("It is not your turn: your choice was not applied."),
  illegal_action: t("That move is not allowed now."),
  rate_limited: t("Too many messages too quickly; slow down a little."),
  not_active: t("This match is not in play any more."),
  forbidden: t("Not allowed."),
  malformed: t("The server could not read that request."),
};

function startPage(win, B, cfg) {
  const doc = win.document;
  const board = doc.getElementById("kfa-board");
  const initialEl = doc.getElementById("initial-frame");
  if (!board || !initialEl || !B) return null;
  const slot = function (name) { return board.querySelector('[data-role="' + name + '"]'); };
  const initial = JSON.parse(initialEl.textContent);
  const seatOf = function (frame) { return frame.seat === undefined ? cfg.seat : frame.seat; };
  const baseTitle = doc.title;
  let errorTimer = null;
  // Server clock minus ours: claim countdowns run on the server's clock.
  let offset = clockOffset(initial, Date.now());
  // The turn being built (a card, then a face) before anything is sent, and
  // the decisions still to send once the server asks for them, in order.
  let stage = null;
  let stageVersion = null;
  let plan = [];
  let autoSentVersion = -1;
  const forfeitLogged = {};
  let animatedVersion = initial.version;
  // The match is over (it ended while this page watched it, or before the
  // page opened): the results open above the table and push it down, so the
  // log's last lines (the end's reveal and result) are brought into view,
  // once the backlog is in and as the last steps arrive.
  let gameOver = false;

  B.renderCardReference(slot("card-reference"), (initial.view && initial.view.players) || (initial.seats || []).length);

  function names(frame) {
    return (frame.seats || []).map(function (s, i) { return s.name || "Seat " + i; });
  }

  function showError(err) {
    // A refused step (in real time: it met a pause or a trade that went
    // first) ends its plan: the later steps were built on it, and sending
    // them alone would make another move than the one chosen.
    if (plan.length && err.code !== "plan_dropped") plan = [];
    const box = slot("error");
    if (!box) return;
    const friendly = ERROR_TEXT[err.code];
    // The engine's reason names seats by number: people read names.
    const frame = client.frame || initial;
    const message = err.message ? namedSeats({ names: names(frame), viewer: seatOf(frame) }, err.message) : "";
    box.textContent = "";
    box.appendChild(h(doc, "strong", { text: friendly || message || t("Something went wrong.") }));
    if (friendly && message && friendly.indexOf(message) < 0) {
      box.appendChild(h(doc, "span", { className: "small", text: " (" + message + ")" }));
    }
    box.appendChild(h(doc, "button", {
      type: "button", className: "link-dismiss", "aria-label": t("Dismiss"), text: "×",
      onclick: function () { box.hidden = true; },
    }));
    box.hidden = false;
    if (errorTimer) win.clearTimeout(errorTimer);
    errorTimer = win.setTimeout(function () { box.hidden = true; }, 15000);
    draw(client.frame);
  }

  function confirmThen(title, text, okText, fn) {
    const dialog = slot("confirm");
    if (!dialog || typeof dialog.showModal !== "function") {
      if (win.confirm(title + "\n\n" + text)) fn();
      return;
    }
    slot("confirm-title").textContent = title;
    slot("confirm-text").textContent = text;
    slot("confirm-ok").textContent = okText;
    dialog.returnValue = "";
    dialog.onclose = function () {
      if (dialog.returnValue === "ok") fn();
    };
    dialog.showModal();
  }

  function updateControls(frame) {
    const controls = slot("controls");
    if (!controls) return;
    const me = seatOf(frame);
    const seats = frame.seats || [];
    const mine = me === null || me === undefined ? null : seats[me];
    const active = frame.status === "active";
    controls.hidden = !(mine && active && !mine.forfeited);
    if (controls.hidden) return;
    const resign = controls.querySelector('[data-control="resign"]');
    const claimWin = controls.querySelector('[data-control="claim-win"]');
    const abort = controls.querySelector('[data-control="abort"]');
    const note = slot("claim-note");
    // Abort is allowed before the first move; after that only by claim.
    const claim = claimState(frame, me, Date.now() + offset);
    const allAway = claim.away;
    const waitMs = claim.waitMs;
    const canClaim = claim.canClaim;
    claimWin.hidden = !canClaim;
    abort.hidden = !(frame.version === 0 || canClaim);
    abort.textContent = frame.version === 0 ? t("Abort match") : t("Call off (no result)");
    abort.dataset.mode = frame.version === 0 ? "abort" : "claim";
    resign.hidden = false;
    const vacation = vacationNote(seats, me);
    note.hidden = !allAway && !vacation;
    note.textContent = !allAway ? vacation : canClaim
      ? t("Your opponents have been away past the grace period: you may claim the win or call the match off.")
      : t("Your opponents are away. If they are not back in %(seconds)s s you may claim the win.", { seconds: Math.ceil(waitMs / 1000) });
  }

  /** "Ana is on vacation until 7 Dec 2026, 14:00: their clock stands still." */
  function vacationNote(seats, me) {
    return seats.filter(function (s) { return s.number !== me && s.away_until; }).map(function (s) {
      const until = formatTime(s.away_until, { dateStyle: "medium", timeStyle: "short" });
      return t("%(name)s is on vacation until %(until)s: their clock stands still.", { name: s.name, until: until });
    }).join(" ");
  }

  function updateTitle(model) {
    doc.title = (model.myTurn ? "● " + t("Your move") + " · " : "") + baseTitle;
  }

  function drawAfterGame(frame) {
    const box = slot("after-game");
    if (!box) return;
    const over = frame.status === "finished" || frame.status === "aborted";
    box.hidden = !over;
    if (!over) return;
    const ratings = slot("rating-changes");
    if (ratings) {
      ratings.textContent = "";
      const rows = ratingRows(frame.rating_changes);
      if (rows.length) {
        ratings.appendChild(h(doc, "h3", { text: t("Rating changes") }));
        ratings.appendChild(h(doc, "div", { className: "table-scroll" }, [h(doc, "table", { className: "rating-changes" }, [
          h(doc, "thead", {}, [h(doc, "tr", {}, [
            h(doc, "th", { text: t("Player · ladder") }),
            h(doc, "th", { className: "num", text: t("Rating") }), h(doc, "th", { className: "num", text: t("Change") }),
          ])]),
          h(doc, "tbody", {}, rows.map(function (r) {
            return h(doc, "tr", {}, [
              h(doc, "td", {}, [h(doc, "strong", { text: r.name }), h(doc, "br"), h(doc, "span", { className: "small muted", text: r.pool })]),
              h(doc, "td", { className: "num", text: r.before + " → " + r.after }),
              h(doc, "td", { className: "num " + (r.up ? "delta-up" : r.down ? "delta-down" : ""), text: r.delta }),
            ]);
          })),
        ])]));
      } else if (frame.rating_note) {
        ratings.appendChild(h(doc, "p", { className: "small muted", text: frame.rating_note }));
      } else if (frame.rated && frame.status === "finished") {
        ratings.appendChild(h(doc, "p", { className: "small muted", text: t("The rating changes appear here in a moment.") }));
      }
    }
    const form = slot("rematch-form");
    if (form) {
      const offer = frame.rematch;
      const button = slot("rematch");
      const note = slot("rematch-note");
      const me = board.getAttribute("data-viewer");
      const joined = offer && me && (offer.seated || []).indexOf(me) >= 0;
      if (offer && joined) {
        button.textContent = t("Go to the rematch");
        note.textContent = offer.status === "waiting" ? t("Waiting for the other players to join.") : t("The rematch is on.");
      } else if (offer) {
        button.textContent = t("Join the rematch");
        note.textContent = offer.host ? t("%(name)s asked for a rematch.", { name: offer.host }) : t("A player asked for a rematch.");
      } else {
        button.textContent = t("Rematch");
        note.textContent = t("Same players, same settings.");
      }
      // Going to a rematch one is already seated at is a plain link.
      form.onsubmit = joined ? function (ev) { ev.preventDefault(); win.location.assign(offer.url); } : null;
    }
  }

  function drawResults(frame) {
    drawAfterGame(frame);
    const box = slot("results");
    if (!box) return;
    const over = frame.status === "finished" || frame.status === "aborted";
    if (!over) {
      box.hidden = true;
      return;
    }
    if (box.dataset.version === String(frame.version) + frame.status && !box.hidden) return;
    box.dataset.version = String(frame.version) + frame.status;
    box.textContent = "";
    box.appendChild(B.resultsEl(doc, B.resultModel(frame, { names: names(frame) }), { replayUrl: cfg.replayUrl, analysisUrl: cfg.analysisUrl, csrf: cfg.csrf }));
    box.hidden = false;
    gameOver = true;
    showLogEnd();
  }

  function showLogEnd() {
    const last = gameOver && logList ? logList.lastElementChild : null;
    if (last && last.scrollIntoView) last.scrollIntoView({ block: "nearest" });
  }

  function sendPlan(ids) {
    plan = ids.slice();
    stage = null;
    advancePlan();
    draw(client.frame);
  }

  /**
   * Send the next planned decision when the server asks for it. A plan that
   * no longer fits (a timeout played for us, the table changed) is dropped
   * and the player chooses again.
   */
  function advancePlan() {
    const frame = client.frame;
    if (!plan.length || !frame || client.isBusy()) return false;
    const legal = (frame.legal || []).map(function (a) { return a.id; });
    if (!legal.length) {
      if (frame.status !== "active") plan = [];
      return false;
    }
    const next = plan.shift();
    if (legal.indexOf(next) < 0) {
      plan = [];
      showError({ code: "plan_dropped", message: t("The game moved on before your whole move was sent; choose again.") });
      return false;
    }
    client.act(next, frame.version);
    return true;
  }

  /** The only opponent there is to pick is picked without a click. */
  function autoChoose(model, frame) {
    if (!B.autoAction || plan.length || client.isBusy() || autoSentVersion === frame.version) return;
    const action = B.autoAction(model);
    if (!action) return;
    autoSentVersion = frame.version;
    client.act(action.id, frame.version);
  }

  /** Mark the seat that just moved so the eye can follow a bot's quick moves. */
  function animate(frame) {
    if (typeof frame.version !== "number" || frame.version <= animatedVersion) return;
    animatedVersion = frame.version;
    const who = frame.step && frame.step.seat !== null && frame.step.seat !== undefined ? frame.step.seat : null;
    board.classList.remove("just-moved");
    // Restart the CSS animation: a reflow between removing and adding the class.
    void board.offsetWidth;
    board.classList.add("just-moved");
    Array.prototype.forEach.call(board.querySelectorAll(".seat[data-seat]"), function (el) {
      el.classList.toggle("seat-acted", who !== null && el.getAttribute("data-seat") === String(who));
    });
    win.clearTimeout(animate.timer);
    animate.timer = win.setTimeout(function () {
      board.classList.remove("just-moved");
      Array.prototype.forEach.call(board.querySelectorAll(".seat-acted"), function (el) { el.classList.remove("seat-acted"); });
    }, 1200);
  }

  // --- the screen-reader mode and the keys (docs/ui.md, "Accessibility") ---
  const srBox = slot("sr");
  const announcer = slot("sr-announce");
  const srToggle = board.querySelector('[data-control="sr-mode"]');
  const keysOn = slot("keys-on");
  let srOn = false;
  let srStatus = null;
  let sayQueue = [];
  let sayTimer = null;
  let sayFlip = false;

  /** Announce `text` through the polite live region (queued: one message). */
  function say(text) {
    if (!announcer || !text) return;
    sayQueue.push(text);
    if (sayTimer) return;
    sayTimer = win.setTimeout(function () {
      sayTimer = null;
      // A trailing no-break space that alternates: the same words twice are
      // still a change, so they are read again.
      sayFlip = !sayFlip;
      announcer.textContent = sayQueue.join(" ") + (sayFlip ? "\u00a0" : "");
      sayQueue = [];
    }, 60);
  }

  function currentModel() {
    const frame = client.frame || initial;
    return B.boardModel(frame, { names: names(frame) });
  }

  function setSrMode(on) {
    srOn = !!on;
    storeMode(win, srOn);
    board.classList.toggle("sr-mode", srOn);
    if (srBox) {
      srBox.hidden = !srOn;
      delete srBox.dataset.key;
    }
    if (srToggle) srToggle.setAttribute("aria-pressed", srOn ? "true" : "false");
    // In the mode the announcements say the new log lines: the log is quiet.
    if (logList && logList.dataset.loaded === "1") logList.setAttribute("aria-live", srOn ? "off" : "polite");
    srStatus = null;
    draw(client.frame);
  }

  function drawScreenReader(frame, model) {
    if (!srOn || !srBox) return;
    const srm = srModel(frame, model, B);
    renderScreenReader(srBox, srm, {
      pending: client.isBusy() || plan.length > 0,
      onAct: function (id) {
        stage = null;
        plan = [];
        client.act(id, frame.version);
        draw(client.frame);
      },
    });
    if (srStatus !== null && srStatus !== srm.status) say(srm.status);
    srStatus = srm.status;
  }

  const FIRST_CHOICE = '[data-role="prompt"] button:not([disabled]):not([data-choice="back"]), [data-role="prompt"] select:not([disabled])';

  function firstChoice() {
    if (srOn && srBox) return srBox.querySelector(".sr-action:not([disabled]), select:not([disabled])");
    return board.querySelector(FIRST_CHOICE) || board.querySelector(".board-table button:not([disabled])");
  }

  function focusFirstChoice() {
    const target = firstChoice() || (srOn ? slot("sr-status") : null);
    if (target) target.focus();
    else say(t("No choice for you right now."));
  }

  /**
   * The boards are drawn anew on every frame: the keyboard focus is kept on
   * the same control (by its action, choice, control or text), or, when the
   * control went away with the move it made, put on the next first choice, so
   * a keyboard user carries on with Enter instead of starting from the top.
   */
  function focusKey(el) {
    for (const name of ["data-action", "data-choice", "data-control", "data-index", "data-pos", "data-role", "id"]) {
      const value = el.getAttribute(name);
      if (value !== null) return "[" + name + '="' + value.replace(/["\\]/g, "\\$&") + '"]';
    }
    return null;
  }

  function keepFocus(redraw) {
    const before = doc.activeElement;
    const inside = before && before !== doc.body && board.contains(before) && !(srBox && srBox.contains(before));
    const key = inside ? focusKey(before) : null;
    const text = inside ? before.textContent : null;
    const label = inside ? before.getAttribute("aria-label") : null;
    // Focus that came from a click (no ring) moves without scrolling the page.
    const keyboard = inside && before.matches && before.matches(":focus-visible");
    redraw();
    // Still there, or a board put the focus somewhere itself (2009's hand).
    if (!inside || board.contains(before)) return;
    const now = doc.activeElement;
    if (now && now !== doc.body && board.contains(now)) return;
    let again = null;
    if (key) again = board.querySelector(key + ":not([disabled])");
    if (!again) {
      again = Array.prototype.find.call(board.querySelectorAll("button:not([disabled])"), function (el) {
        return el.textContent === text && el.getAttribute("aria-label") === label;
      }) || null;
    }
    const target = again || firstChoice() || slot("prompt");
    if (target && target.focus) target.focus({ preventScroll: !keyboard });
  }

  function onKey(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (keysOn && !keysOn.checked) return;
    const target = ev.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable], dialog")) return;
    if (ev.key === "a") focusFirstChoice();
    else if (ev.key === "t") say(currentModel().statusLine);
    else if (ev.key === "c") say(clocksSentence(srModel(client.frame || initial, currentModel(), B)));
    else if (ev.key === "l" && logList) logList.focus();
    else if (ev.key === "s") {
      setSrMode(!srOn);
      const status = srOn ? slot("sr-status") : srToggle;
      if (status) status.focus();
    } else return;
    ev.preventDefault();
  }

  function draw(frame) {
    if (!frame) return;
    if (stage && stageVersion !== frame.version) stage = null;
    if (advancePlan()) frame = client.frame;
    const model = B.boardModel(frame, { names: names(frame) });
    keepFocus(function () { B.renderBoard(board, model, {
      pending: client.isBusy() || plan.length > 0,
      onAct: function (action) {
        stage = null;
        client.act(action.id, frame.version);
        draw(client.frame);
      },
      stage: stage,
      onStage: function (next) {
        stage = next && next.card ? next : null;
        stageVersion = frame.version;
        draw(client.frame);
      },
      onPlan: sendPlan,
    }); });
    animate(frame);
    updateControls(frame);
    drawResults(frame);
    drawScreenReader(frame, model);
    updateTitle(model);
    if (frame.status === "active") autoChoose(model, frame);
    logForfeits(frame);
  }

  const connection = slot("connection");
  function showStatus(status, info) {
    if (!connection) return;
    let text = {
      connecting: t("Connecting…"),
      reconnecting: t("Reconnecting…"),
      open: t("Connected"),
      closed: info.reason && info.reason !== "stopped" ? t("Offline · %(reason)s", { reason: info.reason }) : t("Offline"),
    }[status];
    if (status === "waiting") {
      const secs = Math.max(1, Math.ceil((info.until - Date.now()) / 1000));
      text = t("Offline · retrying in %(seconds)s s", { seconds: secs });
    }
    connection.className = "conn conn-" + status;
    connection.querySelector(".conn-text").textContent = text;
    connection.dataset.until = status === "waiting" ? String(info.until) : "";
    if (status === "waiting" && !connection.querySelector(".conn-retry")) {
      connection.appendChild(h(doc, "button", {
        type: "button", className: "conn-retry small secondary", text: t("Retry now"),
        onclick: function () { client.reconnectNow(); },
      }));
    } else if (status !== "waiting") {
      const retry = connection.querySelector(".conn-retry");
      if (retry) retry.remove();
    }
  }

  const logList = slot("log");
  /** Forfeits are not moves, so no step carries them: log them from the seats. */
  function logForfeits(frame) {
    if (!logList || logList.dataset.loaded !== "1") return;
    const all = names(frame);
    const entries = [];
    (frame.seats || []).forEach(function (seat, i) {
      if (!seat.forfeited || forfeitLogged[i]) return;
      forfeitLogged[i] = true;
      entries.push({ scope: "public", type: "forfeit", version: frame.version, known: true, text: forfeitText(all[i] || t("Seat %(n)s", { n: i }), seat) });
    });
    if (!entries.length) return;
    for (const li of logList.querySelectorAll(".log-placeholder")) li.remove();
    renderLog(logList, entries);
  }

  function appendSteps(steps) {
    const frame = client.frame || initial;
    const ctx = { names: names(frame), viewer: seatOf(frame) };
    const entries = B.formatSteps(steps, ctx);
    const first = logList.dataset.loaded !== "1";
    if (!entries.length && !first) return;
    for (const li of logList.querySelectorAll(".log-placeholder")) li.remove();
    if (first) {
      // The backlog is filled silently; only new events are announced.
      logList.dataset.loaded = "1";
      logList.setAttribute("aria-live", "off");
      if (!entries.length) logList.appendChild(h(doc, "li", { className: "log-entry log-placeholder muted", text: t("Nothing to report yet.") }));
      renderLog(logList, entries);
      logForfeits(frame);
      showLogEnd();
      win.setTimeout(function () { logList.setAttribute("aria-live", srOn ? "off" : "polite"); }, 0);
      return;
    }
    renderLog(logList, entries);
    showLogEnd();
    if (srOn) say(entries.slice(-6).map(function (e) { return (e.scope === "private" ? t("Only you: ") : "") + e.text; }).join(" "));
  }

  const client = new LiveClient({
    url: socketUrl(cfg.wsPath, win.location),
    WebSocket: win.WebSocket,
    initialFrame: initial,
    onFrame: function (frame) {
      if (frame.server_time) offset = clockOffset(frame, Date.now());
      draw(frame);
    },
    onSteps: appendSteps,
    onStatus: showStatus,
    onError: showError,
    onAck: function () {
      const box = slot("error");
      if (box) box.hidden = true;
      draw(client.frame);
    },
  });

  board.addEventListener("click", function (ev) {
    const button = ev.target.closest("[data-control]");
    if (!button) return;
    const control = button.getAttribute("data-control");
    if (control === "sr-mode") {
      setSrMode(!srOn);
      if (srOn && slot("sr-status")) slot("sr-status").focus();
    } else if (control === "resign") {
      confirmThen(t("Resign this match?"), t("You will lose the match. At a table of three or more, a bot plays on in your seat."), t("Resign"), function () {
        client.command("resign");
      });
    } else if (control === "claim-win") {
      confirmThen(t("Claim the win?"), t("Your opponents have been away past the grace period. Claiming ends the match with you as the winner."), t("Claim win"), function () {
        client.command("claim", { claim: "win" });
      });
    } else if (control === "abort") {
      const claim = button.dataset.mode === "claim";
      confirmThen(claim ? t("Call the match off?") : t("Abort this match?"),
        claim ? t("The match ends without a result and without rating changes.") : t("Nobody has moved yet: the match ends without a result."),
        claim ? t("Call off") : t("Abort"), function () {
          if (claim) client.command("claim", { claim: "abort" });
          else client.command("abort");
        });
    }
  });

  draw(initial);
  if (storedMode(win)) setSrMode(true);
  doc.addEventListener("keydown", onKey);
  if (logList) {
    logList.textContent = "";
    logList.appendChild(h(doc, "li", { className: "log-entry log-placeholder muted", text: t("Loading the game log…") }));
  }
  win.setInterval(function () {
    if (client.frame) tickClocks(board, client.frame, Date.now());
    if (client.status === "waiting") showStatus("waiting", { until: Number(connection.dataset.until) });
    if (client.frame && client.frame.status === "active") updateControls(client.frame);
  }, 500);
  win.addEventListener("online", function () { client.reconnectNow(); });
  win.addEventListener("offline", function () { client.goOffline(); });
  doc.addEventListener("visibilitychange", function () {
    if (doc.visibilityState === "visible") client.reconnectNow();
  });
  client.connect();
  return client;
}

export { LiveClient, backoffDelay, socketUrl, startPage, claimState, clockOffset, forfeitText,
  ratingDelta, ratingRows, ERROR_TEXT, PING_EVERY_MS, PONG_TIMEOUT_MS };
