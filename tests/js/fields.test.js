// static/scoring/fields.js: the fields' store, the outbox kept in step with it, and what it says
// on the pad's root for the other modules.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Phase } from "../../static/scoring/field-state.js";
import { createFields, showEnds } from "../../static/scoring/fields.js";
import { kept, Outbox } from "../../static/scoring/store.js";
import { MemoryStorage } from "./memory-storage.js";

// (Node 18, Debian's, has no CustomEvent of its own; browsers and Node 20 have one.)
globalThis.CustomEvent ??= class extends Event {
  constructor(type, init) {
    super(type, init);
    this.detail = init?.detail;
  }
};

// A pad of text fields (each at version 3, or as ``versions`` says), and what its root heard.
function pad(names, { versions = {}, entered = {} } = {}) {
  const root = new EventTarget();
  const inputs = names.map((name) => ({
    name,
    type: "text",
    value: "",
    dataset: { version: String(versions[name] ?? 3) },
    getAttribute: (attribute) => (attribute === "aria-label" ? `Farms, ${name}` : null),
  }));
  root.querySelectorAll = () => inputs;
  const heard = [];
  root.addEventListener("pad:field", ({ detail }) => heard.push(["field", detail.name, detail.after.phase]));
  root.addEventListener("pad:due", ({ detail }) => heard.push(["due", detail.name, detail.sent]));
  const storage = new MemoryStorage();
  const here = kept(storage, "olivia", "g1", "here");
  here.write(entered, false);
  const outbox = new Outbox(storage, "olivia", "g1");
  return { fields: createFields(root, { outbox, here }), heard, outbox, here, inputs };
}

test("a field starts idle at the version its page shows, entered here when this phone stored it", () => {
  const { fields } = pad(["s1-farms", "s2-farms"], {
    versions: { "s2-farms": 5 },
    entered: { "s2-farms": 5 },
  });
  assert.equal(fields.state("s1-farms").phase, Phase.IDLE);
  assert.equal(fields.state("s1-farms").here, false);
  assert.equal(fields.state("s2-farms").base, 5);
  assert.equal(fields.state("s2-farms").here, true);
});

test("a change is kept in the outbox and said at once; the save it makes due, after", async () => {
  const { fields, heard, outbox } = pad(["s1-farms"]);
  fields.update("s1-farms", "typed", "7");
  assert.equal(outbox.get("s1-farms").value, "7");
  assert.equal(outbox.get("s1-farms").typing, true);
  assert.equal(outbox.get("s1-farms").label, "Farms, s1-farms");
  const after = fields.update("s1-farms", "left", { complete: true });
  assert.equal(after.phase, Phase.WAITING);
  assert.equal(fields.state("s1-farms"), after); // (no save ran inside the update: its state is the field's)
  assert.equal(outbox.get("s1-farms").typing, false);
  assert.deepEqual(heard, [
    ["field", "s1-farms", "typing"],
    ["field", "s1-farms", "waiting"],
  ]);
  await Promise.resolve(); // (once the code that asked for the update has run)
  assert.deepEqual(heard.at(-1), ["due", "s1-farms", { text: "7" }]);
  fields.update("s1-farms", "sending", { text: "7" });
  fields.update("s1-farms", "saved", { version: 4 });
  assert.equal(outbox.get("s1-farms"), null); // (the server has it)
});

test("a save made due is not said when the field moved on before it was (typed again)", async () => {
  const { fields, heard } = pad(["s1-farms"]);
  fields.update("s1-farms", "typed", "7");
  fields.update("s1-farms", "left", { complete: true });
  fields.update("s1-farms", "typed", "72");
  await Promise.resolve();
  assert.deepEqual(
    heard.filter(([kind]) => kind === "due"),
    [],
  );
});

test("a page that can save nothing more stops every field once, and sends nothing more", () => {
  const { fields, heard, outbox, inputs } = pad(["s1-farms", "s2-farms"]);
  fields.update("s1-farms", "typed", "7");
  assert.equal(fields.stop("gone"), true);
  assert.equal(fields.stop("session"), false);
  assert.equal(fields.stopped(), "gone");
  assert.equal(fields.state("s1-farms").phase, Phase.STOPPED);
  assert.equal(fields.state("s2-farms").phase, Phase.IDLE); // (nothing waited there)
  heard.length = 0;
  inputs[1].value = "1"; // (a stepper's tap: the number it makes is on screen)
  fields.update("s2-farms", "stepped", 1, "1");
  assert.equal(fields.state("s2-farms").phase, Phase.STOPPED);
  assert.deepEqual(heard, [["field", "s2-farms", "stopped"]]);
  assert.equal(outbox.get("s2-farms").value, "1"); // (kept: shown apart once the page reloads)
});

test("Next lands on a field another phone has not entered: empty, at its start, or entered here", () => {
  const { fields, inputs, here } = pad(["s1-farms", "s2-farms"], { versions: { "s1-farms": 0 } });
  const [start, other] = inputs;
  start.value = "2";
  other.value = "4";
  assert.equal(fields.isFree(start), true); // (version 0: the game filled it in at its start)
  assert.equal(fields.isFree(other), false);
  fields.update("s2-farms", "typed", "5");
  fields.update("s2-farms", "left", { complete: true });
  fields.update("s2-farms", "sending", { text: "5" });
  fields.update("s2-farms", "saved", { version: 4 });
  fields.enteredHere("s2-farms", 4);
  assert.equal(fields.isFree(other), true);
  assert.deepEqual(here.read({}), { "s2-farms": 4 });
});

test("every field comes in the page's order, with its state", () => {
  const { fields, inputs } = pad(["s1-farms", "s2-farms"]);
  fields.update("s2-farms", "typed", "1");
  assert.deepEqual(
    fields
      .all()
      .map(({ name, el, state }) => [name, el === inputs[name === "s1-farms" ? 0 : 1], state.phase]),
    [
      ["s1-farms", true, "idle"],
      ["s2-farms", true, "typing"],
    ],
  );
});

// A text field as the browser lays it out: ``text`` px of what it holds in ``width`` px, on a
// page (``layouts``) that counts how often a width was read after a change (each a layout).
function laidOut(text, width, layouts) {
  let scrollLeft = 0;
  const attributes = new Set();
  const read = (value) => {
    if (layouts.dirty) layouts.count += 1;
    layouts.dirty = false;
    return value;
  };
  return {
    type: "text",
    get scrollWidth() {
      return read(text);
    },
    get clientWidth() {
      return read(width);
    },
    get scrollLeft() {
      return scrollLeft;
    },
    set scrollLeft(value) {
      scrollLeft = Math.max(0, Math.min(value, text - width));
    },
    toggleAttribute(name, on) {
      if (on) attributes.add(name);
      else attributes.delete(name);
      layouts.dirty = true; // (data-clipped: a style change)
    },
    hasAttribute: (name) => attributes.has(name),
  };
}

test("showEnds shows the end of each field too long for its column, marked clipped, the others not", () => {
  globalThis.document = { activeElement: null };
  const layouts = { count: 0, dirty: false };
  const [long, short] = [laidOut(180, 60, layouts), laidOut(40, 60, layouts)];
  showEnds([long, short]);
  assert.equal(long.scrollLeft, 120);
  assert.ok(long.hasAttribute("data-clipped"));
  assert.equal(short.scrollLeft, 0);
  assert.ok(!short.hasAttribute("data-clipped"));
});

test("showEnds lays the page out once for all its fields, not once a field", () => {
  globalThis.document = { activeElement: null };
  const layouts = { count: 0, dirty: false };
  const fields = Array.from({ length: 40 }, (_, index) => laidOut(index % 2 ? 180 : 40, 60, layouts));
  showEnds(fields);
  assert.equal(layouts.count, 0); // (every width read before the first change)
  showEnds(fields);
  assert.equal(layouts.count, 1);
});

test("showEnds leaves the field being typed in as the player has it", () => {
  const layouts = { count: 0, dirty: false };
  const typing = laidOut(180, 60, layouts);
  globalThis.document = { activeElement: typing };
  showEnds([typing]);
  assert.equal(typing.scrollLeft, 0);
  assert.ok(!typing.hasAttribute("data-clipped"));
});
