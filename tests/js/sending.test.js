// static/scoring/sending.js: each save the fields make due, posted once with what makes it safe
// to send again (the version the page saw, the page's id, a rising number), and what its answer
// does to the field, the banner and the page.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { Phase } from "../../static/scoring/field-state.js";
import { createFields } from "../../static/scoring/fields.js";
import { setUpSending } from "../../static/scoring/sending.js";
import { kept, Outbox } from "../../static/scoring/store.js";
import { FakeElement, fakeBanner, fakePage, msg, textField } from "./fake-page.js";
import { MemoryStorage } from "./memory-storage.js";

const pads = [];
afterEach(() => {
  for (const fields of pads.splice(0)) fields.cancel("s1-farms"); // (no save sent again after its test)
});

const PAGE = { tag: "olivia", during: "track", finished: "", player: "1", saveUrl: "/games/g1/save/" };

// A pad of one field (version 3) whose saves the server answers with ``answers`` in turn:
// { status, headers, text } or "network" (no answer); what was posted is kept.
function pad(...answers) {
  fakePage();
  const input = textField("s1-farms");
  const csrf = new FakeElement("input", { value: "the-token" });
  const root = new FakeElement("div")
    .find("[data-field]", [input])
    .find("input[name=csrfmiddlewaretoken]", csrf);
  const storage = new MemoryStorage();
  const outbox = new Outbox(storage, "olivia", "g1");
  const fields = createFields(root, { outbox, here: kept(storage, "olivia", "g1", "here") });
  pads.push(fields);
  const posted = [];
  let statusStored; // what the field's status in the next answer says is stored ({ stored, version })
  const answered = [];
  globalThis.fetch = async (url, { body, headers }) => {
    posted.push({ url, ...Object.fromEntries(body), csrf: headers["X-CSRFToken"] });
    const answer = answers.shift();
    if (answer === "network") throw new TypeError("Failed to fetch");
    return new Response(answer.text ?? "", { status: answer.status, headers: answer.headers ?? {} });
  };
  const live = {
    changesShown: () => false,
    saveAnswered(text, revision, etag) {
      answered.push({ text, revision, etag });
      const { stored, version } = statusStored ?? {};
      return version === undefined ? null : { dataset: { stored, version: String(version) } };
    },
  };
  const stopping = {
    calls: [],
    page: () => PAGE,
    outdated(why, _headers, said) {
      this.calls.push(["outdated", why, said]);
    },
    refused(kind, text) {
      this.calls.push(["refused", kind, text]);
    },
  };
  const banner = fakeBanner();
  setUpSending(root, PAGE, { msg, fields, live, stopping, banner });
  // The player types ``text`` and leaves the field; resolves once its answer has been taken.
  const typeAndLeave = async (text, status) => {
    statusStored = status;
    input.value = text;
    fields.update("s1-farms", "typed", text);
    fields.update("s1-farms", "left", { complete: true });
    for (let turn = 0; turn < 10; turn += 1) await new Promise((done) => setTimeout(done));
  };
  return { fields, outbox, posted, answered, stopping, banner, typeAndLeave, input };
}

test("a value left is posted once: the version its page saw, the page id, a rising number", async () => {
  const saved = { status: 200, headers: { "X-Pad-Revision": "8", ETag: '"r8"' } };
  const { posted, typeAndLeave } = pad(saved, saved);
  await typeAndLeave("7", { stored: "7", version: 4 });
  await typeAndLeave("9", { stored: "9", version: 5 });
  assert.equal(posted.length, 2);
  const [first, second] = posted;
  assert.deepEqual(
    { ...first, page: undefined },
    {
      url: "/games/g1/save/",
      field: "s1-farms",
      value: "7",
      version: "3",
      seq: "1",
      session: "olivia",
      player: "1",
      csrf: "the-token",
      page: undefined,
    },
  );
  assert.match(first.page, /^[0-9a-f]{16}$/);
  assert.equal(second.page, first.page);
  assert.equal(second.seq, "2");
  assert.equal(second.version, "4"); // (the version the first save's answer said)
});

test("a saved value: the field is saved at its answer's version, as entered on this phone", async () => {
  const { fields, outbox, answered, typeAndLeave } = pad({
    status: 200,
    headers: { "X-Pad-Revision": "8", ETag: '"r8"' },
    text: "<p>the answer</p>",
  });
  await typeAndLeave("7", { stored: "7", version: 4 });
  assert.deepEqual(answered, [{ text: "<p>the answer</p>", revision: 8, etag: '"r8"' }]);
  assert.equal(fields.state("s1-farms").phase, Phase.SAVED);
  assert.equal(fields.state("s1-farms").base, 4);
  assert.equal(fields.state("s1-farms").here, true);
  assert.equal(outbox.get("s1-farms"), null);
});

test("a value another phone changed meanwhile: the field is in conflict, with what is stored", async () => {
  const { fields, typeAndLeave } = pad({ status: 409, headers: { "X-Pad-Revision": "9" } });
  await typeAndLeave("7", { stored: "12", version: 5 });
  assert.equal(fields.state("s1-farms").phase, Phase.CONFLICT);
  assert.equal(fields.state("s1-farms").theirs, "12");
});

test("no answer: the value waits on this phone to be sent again", async () => {
  const { fields, outbox, typeAndLeave } = pad("network");
  await typeAndLeave("7");
  assert.equal(fields.state("s1-farms").phase, Phase.RETRYING);
  assert.equal(fields.state("s1-farms").problem, "network");
  assert.equal(outbox.get("s1-farms").value, "7");
});

test("a server too busy: its own words go to the banner, and the value waits", async () => {
  const { fields, banner, typeAndLeave } = pad({
    status: 429,
    headers: { "Retry-After": "3", "Content-Type": "text/plain" },
    text: "Too many saves at once.",
  });
  await typeAndLeave("7");
  assert.deepEqual(banner.heardWords, [["busy", "Too many saves at once."]]);
  assert.equal(fields.state("s1-farms").phase, Phase.RETRYING);
});

test("a game that cannot be reached, or another session's answer, is the page's to stop", async () => {
  const gone = pad({ status: 404, headers: { "Content-Type": "text/plain" }, text: "The link was revoked." });
  await gone.typeAndLeave("7");
  assert.deepEqual(gone.stopping.calls, [["refused", "gone", "The link was revoked."]]);
  const other = pad({ status: 200, headers: { "X-Session-Tag": "someone-else" } });
  await other.typeAndLeave("7");
  assert.deepEqual(other.stopping.calls, [["outdated", "session", ""]]);
});
