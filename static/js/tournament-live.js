/*
 * A tournament page follows its tournament live (/ws/tournaments/<slug>/, see
 * league/live.py; a season page likewise /ws/seasons/<league>/<number>/ with
 * "season" frames): each frame says only that something changed,
 * so the page fetches itself again and swaps in its live parts (every element
 * marked data-live: status, champion, bracket, standings, cross table,
 * rounds, entrants; a season's standings, queue and latest games). Frames that come in a burst (a round's games all decided) are
 * folded into one fetch. On connect the server sends its version; a page
 * rendered before a change it missed refreshes at once.
 *
 * templates/league/tournament_detail.html names the socket on #tournament-live.
 */

import { isLeaving } from "./navigation.js";

const live = document.getElementById("tournament-live");
let attempt = 0;
let timer = null;
let fetching = false;
let again = false;

function currentVersion() {
  const node = document.getElementById("tournament-live");
  return node ? node.dataset.version : "";
}

/**
 * A part the reader is working in stays as it is until the next change: the
 * focus is inside it, or a field in it was edited (an organiser typing seeds).
 */
function inUse(part) {
  if (part.contains(document.activeElement) && document.activeElement !== document.body) {
    return true;
  }
  for (const field of part.querySelectorAll("input, select, textarea")) {
    if (field.type === "hidden") continue;
    if (field.tagName === "SELECT") {
      if (Array.from(field.options).some(function (o) { return o.selected !== o.defaultSelected; })) return true;
    } else if (field.type === "checkbox" || field.type === "radio") {
      if (field.checked !== field.defaultChecked) return true;
    } else if (field.value !== field.defaultValue) {
      return true;
    }
  }
  return false;
}

async function refresh() {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    const response = await fetch(location.pathname, {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
    });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const part of fresh.querySelectorAll("[data-live][id]")) {
      const old = document.getElementById(part.id);
      if (old && !inUse(old)) old.replaceWith(document.importNode(part, true));
    }
  } catch {
    // A failed fetch leaves the page as it was; the next frame tries again.
  } finally {
    fetching = false;
    if (again) {
      again = false;
      schedule();
    }
  }
}

function schedule() {
  if (timer) return;
  timer = setTimeout(function () {
    timer = null;
    refresh();
  }, 300);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + live.dataset.wsPath);
  let ping = null;
  ws.onopen = function () {
    attempt = 0;
    document.body.dataset.liveSocket = "open"; // tests wait on it
    ping = setInterval(function () { ws.send('{"type":"ping"}'); }, 20000);
  };
  ws.onmessage = function (msg) {
    let frame;
    try { frame = JSON.parse(msg.data); } catch { return; }
    if (frame.type !== "tournament" && frame.type !== "season") return;
    if (frame.version === undefined || frame.version !== currentVersion()) schedule();
  };
  ws.onclose = function (ev) {
    if (ping) clearInterval(ping);
    document.body.dataset.liveSocket = "closed";
    if (ev.code === 4404 || isLeaving()) return;
    const delay = Math.min(15000, 500 * Math.pow(2, attempt++));
    setTimeout(connect, delay * (0.75 + 0.5 * Math.random()));
  };
}

if (live && live.dataset.wsPath) connect();
