// A very small DOM for the node tests: just what boards/duelo.js's renderers
// use (elements, text, attributes, classes, click listeners, and selectors of
// the forms `tag`, `.class`, `[attr="value"]`, combined, with descendants).
"use strict";

class Node {
  constructor(doc) {
    this.ownerDocument = doc;
    this.parentNode = null;
    this.childNodes = [];
  }
  get firstChild() { return this.childNodes[0] || null; }
  appendChild(child) {
    if (child.parentNode) child.parentNode.removeChild(child);
    child.parentNode = this;
    this.childNodes.push(child);
    return child;
  }
  removeChild(child) {
    const i = this.childNodes.indexOf(child);
    if (i < 0) throw new Error("not a child");
    this.childNodes.splice(i, 1);
    child.parentNode = null;
    return child;
  }
  remove() { if (this.parentNode) this.parentNode.removeChild(this); }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(""); }
  set textContent(value) {
    this.childNodes.forEach((c) => { c.parentNode = null; });
    this.childNodes = [];
    if (value !== "" && value !== null && value !== undefined) this.appendChild(new Text(this.ownerDocument, String(value)));
  }
}

class Text extends Node {
  constructor(doc, text) { super(doc); this.data = text; }
  get textContent() { return this.data; }
  set textContent(value) { this.data = String(value); }
}

class Element extends Node {
  constructor(doc, tag) {
    super(doc);
    this.tagName = tag.toUpperCase();
    this.attributes = {};
    this.listeners = {};
    this.scrollTop = 0;
    this.dataset = {};
    const el = this;
    this.classList = {
      contains: (c) => el.className.split(/\s+/).includes(c),
      add: (c) => { if (!el.classList.contains(c)) el.className = (el.className + " " + c).trim(); },
      remove: (c) => { el.className = el.className.split(/\s+/).filter((x) => x && x !== c).join(" "); },
      toggle: (c, on) => {
        const want = on === undefined ? !el.classList.contains(c) : !!on;
        if (want) el.classList.add(c); else el.classList.remove(c);
        return want;
      },
    };
  }
  get className() { return this.attributes.class || ""; }
  set className(v) { this.attributes.class = String(v); }
  get hidden() { return "hidden" in this.attributes; }
  set hidden(v) { if (v) this.attributes.hidden = ""; else delete this.attributes.hidden; }
  get disabled() { return "disabled" in this.attributes; }
  set disabled(v) { if (v) this.attributes.disabled = ""; else delete this.attributes.disabled; }
  get children() { return this.childNodes.filter((c) => c instanceof Element); }
  get lastElementChild() { const c = this.children; return c[c.length - 1] || null; }
  get scrollHeight() { return 1000; }
  setAttribute(name, value) { this.attributes[name] = String(value); }
  getAttribute(name) { return name in this.attributes ? this.attributes[name] : null; }
  hasAttribute(name) { return name in this.attributes; }
  addEventListener(type, fn) { (this.listeners[type] = this.listeners[type] || []).push(fn); }
  click() {
    if (this.disabled) return;
    (this.listeners.click || []).forEach((fn) => fn({ target: this }));
  }
  descendants() {
    const out = [];
    const walk = (n) => n.children.forEach((c) => { out.push(c); walk(c); });
    walk(this);
    return out;
  }
  querySelectorAll(selector) {
    const parts = selector.trim().split(/\s+/).map(parseCompound);
    return this.descendants().filter((el) => matchesChain(el, parts, this));
  }
  querySelector(selector) { return this.querySelectorAll(selector)[0] || null; }
}

function parseCompound(text) {
  const spec = { tag: null, classes: [], attrs: [] };
  const re = /^([a-zA-Z][\w-]*)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/g;
  let m;
  let consumed = 0;
  while ((m = re.exec(text))) {
    if (m.index !== consumed) break;
    consumed += m[0].length;
    if (m[1]) spec.tag = m[1].toUpperCase();
    else if (m[2]) spec.classes.push(m[2]);
    else spec.attrs.push([m[3], m[4]]);
    re.lastIndex = consumed;
  }
  if (consumed !== text.length) throw new Error("minidom cannot parse selector part " + text);
  return spec;
}

function matches(el, spec) {
  if (spec.tag && el.tagName !== spec.tag) return false;
  if (!spec.classes.every((c) => el.classList.contains(c))) return false;
  return spec.attrs.every(([name, value]) => el.hasAttribute(name) && (value === undefined || el.getAttribute(name) === value));
}

function matchesChain(el, parts, scope) {
  if (!matches(el, parts[parts.length - 1])) return false;
  let rest = parts.length - 2;
  let node = el.parentNode;
  while (rest >= 0 && node && node !== scope) {
    if (node instanceof Element && matches(node, parts[rest])) rest -= 1;
    node = node.parentNode;
  }
  return rest < 0;
}

class Document {
  createElement(tag) { return new Element(this, tag); }
  createTextNode(text) { return new Text(this, text); }
}

/** A document holding a board skeleton like templates/gameplay/_board.html. */
function boardSkeleton() {
  const doc = new Document();
  const root = doc.createElement("section");
  root.className = "kfa-board";
  for (const role of ["round", "delay", "opponents", "center", "sight", "you", "prompt", "log", "card-reference"]) {
    const el = doc.createElement(role === "log" ? "ol" : "div");
    el.setAttribute("data-role", role);
    root.appendChild(el);
  }
  return { doc, root };
}

export { Document, Element, boardSkeleton };
