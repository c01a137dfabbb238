// first-paint.js, run as the page runs it (a classic script) over a pad of three fields: it puts
// back the values that store.js's Outbox kept for this session and game, before any module runs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runInNewContext } from "node:vm";

import { Outbox } from "../../static/scoring/store.js";
import { MemoryStorage } from "./memory-storage.js";

const SCRIPT = readFileSync(new URL("../../static/scoring/first-paint.js", import.meta.url), "utf8");

function pad({ tag = "t1", readonly = false } = {}) {
  const fields = [
    { name: "s1-farms", type: "text", value: "", dataset: {} },
    { name: "s2-recruits", type: "text", value: "3", dataset: {} },
    { name: "s1-hive_mat_full", type: "checkbox", checked: false, dataset: {} },
  ];
  const root = {
    dataset: { game: "g1", ...(readonly ? { readonly: "" } : {}) },
    querySelector: (selector) => fields.find((field) => selector.includes(`name="${field.name}"`)) ?? null,
  };
  const document = { querySelector: () => root, body: { dataset: { sessionTag: tag } } };
  return { fields, document };
}

function run(document, storage) {
  runInNewContext(SCRIPT, { document, localStorage: storage, CSS: { escape: (text) => text } });
}

test("the values the outbox keeps are in their fields before the pad's modules run", () => {
  const storage = new MemoryStorage();
  const outbox = new Outbox(storage, "t1", "g1");
  outbox.put("s1-farms", { value: "7+2", base: 0, typing: true });
  outbox.put("s1-hive_mat_full", { value: "1", base: 0 });
  const { fields, document } = pad();

  run(document, storage);

  assert.deepEqual(
    fields.map((field) => field.value ?? field.checked),
    ["7+2", "3", true],
  );
  assert.deepEqual(
    fields.map((field) => "kept" in field.dataset),
    [true, false, true],
  ); // (pad.js does not take them for values typed before it ran)
});

test("another session's values, a value set apart and a finished pad are left alone", () => {
  const storage = new MemoryStorage();
  new Outbox(storage, "t0", "g1").put("s1-farms", { value: "9", base: 0 }); // (the last person's)
  const mine = new Outbox(storage, "t1", "g1");
  mine.put("s2-recruits", { value: "5", base: 0 });
  mine.setApart("s2-recruits", "field");
  const open = pad();
  run(open.document, storage);
  assert.deepEqual(
    open.fields.map((field) => field.value ?? field.checked),
    ["", "3", false],
  );

  new Outbox(storage, "t1", "g1").put("s1-farms", { value: "4", base: 0 });
  const finished = pad({ readonly: true });
  run(finished.document, storage);
  assert.equal(finished.fields[0].value, "");
});
