// static/scoring/stopping.js: when the page can save nothing more, and why; a game finished on
// another phone, finished here in place.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Phase } from "../../static/scoring/field-state.js";
import { createFields } from "../../static/scoring/fields.js";
import { setUpStopping } from "../../static/scoring/stopping.js";
import { kept, Outbox } from "../../static/scoring/store.js";
import { FakeElement, fakeBanner, fakePage, heard, msg, textField } from "./fake-page.js";
import { MemoryStorage } from "./memory-storage.js";

// A pad of one field, in progress (``finished``: "" as its page says), and its stopping.
function pad({ finished = "" } = {}) {
  const note = new FakeElement("p", { hidden: true });
  const sentence = new FakeElement("span");
  note.find("[data-finished-sentence]", sentence);
  const byId = {
    "finished-note": note,
    "finish-button": new FakeElement("button"),
    "keypad-bar": new FakeElement("div"),
  };
  const page = fakePage(byId);
  const input = textField("s1-farms");
  const fieldset = new FakeElement("fieldset");
  const root = new FakeElement("div").find("[data-field]", [input]).find("fieldset.pad-fields", fieldset);
  const storage = new MemoryStorage();
  const fields = createFields(root, {
    outbox: new Outbox(storage, "olivia", "g1"),
    here: kept(storage, "olivia", "g1", "here"),
  });
  const banner = fakeBanner();
  const said = heard(root, ["pad:finished", "pad:poll-whole"]);
  const stopping = setUpStopping(root, { tag: "olivia", during: "track", finished }, { msg, fields, banner });
  return { ...page, byId, root, input, fieldset, fields, banner, said, stopping, sentence, note };
}

const headers = (entries) => new Headers(entries);

test("a game that cannot be reached stops the page once, in the server's words and what is kept", () => {
  const { fields, banner, stopping } = pad();
  fields.update("s1-farms", "typed", "7");
  stopping.refused("gone", "The link was revoked.");
  stopping.refused("gone", "The link was revoked.");
  assert.equal(fields.stopped(), "gone");
  assert.equal(fields.state("s1-farms").phase, Phase.STOPPED);
  assert.deepEqual(banner.said, [["The link was revoked. msgKept", true]]);
});

test("a refusal without the server's words says the pad's own, with its status", () => {
  const { fields, banner, stopping } = pad();
  stopping.refused("refused-418", "");
  assert.equal(fields.stopped(), "refused-418");
  assert.deepEqual(banner.said, [["msgRefused", true]]);
});

test("an answer of another session stops the page: nothing is saved for the next person", () => {
  const { fields, banner, stopping } = pad();
  stopping.outdated("session", headers({ "X-Session-Tag": "someone-else" }));
  assert.equal(fields.stopped(), "session");
  assert.deepEqual(banner.said, [["msgSession", true]]);
});

test("a game finished on another phone is finished here in place, and the page knows it", () => {
  const { root, fields, fieldset, byId, said, stopping, sentence, note } = pad();
  fields.update("s1-farms", "typed", "7");
  stopping.outdated(
    "finished",
    headers({ "X-Pad-Finished": "2026-12-06T21:14" }),
    "Finished by Bruno at 21:14.",
  );
  assert.equal(stopping.page().finished, "2026-12-06T21:14");
  assert.equal(fields.stopped(), "finished");
  assert.equal(root.dataset.finished, "2026-12-06T21:14");
  assert.equal(root.hasAttribute("data-readonly"), true);
  assert.equal(fieldset.disabled, true);
  assert.equal(byId["finish-button"].hidden, true);
  assert.equal(byId["keypad-bar"].hidden, true);
  assert.equal(note.hidden, false);
  assert.equal(sentence.textContent, "Finished by Bruno at 21:14.");
  assert.deepEqual(
    said.map(([type]) => type),
    ["pad:finished", "pad:poll-whole"],
  );
});

test("the page as it said of itself is left as it was: page() says what it is now", () => {
  const { stopping } = pad();
  const before = stopping.page();
  stopping.outdated("finished", headers({ "X-Pad-Finished": "2026-12-06T21:14" }));
  assert.equal(before.finished, "");
  assert.equal(stopping.page().tag, "olivia");
});

// (Last: a reload marks the page as going, for the rest of this file's tests.)
test("another way of counting stops the page and reloads it once the player leaves the field", async () => {
  const { document, window, input, fields, banner, stopping } = pad();
  input.focus();
  stopping.outdated("during", headers({ "X-Pad-During": "breakdown" }));
  assert.equal(fields.stopped(), "during");
  assert.deepEqual(banner.said, [["msgDuring", true]]);
  assert.equal(window.reloads, 0); // (never under the player's fingers)
  document.activeElement = null;
  input.dispatchEvent(new Event("blur"));
  await new Promise((done) => setTimeout(done));
  assert.equal(window.reloads, 1);
});
