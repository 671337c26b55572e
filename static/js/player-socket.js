/*
 * The player's own socket (/ws/me/, docs/protocol/live.md "The player's
 * socket"), on every page of a signed-in player (base.html).
 *
 * - `match_started`: a match began for this player; the page goes there at
 *   once, unless it is the player's own game in play (then a toast links it).
 * - `hello` / `turn`: which games wait for the player's move; the navigation
 *   badge shows how many, and every "your games" row on the page says whose
 *   move it is (a hello corrects rows whose `turn` frame never came).
 * - `notification` / `unread`: the notifications menu and its unread count; the
 *   browser's Notification API when the player allowed it and is elsewhere.
 *
 * PlayerState and decideStart have no DOM code so node tests drive them;
 * every frame is also re-dispatched as a `kfa:player` window event for page
 * scripts (the home page's "your games", the quick-play card).
 *
 * base.html loads this module (id="player-socket") with the socket's path in
 * a data attribute (no inline script: CSP); a module runs once the page is
 * parsed, so it starts at once.
 */

import { leave } from "./navigation.js";
import { t } from "./i18n.js";

const PING_EVERY_MS = 20000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 15000;
const CLOSE_SIGN_IN = 4401;

/**
 * Which of the player's games wait for their move. Frames of one match may
 * arrive out of order (broadcasts of consecutive versions race), so a
 * `turn` older than the newest seen for its match is ignored, and a match
 * seen over stays over.
 */
function PlayerState() {
  this.yourMove = {};
  this.versions = {};
  this.over = {};
  this.unread = 0;
  this.live = false;
}

PlayerState.prototype.hello = function (frame) {
  this.yourMove = {};
  const list = frame.your_move || [];
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    this.yourMove[entry.match] = entry.url;
    this.versions[entry.match] = Math.max(this.versions[entry.match] || 0, entry.version || 0);
  }
  this.unread = frame.unread || 0;
  this.inPlay = {};
  const games = frame.in_play || [];
  for (let j = 0; j < games.length; j++) this.inPlay[games[j].match] = games[j];
  this.inPlayComplete = !!frame.in_play && frame.in_play_complete !== false;
};

/**
 * What a "your games" row should now say after a hello, as a `turn`-like
 * frame, or null to leave the row as it is. The hello is the only news of
 * a move whose `turn` frame left before every process knew of this socket.
 * rowStatus: the status the row shows now ("active", "waiting", ...).
 */
PlayerState.prototype.rowFromHello = function (id, rowStatus) {
  const game = (this.inPlay || {})[id];
  if (game) {
    if (!game.turns) return null;  // real time: "In play" is right until the end
    if ((this.versions[id] || 0) > game.version) return null;  // a newer turn came first
    this.versions[id] = game.version;
    return { match: id, status: "active", your_move: !!game.your_move, version: game.version };
  }
  // Shown in play but no longer among the player's games in play: it ended
  // (or the player's seat left it). A waiting table is left alone.
  if (rowStatus === "active" && this.inPlayComplete) {
    this.over[id] = true;
    delete this.yourMove[id];
    return { match: id, status: "finished" };
  }
  return null;
};

/** Apply a `turn` frame; returns whether the set of waiting games changed. */
PlayerState.prototype.turn = function (frame) {
  const id = frame.match;
  if (this.over[id]) return false;
  if ((this.versions[id] || 0) > frame.version) return false;
  this.versions[id] = frame.version;
  const before = Object.prototype.hasOwnProperty.call(this.yourMove, id);
  if (frame.status === "waiting") return false;  // not started: nobody's move
  if (frame.status !== "active") {
    this.over[id] = true;
    delete this.yourMove[id];
  } else if (frame.your_move) {
    this.yourMove[id] = frame.url;
  } else {
    delete this.yourMove[id];
  }
  return before !== Object.prototype.hasOwnProperty.call(this.yourMove, id);
};

PlayerState.prototype.count = function () {
  return Object.keys(this.yourMove).length;
};

/**
 * What a page does with `match_started`: "stay" (already there),
 * "toast" (the player is at a game of theirs in play: never pulled out
 * of it), or "go".
 * env: {path, atOwnLiveGame}
 */
function decideStart(frame, env) {
  if (env.path === frame.url) return "stay";
  if (env.atOwnLiveGame) return "toast";
  return "go";
}

function backoffDelay(attempt, random) {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * Math.pow(2, attempt));
  return Math.round(base * (0.75 + 0.5 * (random || Math.random)()));
}

// --- the page -------------------------------------------------------------

function startPage(win, wsPath) {
  const doc = win.document;
  const state = new PlayerState();
  let attempt = 0;
  let pingTimer = null;
  let ws = null;

  const turnsLink = doc.getElementById("nav-turns");
  const unreadBadge = doc.getElementById("nav-unread");
  const list = doc.getElementById("notif-list");

  // The page was rendered with the counts; start from them.
  if (turnsLink && turnsLink.dataset.yourMove) {
    turnsLink.dataset.yourMove.split(" ").forEach(function (id) { if (id) state.yourMove[id] = true; });
  }
  if (unreadBadge) state.unread = parseInt(unreadBadge.textContent, 10) || 0;

  function showTurns() {
    if (!turnsLink) return;
    const n = state.count();
    turnsLink.querySelector("[data-count]").textContent = String(n);
    turnsLink.hidden = n === 0;
    turnsLink.title = n === 1 ? "1 game waits for your move" : n + " games wait for your move";
  }

  function showUnread() {
    if (!unreadBadge) return;
    unreadBadge.textContent = String(state.unread);
    unreadBadge.hidden = state.unread === 0;
  }

  /** The home page's "your games" row of this match follows its turns. */
  // Every list of the player's games on the page ([data-your-games]: the home
  // page's table, a game page's list) shows whose move it is, live.
  function showGameRow(frame) {
    if (state.over[frame.match] && frame.status === "active") return;
    const rows = doc.querySelectorAll('[data-your-games] [data-match="' + frame.match + '"]');
    Array.prototype.forEach.call(rows, function (row) { showRow(row, frame); });
  }

  function showRow(row, frame) {
    const cell = row.querySelector("[data-turn]");
    if (!cell) return;
    const mine = frame.status === "active" && frame.your_move;
    row.classList.toggle("your-move", mine);
    row.dataset.status = frame.status;
    // The time left is the player's own, for the move they were to make.
    const left = row.querySelector("[data-time-left]");
    if (left && !mine) left.hidden = true;
    while (cell.firstChild) cell.removeChild(cell.firstChild);
    const text = frame.status === "active" ? (mine ? t("Your move") : t("Opponent to move")) : t("Over");
    const badge = doc.createElement("span");
    badge.className = mine ? "badge live" : "badge";
    badge.textContent = text;
    cell.appendChild(badge);
  }

  /** After a hello, every row on the page agrees with it. */
  function showRowsFromHello() {
    const rows = doc.querySelectorAll("[data-your-games] [data-match]");
    Array.prototype.forEach.call(rows, function (row) {
      const frame = state.rowFromHello(row.dataset.match, row.dataset.status);
      if (frame) showRow(row, frame);
    });
  }

  function atOwnLiveGame() {
    const m = win.KFA_MATCH;
    if (!m || m.seat === null || m.seat === undefined) return false;
    let frame = win.LiveMatch && win.LiveMatch.currentFrame ? win.LiveMatch.currentFrame() : null;
    if (!frame) {
      const el = doc.getElementById("initial-frame");
      try { frame = el ? JSON.parse(el.textContent) : null; } catch (err) { frame = null; }
    }
    return !!frame && frame.status === "active";
  }

  function toast(text, url) {
    let box = doc.getElementById("player-toasts");
    if (!box) {
      box = doc.createElement("div");
      box.id = "player-toasts";
      box.className = "player-toasts";
      box.setAttribute("aria-live", "polite");
      doc.body.appendChild(box);
    }
    const item = doc.createElement(url ? "a" : "div");
    item.className = "player-toast";
    if (url) item.href = url;
    item.textContent = text;
    box.appendChild(item);
    win.setTimeout(function () { if (item.parentNode) item.parentNode.removeChild(item); }, 8000);
  }

  function onStarted(frame) {
    const what = "Your game of " + (frame.game_name || frame.game) + " started";
    const decision = decideStart(frame, { path: win.location.pathname, atOwnLiveGame: atOwnLiveGame() });
    if (decision === "go") {
      leave(win, frame.url);
    } else if (decision === "toast") {
      toast(what + ": open it", frame.url);
    } else if (!doc.getElementById("initial-frame")) {
      // "stay" on the table that just filled (not yet a match page, which
      // carries its first frame): its page becomes the game.
      leave(win, null);
    }
  }

  function addToList(frame) {
    if (!list) return;
    const empty = list.querySelector(".notif-empty");
    if (empty) empty.parentNode.removeChild(empty);
    const li = doc.createElement("li");
    li.className = "notif-item unread";
    li.dataset.id = String(frame.id);
    const a = doc.createElement("a");
    a.href = "/notifications/" + frame.id + "/open/";
    const strong = doc.createElement("strong");
    strong.textContent = frame.title;
    a.appendChild(strong);
    if (frame.body) {
      const body = doc.createElement("span");
      body.className = "muted";
      body.textContent = frame.body;
      a.appendChild(body);
    }
    li.appendChild(a);
    list.insertBefore(li, list.firstChild);
    while (list.children.length > 8) list.removeChild(list.lastChild);
  }

  function systemNotify(frame) {
    if (!("Notification" in win) || win.Notification.permission !== "granted") return false;
    if (!doc.hidden && doc.hasFocus && doc.hasFocus()) return false;
    try {
      const note = new win.Notification(frame.title, { body: frame.body || "", tag: "kfa-" + frame.id });
      note.onclick = function () {
        win.focus();
        win.location.assign("/notifications/" + frame.id + "/open/");
      };
      return true;
    } catch (err) {
      return false;  // e.g. Android Chrome allows only service-worker notifications
    }
  }

  function onNotification(frame) {
    state.unread = frame.unread;
    showUnread();
    addToList(frame);
    const shown = systemNotify(frame);
    // A game that started takes the page there: no toast for that one.
    if (!shown && frame.kind !== "game_started") toast(frame.title, "/notifications/" + frame.id + "/open/");
  }

  function handle(frame) {
    if (frame.type === "hello") {
      state.hello(frame);
      state.live = true;  // subscribed: pushes reach this page from now on
      showTurns();
      showUnread();
      showRowsFromHello();
    } else if (frame.type === "turn") {
      if (state.turn(frame)) showTurns();
      showGameRow(frame);
    } else if (frame.type === "match_started") {
      onStarted(frame);
    } else if (frame.type === "notification") {
      onNotification(frame);
    } else if (frame.type === "unread") {
      state.unread = frame.count;
      showUnread();
    }
    win.dispatchEvent(new win.CustomEvent("kfa:player", { detail: frame }));
  }

  function connect() {
    const scheme = win.location.protocol === "https:" ? "wss://" : "ws://";
    let socket;
    try {
      socket = new win.WebSocket(scheme + win.location.host + wsPath);
    } catch (err) {
      return retry();
    }
    ws = socket;
    socket.onopen = function () {
      attempt = 0;
      pingTimer = win.setInterval(function () {
        if (socket.readyState === 1) socket.send('{"type":"ping"}');
      }, PING_EVERY_MS);
    };
    socket.onmessage = function (msg) {
      let frame;
      try { frame = JSON.parse(msg.data); } catch (err) { return; }
      handle(frame);
    };
    socket.onclose = function (ev) {
      if (pingTimer) win.clearInterval(pingTimer);
      pingTimer = null;
      if (ws !== socket) return;
      ws = null;
      state.live = false;
      if (ev.code !== CLOSE_SIGN_IN) retry();
    };
  }

  function retry() {
    win.setTimeout(connect, backoffDelay(attempt++));
  }

  setupMarkAll(win, state, showUnread);
  setupBrowserButton(win);
  connect();
  return state;
}

/** "Mark all read" in the menu works without leaving the page. */
function setupMarkAll(win, state, showUnread) {
  const doc = win.document;
  const forms = doc.querySelectorAll("form[data-mark-all]");
  Array.prototype.forEach.call(forms, function (form) {
    form.addEventListener("submit", function (ev) {
      if (!win.fetch) return;
      ev.preventDefault();
      win.fetch(form.action, {
        method: "POST",
        body: new win.FormData(form),
        headers: { Accept: "application/json" },
        credentials: "same-origin"
      }).then(function (r) { return r.json(); }).then(function (data) {
        state.unread = data.unread;
        showUnread();
        Array.prototype.forEach.call(doc.querySelectorAll(".notif-item.unread"), function (el) {
          el.classList.remove("unread");
        });
      }).catch(function () { form.submit(); });
    });
  });
}

/** The button that asks for the browser's permission to notify. */
function setupBrowserButton(win) {
  const doc = win.document;
  const boxes = doc.querySelectorAll("[data-browser-notifications]");
  if (!boxes.length || !("Notification" in win)) return;
  function render() {
    const permission = win.Notification.permission;
    Array.prototype.forEach.call(boxes, function (box) {
      const button = box.querySelector("button");
      const note = box.querySelector("[data-browser-state]");
      box.hidden = false;
      button.hidden = permission !== "default";
      note.textContent = permission === "granted"
        ? "Browser notifications are on when this site is in the background."
        : permission === "denied" ? t("Browser notifications are blocked in this browser's settings.") : "";
    });
  }
  Array.prototype.forEach.call(boxes, function (box) {
    box.querySelector("button").addEventListener("click", function () {
      const asked = win.Notification.requestPermission(render);
      if (asked && asked.then) asked.then(render);
    });
  });
  render();
}

export { PlayerState, decideStart, backoffDelay, startPage };

const tag = globalThis.document ? document.getElementById("player-socket") : null;
/** The page's PlayerState (null without the socket: in node, signed out); browser tests wait for `live`. */
export const pageState = tag ? startPage(window, tag.dataset.wsPath) : null;
