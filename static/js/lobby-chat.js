/**
 * A game's lobby chat: the last lines on load, then newer ones live over the
 * lobby's socket (/ws/lobby/<game>/chat/, docs/protocol/live.md). The
 * history is fetched once the socket is open (and again, only newer lines,
 * after a reconnect), so no line falls between the two. Lines go on the page
 * with textContent only: no HTML from anyone, no clickable links.
 */

import { chatReporting } from "./chat-report.js";
import { formatTime, t } from "./i18n.js";

const RETRY_MS = [1000, 2000, 5000, 10000, 30000];

function el(doc, tag, className, text) {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function startLobbyChat(win) {
  const doc = win.document;
  const panel = doc.getElementById("kfa-lobby-chat");
  if (!panel) return null;
  const part = function (role) { return panel.querySelector('[data-role="' + role + '"]'); };
  const list = part("chat-lines");
  const form = part("chat-form");
  const errorBox = part("chat-error");
  const csrf = panel.querySelector("input[name=csrfmiddlewaretoken]");
  let lastId = 0;
  const shown = {};
  let loading = null; // lines that arrive while the history loads wait here
  let tries = 0;
  const viewer = panel.dataset.viewer;
  const reportForm = part("chat-report");

  function post(url, body) {
    return win.fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body),
    });
  }

  function say(message) {
    if (!errorBox) return;
    errorBox.textContent = message;
    errorBox.hidden = !message;
  }

  function mute(line) {
    const url = panel.dataset.muteUrl.replace("__user__", encodeURIComponent(line.author_username));
    post(url, { muted: true }).then(function (resp) {
      if (!resp.ok) { say(t("Could not mute %(name)s.", { name: line.author })); return; }
      // Their earlier lines go too, at once.
      for (const li of list.querySelectorAll('[data-author="' + line.author_id + '"]')) li.remove();
    });
  }

  const openReport = chatReporting({ form: reportForm, part: part, post: post, url: panel.dataset.reportUrl, say: say });

  function button(doc, label, aria, onClick) {
    const b = el(doc, "button", "chat-mute", label);
    b.type = "button";
    b.setAttribute("aria-label", aria);
    b.addEventListener("click", onClick);
    return b;
  }

  function add(line) {
    if (shown[line.id]) return;
    shown[line.id] = true;
    lastId = Math.max(lastId, line.id);
    const li = el(doc, "li", "chat-line");
    li.dataset.id = line.id;
    li.dataset.author = line.author_id;
    const at = el(doc, "time", "chat-time small muted", formatTime(line.at));
    at.dateTime = line.at || "";
    li.appendChild(at);
    li.appendChild(doc.createTextNode(" "));
    li.appendChild(el(doc, "strong", "chat-who", line.author));
    li.appendChild(doc.createTextNode(" "));
    li.appendChild(el(doc, "span", "chat-text", line.text));
    if (viewer && reportForm && String(line.author_id) !== viewer) {
      li.appendChild(button(doc, "mute", t("Mute %(name)s", { name: line.author }), function () { mute(line); }));
      li.appendChild(button(doc, "report", t("Report %(name)s", { name: line.author }), function () { openReport(line); }));
    }
    list.appendChild(li);
    list.scrollTop = list.scrollHeight;
  }

  function remove(id) {
    // A moderator took the line down: gone from every page at once.
    const li = list.querySelector('[data-id="' + Number(id) + '"]');
    if (li) li.remove();
  }

  function history() {
    const url = panel.dataset.url + (lastId ? "?after=" + lastId : "");
    loading = [];
    return win.fetch(url, { credentials: "same-origin" })
      .then(function (resp) { return resp.ok ? resp.json() : { messages: [] }; })
      .then(function (data) { (data.messages || []).forEach(add); })
      .catch(function () { /* offline: the reconnect loads it again */ })
      .then(function () {
        const waiting = loading || [];
        loading = null;
        waiting.forEach(add);
      });
  }

  function connect() {
    const scheme = win.location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new win.WebSocket(scheme + win.location.host + panel.dataset.wsPath);
    socket.addEventListener("open", function () {
      tries = 0;
      panel.dataset.live = "1";
      history();
    });
    socket.addEventListener("message", function (ev) {
      let frame;
      try { frame = JSON.parse(ev.data); } catch (e) { return; }
      if (frame.type === "chat" && frame.message) {
        if (loading) loading.push(frame.message);
        else add(frame.message);
      } else if (frame.type === "chat_removed") {
        remove(frame.id);
      }
    });
    socket.addEventListener("close", function () {
      panel.dataset.live = "";
      const wait = RETRY_MS[Math.min(tries, RETRY_MS.length - 1)];
      tries += 1;
      win.setTimeout(connect, wait);
    });
  }

  if (form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      const input = part("chat-text");
      const text = input.value.trim();
      if (!text) return;
      win.fetch(panel.dataset.url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
        body: JSON.stringify({ text: text }),
      }).then(function (resp) {
        return resp.json().then(function (data) {
          errorBox.hidden = resp.ok;
          errorBox.textContent = resp.ok ? "" : (data.detail || t("Not sent."));
          if (resp.ok) input.value = "";
        });
      });
    });
  }
  connect();
  return { history: history };
}

startLobbyChat(window);

export { startLobbyChat };
