// static/scoring/saving.js: what a save's answer means.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  meaning,
  outdated,
  pollAfterSave,
  retryDelay,
  revisionOf,
  sentence,
} from "../../static/scoring/saving.js";

const headers = (values) => ({ get: (name) => (name in values ? values[name] : null) });
const page = { tag: "olivia", during: "breakdown", finished: "" };

test("each status says what became of the value", () => {
  const said = {
    200: "saved",
    409: "conflict",
    422: "refused",
    404: "gone",
    286: "gone",
    403: "expired",
    429: "busy",
    500: "server",
    503: "server",
    400: "refused-400",
    413: "refused-413",
  };
  for (const [status, words] of Object.entries(said)) assert.equal(meaning(Number(status)), words, status);
});

test("an answer says the game's revision it shows (0 when it says none)", () => {
  assert.equal(revisionOf(headers({ "X-Pad-Revision": "12" })), 12);
  assert.equal(revisionOf(headers({})), 0);
});

test("an answer for another session, way of counting or finish says the page is out of date", () => {
  assert.equal(outdated(headers({ "X-Session-Tag": "olivia", "X-Pad-During": "breakdown" }), page), null);
  assert.equal(outdated(headers({}), page), null);
  assert.equal(outdated(headers({ "X-Session-Tag": "ben" }), page), "session");
  assert.equal(outdated(headers({ "X-Session-Tag": "" }), page), "session"); // (signed out: no session)
  assert.equal(outdated(headers({ "X-Pad-During": "track" }), page), "during");
  assert.equal(outdated(headers({ "X-Pad-Finished": "1796000000" }), page), "finished");
  // (reopened)
  assert.equal(outdated(headers({ "X-Pad-Finished": "" }), { ...page, finished: "1796000000" }), "finished");
  assert.equal(outdated(headers({ "X-Pad-Finished": "" }), page), null);
});

test("the server's own sentence is shown when it is one short plain text", () => {
  assert.equal(
    sentence({ headers: headers({ "Content-Type": "text/plain; charset=utf-8" }), text: "Revoked." }),
    "Revoked.",
  );
  assert.equal(sentence({ headers: headers({ "Content-Type": "text/html" }), text: "<p>x</p>" }), "");
  assert.equal(sentence({ headers: headers({ "Content-Type": "text/plain" }), text: "x".repeat(400) }), "");
});

test("a failed save waits what the server asked, else doubling from half a second up to 8 s", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 9].map((attempt) => retryDelay(attempt)),
    [500, 1000, 2000, 4000, 8000, 8000],
  );
  assert.equal(retryDelay(1, "5"), 5000);
  assert.equal(retryDelay(2, "not a number"), 1000);
});

test("a save that is the only write since the last poll moves the poll on; any other keeps it", () => {
  const polled = { etag: '"rev-4"', revision: 4 };
  assert.deepEqual(pollAfterSave(polled, { etag: '"rev-5"', revision: 5 }), { etag: '"rev-5"', revision: 5 });
  // (another phone wrote between)
  assert.equal(pollAfterSave(polled, { etag: '"rev-6"', revision: 6 }), polled);
  // (nothing written: a conflict, a refusal)
  assert.equal(pollAfterSave(polled, { etag: '"rev-4"', revision: 4 }), polled);
  // (an older save, answered late)
  assert.equal(pollAfterSave(polled, { etag: '"rev-3"', revision: 3 }), polled);
  assert.equal(pollAfterSave(polled, { etag: null, revision: 5 }), polled); // (an answer with no ETag)
  const never = { etag: null, revision: NaN }; // (nothing polled yet, or the whole game asked for again)
  assert.equal(pollAfterSave(never, { etag: '"rev-1"', revision: 1 }), never);
});
