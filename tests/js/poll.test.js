// static/scoring/poll.js: a page's poll, sent with the ETag of what the page shows until an
// answer brings a newer one, held while the page is hidden.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, fakePage } from "./fake-page.js";

const { followPoll } = await import("../../static/scoring/poll.js");

// A page polling #standings: the headers of its next poll (null when held), and an answer.
function polling(options) {
  const standings = new FakeElement("section", { id: "standings" });
  const { document } = fakePage({ standings });
  globalThis.htmx = { trigger: () => {} };
  followPoll("standings", options);
  const nextPoll = () => {
    const detail = { elt: standings, headers: {}, parameters: {} };
    const asked = Object.assign(new Event("htmx:configRequest", { cancelable: true }), { detail });
    document.dispatchEvent(asked);
    return asked.defaultPrevented ? null : detail.headers;
  };
  const answered = (status, etag) => {
    const xhr = { status, getResponseHeader: (name) => (name === "ETag" ? etag : null) };
    const detail = { elt: standings, xhr };
    document.dispatchEvent(Object.assign(new Event("htmx:afterRequest"), { detail }));
  };
  return { document, nextPoll, answered };
}

test("the first poll asks from what the page shows, then from what the last answer brought", () => {
  const { nextPoll, answered } = polling({ shown: '"rev-4"' });
  assert.deepEqual(nextPoll(), { "If-None-Match": '"rev-4"' });
  answered(304, null);
  assert.deepEqual(nextPoll(), { "If-None-Match": '"rev-4"' });
  answered(200, '"rev-5"');
  assert.deepEqual(nextPoll(), { "If-None-Match": '"rev-5"' });
});

test("a page that does not say what it shows asks for the whole of it first", () => {
  const { nextPoll, answered } = polling();
  assert.deepEqual(nextPoll(), {});
  answered(200, '"rev-2"');
  assert.deepEqual(nextPoll(), { "If-None-Match": '"rev-2"' });
});

test("a hidden page holds its poll", () => {
  const { document, nextPoll } = polling({ shown: '"rev-4"' });
  document.visibilityState = "hidden";
  assert.equal(nextPoll(), null);
});
