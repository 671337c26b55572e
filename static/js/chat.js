/**
 * The match page's chat panel: lines arrive as `chat` frames on the match's
 * socket (live-match.js hands over frames it does not know) and are sent as
 * `chat` frames on it. The server decides who reads what (players' chat,
 * spectators' chat, private lines); this module only shows it. Every line is
 * put on the page with textContent: no HTML from anyone, no clickable links.
 */

import { chatReporting } from "./chat-report.js";
import { formatTime, t } from "./i18n.js";

function el(doc, tag, className, text) {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The line's time in the user's profile zone (i18n.js formatTime). */
function timeOf(doc, iso) {
  const node = el(doc, "time", "chat-time small muted", formatTime(iso));
  node.dateTime = iso || "";
  return node;
}

function startChat(win, client) {
  const doc = win.document;
  const panel = doc.getElementById("kfa-chat");
  if (!panel || !client) return null;
  const part = function (role) { return panel.querySelector('[data-role="' + role + '"]'); };
  const list = part("chat-lines");
  const form = part("chat-form");
  const text = part("chat-text");
  const to = part("chat-to");
  const errorBox = part("chat-error");
  const offBox = part("chat-off");
  const mySeat = panel.dataset.seat === "" ? null : Number(panel.dataset.seat);
  const viewer = panel.dataset.viewer;
  const csrf = panel.querySelector("input[name=csrfmiddlewaretoken]");
  const shown = {};
  let privateAllowed = false;
  let wasActive = !client.frame || client.frame.status === "active";

  function post(url, body) {
    return win.fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body),
    });
  }

  function seatName(n) {
    const seats = (client.frame && client.frame.seats) || [];
    return (seats[n] && seats[n].name) || t("Seat %(n)s", { n: n + 1 });
  }

  function showError(message) {
    if (!errorBox) return;
    errorBox.textContent = message;
    errorBox.hidden = !message;
  }

  function mute(line) {
    const url = panel.dataset.muteUrl.replace("__user__", encodeURIComponent(line.author_username));
    post(url, { muted: true }).then(function (resp) {
      if (!resp.ok) { showError(t("Could not mute %(name)s.", { name: line.author })); return; }
      // Their earlier lines go too, at once.
      for (const li of list.querySelectorAll('[data-author="' + line.author_id + '"]')) li.remove();
    });
  }

  const reportForm = part("chat-report");

  const openReport = chatReporting({ form: reportForm, part: part, post: post, url: panel.dataset.reportUrl, say: showError });

  function addLine(line) {
    if (shown[line.id]) return;
    shown[line.id] = true;
    const li = el(doc, "li", "chat-line" + (line.system ? " chat-system" : "") + (line.channel === "private" ? " chat-private" : ""));
    li.dataset.id = line.id;
    li.dataset.channel = line.channel;
    li.appendChild(timeOf(doc, line.at));
    li.appendChild(doc.createTextNode(" "));
    if (line.system) {
      li.appendChild(el(doc, "span", "chat-text", line.text));
    } else {
      li.dataset.author = line.author_id;
      let who = line.author;
      if (line.channel === "private") {
        who += line.seat === mySeat ? " → " + seatName(line.to_seat) : " (private)";
      }
      li.appendChild(el(doc, "strong", "chat-who", who));
      li.appendChild(doc.createTextNode(" "));
      li.appendChild(el(doc, "span", "chat-text", line.text));
      if (viewer && String(line.author_id) !== viewer) {
        const button = el(doc, "button", "chat-mute", "mute");
        button.type = "button";
        button.setAttribute("aria-label", t("Mute %(name)s", { name: line.author }));
        button.addEventListener("click", function () { mute(line); });
        li.appendChild(button);
        const flag = el(doc, "button", "chat-mute", "report");
        flag.type = "button";
        flag.setAttribute("aria-label", t("Report %(name)s", { name: line.author }));
        flag.addEventListener("click", function () { openReport(line); });
        li.appendChild(flag);
      }
    }
    list.appendChild(li);
    list.scrollTop = list.scrollHeight;
  }

  function removeLine(id) {
    // A moderator took the line down: gone from every page at once.
    const li = list.querySelector('[data-id="' + Number(id) + '"]');
    if (li) li.remove();
  }

  function fillRecipients() {
    if (!to) return;
    if (!privateAllowed || mySeat === null) { to.hidden = true; return; }
    const seats = (client.frame && client.frame.seats) || [];
    const chosen = to.value;
    to.textContent = "";
    const everyone = el(doc, "option", "", t("Everyone at the table"));
    everyone.value = "";
    to.appendChild(everyone);
    seats.forEach(function (seat, n) {
      if (n === mySeat || seat.is_bot) return;
      const option = el(doc, "option", "", t("Only %(name)s", { name: seatName(n) }));
      option.value = String(n);
      to.appendChild(option);
    });
    to.value = chosen;
    to.hidden = false;
  }

  function load() {
    return win.fetch(panel.dataset.historyUrl, { credentials: "same-origin" })
      .then(function (resp) { return resp.json(); })
      .then(function (data) {
        privateAllowed = !!data.private;
        if (offBox) offBox.checked = !!data.chat_off;
        list.hidden = !!data.chat_off;
        (data.messages || []).forEach(addLine);
        fillRecipients();
      });
  }

  client.opts.onOther = function (frame) {
    if (frame.type === "chat" && frame.message) addLine(frame.message);
    else if (frame.type === "chat_removed") removeLine(frame.id);
    else if (frame.type === "chat_error") showError(frame.message || t("Not sent."));
    else if (frame.type === "chat_ok") showError("");
  };
  const drawFrame = client.opts.onFrame;
  client.opts.onFrame = function (frame) {
    if (drawFrame) drawFrame(frame);
    if (wasActive && frame.status && frame.status !== "active") {
      // The match is over: lines held back for fair play open up now.
      wasActive = false;
      const note = part("chat-note");
      if (note) note.textContent = t("The match is over: both chats are open to everyone.");
      load();
    }
  };

  if (form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      const message = text.value.trim();
      if (!message) return;
      const frame = { channel: mySeat === null ? "spectators" : "table", text: message };
      if (to && !to.hidden && to.value !== "") {
        frame.channel = "private";
        frame.to_seat = Number(to.value);
      }
      if (client.command("chat", frame)) text.value = "";
    });
  }
  if (offBox) {
    offBox.addEventListener("change", function () {
      const off = offBox.checked;
      post(panel.dataset.switchUrl, { off: off, match: panel.dataset.match }).then(function (resp) {
        if (!resp.ok) { offBox.checked = !off; return; }
        list.hidden = off;
        if (!off) load();
      });
    });
  }
  load();
  return { load: load };
}

export { startChat };
