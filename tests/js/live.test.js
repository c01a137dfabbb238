// static/scoring/live.js: what the server sends the pad, followed: the poll's answers (swapped
// when newer than the figures shown, kept for the offline copy), a save's answer (the poll goes on
// from it), the poll held while the page can save nothing more; each answer applied said on the
// pad's root ("pad:answered").
import assert from "node:assert/strict";
import { test } from "node:test";

import { createFields } from "../../static/scoring/fields.js";
import { kept, Outbox } from "../../static/scoring/store.js";
import { FakeElement, fakeBanner, fakePage, heard, msg, textField } from "./fake-page.js";
import { MemoryStorage } from "./memory-storage.js";

// live.js reads whether the page is an offline copy (offline.js, which looks at the page as it
// loads): a page, then the module.
fakePage();
globalThis.navigator ??= {};
window.localStorage = new MemoryStorage();
const { setUpLive } = await import("../../static/scoring/live.js");

const PAGE = { tag: "olivia", game: "g1", view: "all", during: "track", finished: "" };

// A pad at revision 8, its poll's ETag '"r8"', and htmx as live.js uses it.
function pad({ storage = new MemoryStorage(), revision = "8" } = {}) {
  const live = new FakeElement("div", { id: "live" });
  const { document } = fakePage({ live });
  globalThis.localStorage = storage;
  const swapped = [];
  const triggered = [];
  globalThis.htmx = {
    swap: (_target, html) => swapped.push(html),
    trigger: (selector, event) => triggered.push([selector, event]),
  };
  const root = new FakeElement("div").find("[data-field]", [textField("s1-farms")]);
  Object.assign(root.dataset, { revision, pollEtag: '"r8"' });
  const fields = createFields(root, {
    outbox: new Outbox(storage, "olivia", "g1"),
    here: kept(storage, "olivia", "g1", "here"),
  });
  const stopping = { calls: [], page: () => PAGE, gone: (text) => stopping.calls.push(["gone", text]) };
  stopping.outdated = (why) => stopping.calls.push(["outdated", why]);
  const said = heard(root, ["pad:answered"]);
  const following = setUpLive(root, PAGE, { msg, fields, stopping, banner: fakeBanner() });
  // htmx asks whether to swap a poll's answer (status, headers; ``xhr``: a request of its own,
  // an undo's): whether it may.
  const pollAnswers = (status, headers = {}, text = "<p>the game</p>", xhr = {}) => {
    const detail = {
      target: live,
      shouldSwap: true,
      requestConfig: { elt: live },
      xhr: Object.assign(xhr, {
        status,
        responseText: text,
        getResponseHeader: (name) => headers[name] ?? null,
      }),
    };
    document.dispatchEvent(Object.assign(new Event("htmx:beforeSwap"), { detail }));
    if (detail.shouldSwap) document.dispatchEvent(Object.assign(new Event("htmx:afterSwap"), { detail }));
    return detail.shouldSwap;
  };
  // The owner taps Undo (htmx posts the form): its request, answered later by ``pollAnswers``.
  const undoSent = () => {
    const form = new FakeElement("form").find("matches form[data-undo]", true);
    const xhr = {};
    document.dispatchEvent(Object.assign(new Event("htmx:beforeRequest"), { detail: { elt: form, xhr } }));
    return xhr;
  };
  // htmx is about to poll: the headers it sends, or null when the poll is held.
  const nextPoll = () => {
    const detail = { elt: live, headers: {}, parameters: {} };
    const asked = Object.assign(new Event("htmx:configRequest", { cancelable: true }), { detail });
    document.dispatchEvent(asked);
    return asked.defaultPrevented ? null : detail.headers;
  };
  return {
    root,
    fields,
    stopping,
    said,
    following,
    pollAnswers,
    nextPoll,
    undoSent,
    swapped,
    triggered,
    storage,
  };
}

test("the first poll asks with the page's own ETag: nothing new is a 304 with no body", () => {
  const { nextPoll } = pad();
  assert.deepEqual(nextPoll(), { "If-None-Match": '"r8"' });
});

test("a poll's answer newer than the figures shown is swapped, said applied, and polled on from", () => {
  const { root, said, pollAnswers, nextPoll } = pad();
  assert.equal(pollAnswers(200, { "X-Pad-Revision": "9", ETag: '"r9"' }), true);
  assert.equal(root.dataset.revision, "9");
  assert.deepEqual(said, [["pad:answered", null]]);
  assert.deepEqual(nextPoll(), { "If-None-Match": '"r9"' });
});

test("a poll's answer older than the figures shown, or found unchanged, is not swapped", () => {
  const { root, said, pollAnswers } = pad();
  assert.equal(pollAnswers(200, { "X-Pad-Revision": "7" }), false);
  assert.equal(pollAnswers(304), false);
  assert.equal(root.dataset.revision, "8");
  assert.deepEqual(said, []);
});

test("a poll that finds the game gone, or the page out of date, is the page's to stop", () => {
  const { stopping, pollAnswers } = pad();
  pollAnswers(404, {}, "This game was deleted.");
  pollAnswers(200, { "X-Session-Tag": "someone-else" });
  assert.deepEqual(stopping.calls, [
    ["gone", "This game was deleted."],
    ["outdated", "session"],
  ]);
});

test("the poll waits while the page can save nothing more, and follows a finished game still", () => {
  const gone = pad();
  gone.fields.stop("gone");
  assert.equal(gone.nextPoll(), null);
  const finished = pad();
  finished.fields.stop("finished");
  assert.notEqual(finished.nextPoll(), null);
});

test("after this phone's save, the poll goes on from its answer when no other write came between", () => {
  const { following, said, nextPoll } = pad();
  following.saveAnswered("<p>saved</p>", 9, '"r9"');
  assert.deepEqual(said, [["pad:answered", null]]);
  assert.deepEqual(nextPoll(), { "If-None-Match": '"r9"' });
  following.saveAnswered("<p>saved</p>", 11, '"r11"'); // (another phone's write was revision 10)
  assert.deepEqual(nextPoll(), { "If-None-Match": '"r9"' });
});

test("a page drawn before this phone's last answers shows them again, and says so", () => {
  const storage = new MemoryStorage();
  pad({ storage }).pollAnswers(200, { "X-Pad-Revision": "9", ETag: '"r9"' }, "<p>revision 9</p>");
  const again = pad({ storage, revision: "8" }); // (the page the server drew a moment before)
  const at = again.following.replay(0);
  assert.equal(typeof at, "number");
  assert.equal(again.root.dataset.revision, "9");
  assert.deepEqual(again.swapped, ["<p>revision 9</p>"]);
  assert.deepEqual(again.said, [["pad:answered", null]]);
  assert.equal(pad({ storage, revision: "9" }).following.replay(0), null); // (nothing newer than it)
});

test("while an undo is on its way, no poll's answer is swapped; the undo's is, its refusal (409) too", () => {
  // (a poll's swap of the recent changes would take the undo's form, and with it the page its
  // answer is swapped within, out of the page: issue 49)
  const { pollAnswers, undoSent } = pad();
  const undo = undoSent();
  assert.equal(pollAnswers(200, { "X-Pad-Revision": "9" }), false);
  assert.equal(pollAnswers(409, { "X-Pad-Revision": "9" }, "<p>changed again since</p>", undo), true);
  assert.equal(pollAnswers(200, { "X-Pad-Revision": "9" }), true); // (answered: the polls are swapped again)
  assert.equal(pollAnswers(409, { "X-Pad-Revision": "9" }), false); // (a poll's 409 is no answer)
});
