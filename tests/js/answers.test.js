// static/scoring/answers.js: another phone's value comes to a field (here through a status, as
// the offline copy's replay brings one), at once when the player is elsewhere, and when they
// leave the field when they are in it; never over what they typed there meanwhile.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createAnswers } from "../../static/scoring/answers.js";
import { createFields } from "../../static/scoring/fields.js";
import { kept, Outbox } from "../../static/scoring/store.js";
import { MemoryStorage } from "./memory-storage.js";

// (Node 18, Debian's, has no CustomEvent of its own; browsers and Node 20 have one.)
globalThis.CustomEvent ??= class extends Event {
  constructor(type, init) {
    super(type, init);
    this.detail = init?.detail;
  }
};

// A pad of one text field at version 3, empty; the document knows which element has the focus.
function pad() {
  globalThis.document = { activeElement: null, getElementById: () => null };
  const root = new EventTarget();
  const input = {
    name: "s1-farms",
    type: "text",
    value: "",
    dataset: { version: "3" },
    getAttribute: () => "Farms, Alice",
    toggleAttribute: () => false,
    closest: () => null,
  };
  root.querySelectorAll = () => [input];
  const storage = new MemoryStorage();
  const fields = createFields(root, {
    outbox: new Outbox(storage, "olivia", "g1"),
    here: kept(storage, "olivia", "g1", "here"),
  });
  const answers = createAnswers(root, null, fields);
  // Another phone stored ``stored`` at ``version`` (the status a save's answer or a poll brings).
  const arrives = (version, stored) =>
    answers.statusArrived({ id: "status-s1-farms", dataset: { version: String(version), stored } });
  // The player leaves the field (the focus moves on, then the page hears of it).
  const leave = async () => {
    document.activeElement = null;
    const left = new Event("focusout");
    Object.defineProperty(left, "target", { value: input });
    root.dispatchEvent(left);
    await new Promise((done) => setTimeout(done));
  };
  return { input, fields, arrives, leave };
}

test("a value for a field the player is not in is shown at once, at its version", () => {
  const { input, arrives } = pad();
  arrives(4, "12");
  assert.equal(input.value, "12");
  assert.equal(input.dataset.version, "4");
});

test("a value for the field in focus waits for the player to leave it, the newest one", async () => {
  const { input, fields, arrives, leave } = pad();
  document.activeElement = input;
  arrives(4, "12");
  arrives(5, "15");
  assert.equal(input.value, ""); // (never changed under the player's fingers)
  await leave();
  assert.equal(input.value, "15");
  assert.equal(fields.state("s1-farms").base, 5);
});

test("a value held for the field in focus never covers what the player typed there", async () => {
  const { input, fields, arrives, leave } = pad();
  document.activeElement = input;
  arrives(4, "12");
  input.value = "7";
  fields.update("s1-farms", "typed", "7");
  await leave();
  assert.equal(input.value, "7"); // (their save meets version 4: a conflict, for them to settle)
  assert.equal(fields.state("s1-farms").base, 3);
});
