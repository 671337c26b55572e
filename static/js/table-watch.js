/*
 * A waiting table's page follows the table live (/ws/table/<id>/, see
 * docs/protocol/live.md "Watching a waiting table") instead of reloading
 * itself: the seat list is redrawn on every change, so nothing the visitor is
 * choosing on the page (the bot strength) is reset, and the page reloads once,
 * into the game, when the table starts (or shows that it was closed).
 *
 * templates/gameplay/match.html names the socket on the seat list
 * (<tbody id="table-seats" data-ws-path>); a module runs once the page is parsed.
 */

import { t, tn } from "./i18n.js";
import { isLeaving, leave } from "./navigation.js";

const body = document.getElementById("table-seats");
const status = document.getElementById("table-status");
let attempt = 0;

function cell(text, badge) {
  const td = document.createElement("td");
  if (text) td.appendChild(document.createTextNode(text));
  if (badge) {
    if (text) td.appendChild(document.createTextNode(" "));
    const span = document.createElement("span");
    span.className = "badge";
    span.textContent = badge;
    td.appendChild(span);
  }
  return td;
}

function draw(frame) {
  if (frame.status !== "waiting") {
    leave(window, null);
    return;
  }
  while (body.firstChild) body.removeChild(body.firstChild);
  let taken = 0;
  frame.seats.forEach(function (seat) {
    const tr = document.createElement("tr");
    tr.appendChild(cell(String(seat.number + 1)));
    if (seat.open) tr.appendChild(cell("", t("open")));
    else tr.appendChild(cell(seat.name, seat.is_bot ? t("bot") : ""));
    if (!seat.open) taken += 1;
    body.appendChild(tr);
  });
  const n = frame.seats.length;
  if (status) status.textContent = tn("%(taken)s of %(n)s seat taken.", "%(taken)s of %(n)s seats taken.", n, { taken: taken, n: n });
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + body.dataset.wsPath);
  let ping = null;
  ws.onopen = function () {
    attempt = 0;
    ping = setInterval(function () { ws.send('{"type":"ping"}'); }, 20000);
  };
  ws.onmessage = function (msg) {
    let frame;
    try { frame = JSON.parse(msg.data); } catch { return; }
    if (frame.type === "table") draw(frame);
  };
  ws.onclose = function (ev) {
    if (ping) clearInterval(ping);
    if (ev.code === 4404 || isLeaving()) return;
    const delay = Math.min(15000, 500 * Math.pow(2, attempt++));
    setTimeout(connect, delay * (0.75 + 0.5 * Math.random()));
  };
}

if (body && body.dataset.wsPath) connect();
