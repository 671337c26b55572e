/*
 * The screen-reader mode of the live table (lichess's blind mode is the
 * model), the same for every game: the table in words (the game's board
 * module's describeBoard), whose turn it is, the clocks, and the legal actions
 * as native buttons (or a list box and a button when there are many), with the
 * changes announced through a polite live region. live-match.js draws it
 * beside the board when the mode is on (the "Screen-reader mode" button; the
 * choice is kept in localStorage), and hides the drawn table and its prompt.
 *
 * srModel is pure (node's tests call it); renderScreenReader draws it.
 */

import { clear, h, namedSeats } from "./boards/common.js";
import { t } from "./i18n.js";

const STORAGE_KEY = "kfa-sr-mode";
/** More actions of one kind than this are a list box and a button. */
const MAX_BUTTONS = 8;

/** "attack" -> "Attack", "dice_done" -> "Dice done". */
function kindTitle(type) {
  const words = String(type || "other").replace(/[_:]+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What the screen-reader panel says for a frame. model: the game's boardModel;
 * B: the game's board module. Legal actions are offered only when the model
 * says it is the viewer's move (their labels name people, not seat numbers).
 */
function srModel(frame, model, B) {
  const ctx = { names: model.names || [], viewer: model.viewer };
  // The board words each action in the reader's language (the engines' labels
  // are English); a board without actionText shows the engine's label.
  const words = function (a) { return B.actionText ? B.actionText(a, ctx) : namedSeats(ctx, a.label || a.id); };
  const legal = model.myTurn && frame.status === "active" ? frame.legal || [] : [];
  const groups = [];
  const byType = {};
  legal.forEach(function (a) {
    const type = a.type || String(a.id).split(":")[0];
    if (!byType[type]) {
      // The board's own (translated) title for the kind of choice, else its name.
      const title = (B.GROUP_TITLES && B.GROUP_TITLES[type]) || kindTitle(type);
      byType[type] = { type: type, title: title, actions: [] };
      groups.push(byType[type]);
    }
    byType[type].actions.push({ id: a.id, label: words(a) });
  });
  (model.retract || []).forEach(function (a) {
    if (!byType.retract) {
      byType.retract = { type: "retract", title: t("Take back"), actions: [] };
      groups.push(byType.retract);
    }
    byType.retract.actions.push({ id: a.id, label: a.text || words(a) });
  });
  const clocks = (model.seats || []).filter(function (s) { return s.clockText; }).map(function (s) {
    return { seat: s.seat, name: s.isYou ? t("%(name)s (you)", { name: s.name }) : s.name, text: s.clockText, running: !!s.clockRunning };
  });
  return {
    status: model.statusLine || "",
    myTurn: !!model.myTurn,
    board: B.describeBoard ? B.describeBoard(model) : [],
    clocks: clocks,
    groups: groups,
  };
}

function clockText(clock) {
  const params = { name: clock.name, time: clock.text };
  return clock.running ? t("%(name)s: %(time)s, running", params) : t("%(name)s: %(time)s", params);
}

/** The clocks as one sentence (the "c" key reads it). */
function clocksSentence(srm) {
  if (!srm.clocks.length) return t("No clocks at this table.");
  return t("Clocks: %(clocks)s.", { clocks: srm.clocks.map(clockText).join("; ") });
}

/** A list's items, one line each (the table in words; the replay's step too). */
function renderLines(list, lines) {
  const doc = list.ownerDocument;
  clear(list);
  (lines || []).forEach(function (line) { list.appendChild(h(doc, "li", { text: line })); });
  return list;
}

function actionControls(doc, group, onAct, disabled) {
  if (group.actions.length <= MAX_BUTTONS) {
    return group.actions.map(function (a) {
      return h(doc, "button", {
        type: "button", className: "secondary small sr-action", "data-action": a.id, disabled: disabled,
        text: a.label, onclick: function () { onAct(a.id); },
      });
    });
  }
  const id = "sr-select-" + group.type.replace(/[^A-Za-z0-9_-]/g, "-");
  const select = h(doc, "select", { id: id, "data-group": group.type, disabled: disabled },
    group.actions.map(function (a) { return h(doc, "option", { value: a.id, text: a.label }); }));
  return [
    h(doc, "label", { for: id, className: "sr-select-label", text: t("Which one (%(n)s choices)", { n: group.actions.length }) }),
    select,
    h(doc, "button", {
      type: "button", className: "small sr-action", "data-action": "group:" + group.type, disabled: disabled,
      text: t("Do it: %(title)s", { title: group.title }), onclick: function () { onAct(select.value); },
    }),
  ];
}

/**
 * Draw the panel into `box` (templates/gameplay/_table.html's [data-role=sr]).
 * Redrawn only when what it says changed, and the focus stays on the same
 * action (or moves to the first one, or to the status line, when it is gone).
 */
function renderScreenReader(box, srm, opts) {
  const doc = box.ownerDocument;
  const key = JSON.stringify([srm, !!opts.pending]);
  if (box.dataset.key === key) return false;
  box.dataset.key = key;
  const active = doc.activeElement;
  const hadFocus = active && box.contains(active);
  const focusedAction = hadFocus ? active.getAttribute("data-action") : null;
  const slot = function (name) { return box.querySelector('[data-role="' + name + '"]'); };
  slot("sr-status").textContent = srm.status + (opts.pending ? " " + t("Sending your choice…") : "");
  const clocks = clear(slot("sr-clocks"));
  srm.clocks.forEach(function (c) {
    clocks.appendChild(h(doc, "li", {}, [c.name + ": ", h(doc, "span", { className: "clock sr-clock", "data-seat": c.seat, text: c.text }), c.running ? ", " + t("running") : ""]));
  });
  if (!srm.clocks.length) clocks.appendChild(h(doc, "li", { text: t("No clocks at this table.") }));
  renderLines(slot("sr-board"), srm.board);
  const actions = clear(slot("sr-actions"));
  if (!srm.groups.length) {
    actions.appendChild(h(doc, "p", { text: srm.myTurn ? t("Nothing to choose right now.") : t("No choice for you right now.") }));
  }
  srm.groups.forEach(function (group) {
    actions.appendChild(h(doc, "fieldset", { className: "sr-group", "data-group": group.type }, [
      h(doc, "legend", { text: group.title }),
    ].concat(actionControls(doc, group, opts.onAct, !!opts.pending))));
  });
  if (hadFocus) {
    const same = focusedAction ? box.querySelector('[data-action="' + focusedAction + '"]:not([disabled])') : null;
    const target = same || box.querySelector(".sr-action:not([disabled])") || slot("sr-status");
    target.focus();
  }
  return true;
}

/** Is the mode on (kept in localStorage; off when storage is unavailable)? */
function storedMode(win) {
  try {
    return win.localStorage.getItem(STORAGE_KEY) === "1";
  } catch (err) {
    return false;
  }
}

function storeMode(win, on) {
  try {
    win.localStorage.setItem(STORAGE_KEY, on ? "1" : "0");
  } catch (err) {
    // Private browsing without storage: the mode lasts for this page.
  }
}

export { srModel, clocksSentence, renderLines, renderScreenReader, storedMode, storeMode, kindTitle, MAX_BUTTONS, STORAGE_KEY };
