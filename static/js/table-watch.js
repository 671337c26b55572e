/*
 * A waiting table's page follows the table live (/ws/table/<id>/, see
 * docs/protocol/live.md "Watching a waiting table") instead of reloading
 * itself: the seat list is redrawn on every change, so nothing the visitor is
 * choosing on the page (the bot strength) is reset, and the page reloads once,
 * into the game, when the table starts (or shows that it was closed).
 */
(function () {
  "use strict";
  var tag = document.currentScript;
  var body = document.getElementById("table-seats");
  var status = document.getElementById("table-status");
  if (!tag || !body) return;
  var attempt = 0;

  function cell(text, badge) {
    var td = document.createElement("td");
    if (text) td.appendChild(document.createTextNode(text));
    if (badge) {
      if (text) td.appendChild(document.createTextNode(" "));
      var span = document.createElement("span");
      span.className = "badge";
      span.textContent = badge;
      td.appendChild(span);
    }
    return td;
  }

  function draw(frame) {
    if (frame.status !== "waiting") {
      if (!window.KFA_NAVIGATING) {
        window.KFA_NAVIGATING = true;
        window.location.reload();
      }
      return;
    }
    while (body.firstChild) body.removeChild(body.firstChild);
    var taken = 0;
    frame.seats.forEach(function (seat) {
      var tr = document.createElement("tr");
      tr.appendChild(cell(String(seat.number + 1)));
      if (seat.open) tr.appendChild(cell("", "open"));
      else tr.appendChild(cell(seat.name, seat.is_bot ? "bot" : ""));
      if (!seat.open) taken += 1;
      body.appendChild(tr);
    });
    if (status) status.textContent = taken + " of " + frame.seats.length + " seats taken.";
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + tag.dataset.wsPath);
    var ping = null;
    ws.onopen = function () {
      attempt = 0;
      ping = setInterval(function () { ws.send('{"type":"ping"}'); }, 20000);
    };
    ws.onmessage = function (msg) {
      var frame;
      try { frame = JSON.parse(msg.data); } catch (err) { return; }
      if (frame.type === "table") draw(frame);
    };
    ws.onclose = function (ev) {
      if (ping) clearInterval(ping);
      if (ev.code === 4404 || window.KFA_NAVIGATING) return;
      var delay = Math.min(15000, 500 * Math.pow(2, attempt++));
      setTimeout(connect, delay * (0.75 + 0.5 * Math.random()));
    };
  }

  connect();
})();
