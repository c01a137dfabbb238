// A page as the phone side's modules read it, without a browser: elements that hold data-*,
// attributes, classes, text and children, and find what a test tells them to (``find``: a
// selector and what it finds); a document that knows its elements by id and which one has the
// focus; a window that counts its reloads. Enough for a module's unit test; the browser journeys
// (tests/browser/) prove the modules together in Chromium.

// (Node 18, Debian's, has no CustomEvent of its own; browsers and Node 20 have one.)
globalThis.CustomEvent ??= class extends Event {
  constructor(type, init) {
    super(type, init);
    this.detail = init?.detail;
  }
};

class ClassList {
  constructor() {
    this.names = new Set();
  }
  add(name) {
    this.names.add(name);
  }
  remove(name) {
    this.names.delete(name);
  }
  contains(name) {
    return this.names.has(name);
  }
  toggle(name, on = !this.names.has(name)) {
    if (on) this.names.add(name);
    else this.names.delete(name);
    return on;
  }
}

export class FakeElement extends EventTarget {
  constructor(tag = "div", properties = {}) {
    super();
    this.tagName = tag.toUpperCase();
    this.id = "";
    this.dataset = {};
    this.hidden = false;
    this.disabled = false;
    this.textContent = "";
    this.innerHTML = "";
    this.children = [];
    this.attributes = new Map();
    this.classList = new ClassList();
    this.found = new Map();
    Object.assign(this, properties);
  }

  // What querySelector(All) and closest find for ``selector`` (an element, or a list of them).
  find(selector, found) {
    this.found.set(selector, found);
    return this;
  }

  querySelector(selector) {
    const found = this.found.get(selector);
    return (Array.isArray(found) ? found[0] : found) ?? null;
  }

  querySelectorAll(selector) {
    const found = this.found.get(selector);
    if (Array.isArray(found)) return found;
    return found ? [found] : [];
  }

  closest(selector) {
    return this.found.get(`closest ${selector}`) ?? null;
  }

  matches(selector) {
    return this.found.get(`matches ${selector}`) === true;
  }

  contains(other) {
    return other === this || [...this.found.values()].flat().includes(other);
  }

  setAttribute(name, value = "") {
    this.attributes.set(name, String(value));
    if (name === "hidden") this.hidden = true;
  }

  getAttribute(name) {
    return this.attributes.get(name) ?? null;
  }

  hasAttribute(name) {
    return this.attributes.has(name);
  }

  removeAttribute(name) {
    this.attributes.delete(name);
    if (name === "hidden") this.hidden = false;
  }

  toggleAttribute(name, force = !this.hasAttribute(name)) {
    if (force) this.setAttribute(name);
    else this.removeAttribute(name);
    return force;
  }

  append(...nodes) {
    this.children.push(...nodes);
  }

  replaceChildren(...nodes) {
    this.children = nodes;
  }

  remove() {
    this.removed = true;
  }

  focus() {
    document.activeElement = this;
  }
}

// A text field of the pad, as fields.js reads one (its name, version and accessible name).
export function textField(name, { version = 3, value = "", label = `Farms, ${name}` } = {}) {
  const el = new FakeElement("input", { name, type: "text", value, defaultValue: value });
  el.dataset.version = String(version);
  el.setAttribute("aria-label", label);
  el.find("matches [data-field]", true).find("matches input, select, textarea", true);
  return el;
}

// The document, with its elements by id (``byId``), and the window; both hear events.
export function fakePage(byId = {}) {
  const doc = new EventTarget();
  Object.assign(doc, {
    activeElement: null,
    visibilityState: "visible",
    body: new FakeElement("body"),
    getElementById: (id) => byId[id] ?? null,
    createElement: (tag) => new FakeElement(tag),
    querySelector: () => null,
    querySelectorAll: () => [],
  });
  const win = new EventTarget();
  win.reloads = 0;
  win.location = { reload: () => (win.reloads += 1) };
  globalThis.document = doc;
  globalThis.window = win;
  return { document: doc, window: win };
}

// Each event of ``types`` said on ``target``, in order: [type, detail].
export function heard(target, types) {
  const said = [];
  for (const type of types) target.addEventListener(type, (event) => said.push([type, event.detail ?? null]));
  return said;
}

// A banner that keeps what it is told (banner.js's interface).
export function fakeBanner() {
  return {
    said: [],
    heardWords: [],
    say(text, offerReload = false) {
      this.said.push([text, offerReload]);
    },
    clear() {
      this.said.push(["(what waits)", false]);
    },
    heard(problem, words) {
      this.heardWords.push([problem, words]);
    },
  };
}

// The pad's words: each key said back as itself (msgGone → "msgGone").
export const msg = (key) => key;
