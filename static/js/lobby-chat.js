/**
 * A game's lobby chat: the last lines on load, then a poll for newer ones
 * (every few seconds while the tab is visible). Lines go on the page with
 * textContent only: no HTML from anyone, no clickable links.
 */

import { t } from "./i18n.js";

const POLL_MS = 4000;

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

  function add(line) {
    if (line.id <= lastId) return;
    lastId = line.id;
    const li = el(doc, "li", "chat-line");
    li.dataset.id = line.id;
    li.dataset.author = line.author_id;
    li.appendChild(el(doc, "strong", "chat-who", line.author));
    li.appendChild(doc.createTextNode(" "));
    li.appendChild(el(doc, "span", "chat-text", line.text));
    list.appendChild(li);
    list.scrollTop = list.scrollHeight;
  }

  function poll() {
    const url = panel.dataset.url + (lastId ? "?after=" + lastId : "");
    return win.fetch(url, { credentials: "same-origin" })
      .then(function (resp) { return resp.ok ? resp.json() : { messages: [] }; })
      .then(function (data) { (data.messages || []).forEach(add); })
      .catch(function () { /* offline: the next poll tries again */ });
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
          return poll();
        });
      });
    });
  }
  poll();
  win.setInterval(function () {
    if (doc.visibilityState !== "hidden") poll();
  }, POLL_MS);
  return { poll: poll };
}

startLobbyChat(window);

export { startLobbyChat };
