// static/scoring/unsaved.js: the values the server does not have yet, beyond one page: put back
// and sent when the pad opens, followed across the tabs of one game, shown apart when they can no
// longer be saved, and a warning before the page is left with one waiting.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Phase } from "../../static/scoring/field-state.js";
import { createFields } from "../../static/scoring/fields.js";
import { kept, Outbox } from "../../static/scoring/store.js";
import { setUpUnsaved } from "../../static/scoring/unsaved.js";
import { FakeElement, fakePage, heard, textField } from "./fake-page.js";
import { MemoryStorage } from "./memory-storage.js";

const WORDS = {
  msgApart: "%(value)s in %(what)s was not saved.",
  msgApartFinished: "%(value)s in %(what)s came after the game was finished.",
  msgDismiss: "Dismiss",
};
const msg = (key) => WORDS[key] ?? key;

globalThis.CSS ??= { escape: (text) => text };
globalThis.sessionStorage = new MemoryStorage();

// A pad of two fields whose outbox (this session's, this game's) holds ``kept`` values from the
// last page: { name: { value, typing } }, in the order typed.
function pad(keptValues = {}, { readonly = false } = {}) {
  const list = new FakeElement("ul");
  const apart = new FakeElement("section", { hidden: true }).find("ul", list);
  const page = fakePage({ apart });
  const inputs = [textField("s1-farms"), textField("s2-farms")];
  const root = new FakeElement("div").find("[data-field]", inputs);
  for (const el of inputs) root.find(`[data-field][name="${el.name}"]`, el);
  const storage = new MemoryStorage();
  const outbox = new Outbox(storage, "olivia", "g1");
  let at = 0;
  for (const [name, { value, typing = false }] of Object.entries(keptValues)) {
    at += 1;
    outbox.now = () => at;
    outbox.put(name, { value, base: 3, label: `Farms, ${name}`, typing });
  }
  const fields = createFields(root, { outbox, here: kept(storage, "olivia", "g1", "here") });
  const typed = [];
  const typing = { typed: (el) => typed.push(el.name) };
  const said = heard(root, ["pad:due", "pad:poll-whole"]);
  setUpUnsaved(root, { outbox, fields, typing: readonly ? null : typing, msg, readonly });
  return { ...page, root, inputs, outbox, fields, typed, said, list, apart, storage };
}

const texts = (list) => list.children.map((item) => item.children[0].textContent);

test("the values kept from the last page are put back in their fields and sent again", async () => {
  const { inputs, fields, said } = pad({ "s2-farms": { value: "4" }, "s1-farms": { value: "7" } });
  assert.deepEqual(
    inputs.map((el) => el.value),
    ["7", "4"],
  );
  assert.equal(fields.state("s1-farms").phase, Phase.WAITING);
  await Promise.resolve();
  assert.deepEqual(
    said.map(([, detail]) => detail.name),
    ["s2-farms", "s1-farms"], // (in the order typed)
  );
});

test("a value still being typed as the page went goes on being typed, the player back in its field", () => {
  const { document, inputs, fields, typed } = pad({ "s1-farms": { value: "3+4", typing: true } });
  assert.equal(fields.state("s1-farms").phase, Phase.TYPING);
  assert.deepEqual(typed, ["s1-farms"]); // (saved after the pause, unless the player goes on)
  assert.equal(document.activeElement, inputs[0]);
  assert.equal(inputs[0].dataset.caretAtEnd, "1");
});

test("a value whose field is gone is shown apart with what it was, until the player dismisses it", () => {
  const { list, apart, outbox } = pad({ "s9-farms": { value: "12" } });
  assert.equal(apart.hidden, false);
  assert.deepEqual(texts(list), ["12 in Farms, s9-farms was not saved."]);
  const dismiss = list.children[0].children[2];
  assert.equal(dismiss.textContent, "Dismiss");
  dismiss.dispatchEvent(new Event("click"));
  assert.equal(outbox.get("s9-farms"), null);
  assert.equal(apart.hidden, true);
});

test("what waited when the game was finished on another phone is shown apart, and kept", () => {
  const { root, list, outbox } = pad({ "s1-farms": { value: "7" } });
  root.dispatchEvent(new Event("pad:finished"));
  assert.equal(outbox.get("s1-farms").apart, "finished");
  assert.deepEqual(texts(list), ["7 in Farms, s1-farms came after the game was finished."]);
});

test("a finished game's page puts nothing back: what was typed for it is shown apart", () => {
  const { inputs, list } = pad({ "s1-farms": { value: "7" } }, { readonly: true });
  assert.equal(inputs[0].value, "");
  assert.deepEqual(texts(list), ["7 in Farms, s1-farms came after the game was finished."]);
});

test("another tab of the game saved the value this one held: this one follows, and asks the game", () => {
  const { window, fields, outbox, said, storage } = pad({ "s1-farms": { value: "7" } });
  const key = [...storage.map.keys()].find((stored) => outbox.isKey(stored));
  outbox.drop("s1-farms"); // (the other tab's save was answered)
  const event = new Event("storage");
  event.key = key;
  window.dispatchEvent(event);
  assert.equal(fields.state("s1-farms").phase, Phase.IDLE);
  assert.deepEqual(said.at(-1), ["pad:poll-whole", null]);
});

test("leaving the page asks first while a value waits, and not once nothing does", () => {
  const { window, fields } = pad({ "s1-farms": { value: "7" } });
  const leave = () => {
    const event = new Event("beforeunload", { cancelable: true });
    Object.defineProperty(event, "returnValue", { writable: true, value: true }); // (a browser's may be set)
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };
  assert.equal(leave(), true);
  fields.update("s1-farms", "sending", { text: "7" });
  fields.update("s1-farms", "saved", { version: 4 });
  assert.equal(leave(), false);
});
