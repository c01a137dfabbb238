// static/scoring/store.js: what this phone keeps for one session, and nothing of another's.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { forgetOldAnswers, forgetOtherSessions, kept, Outbox } from "../../static/scoring/store.js";
import { MemoryStorage, RefusingStorage } from "./memory-storage.js";

function clock() {
  let now = 1000;
  return () => (now += 1);
}

describe("the outbox", () => {
  test("gives its entries in the order they were typed, each as typed with what it is based on", () => {
    const outbox = new Outbox(new MemoryStorage(), "olivia", "g1", clock());
    outbox.put("s1-farms", { value: "4", base: 2, label: "Farms, Alice" });
    outbox.put("s2-farms", { value: "7+", base: 0, label: "Farms, Bruno", typing: true });
    outbox.put("s1-recruits", { value: "3", base: 1, label: "Recruits, Alice" });
    outbox.put("s1-farms", { value: "5", base: 2, label: "Farms, Alice" }); // typed again: now the latest
    assert.deepEqual(
      outbox.entries().map((entry) => [entry.name, entry.value]),
      [
        ["s2-farms", "7+"],
        ["s1-recruits", "3"],
        ["s1-farms", "5"],
      ],
    );
    assert.equal(outbox.get("s2-farms").typing, true);
    assert.equal(outbox.get("s1-farms").base, 2);
  });

  test("an entry acknowledged is dropped once, and the game's key goes with the last one", () => {
    const storage = new MemoryStorage();
    const outbox = new Outbox(storage, "olivia", "g1", clock());
    outbox.put("s1-farms", { value: "4", base: 2 });
    outbox.drop("s1-farms");
    outbox.drop("s1-farms");
    assert.deepEqual(outbox.entries(), []);
    assert.equal(storage.length, 0);
  });

  test("an entry set apart stays, with why, until dropped", () => {
    const outbox = new Outbox(new MemoryStorage(), "olivia", "g1", clock());
    outbox.put("s1-farms", { value: "57", base: 0, label: "Farms, Alice" });
    outbox.setApart("s1-farms", "field");
    assert.equal(outbox.get("s1-farms").apart, "field");
    outbox.setApart("s9-farms", "field"); // (nothing to set apart: nothing happens)
    assert.equal(outbox.entries().length, 1);
  });

  test("belongs to its session and its game", () => {
    const storage = new MemoryStorage();
    new Outbox(storage, "olivia", "g1", clock()).put("s1-farms", { value: "4", base: 2 });
    assert.deepEqual(new Outbox(storage, "ben", "g1").entries(), []);
    assert.deepEqual(new Outbox(storage, "olivia", "g2").entries(), []);
    assert.equal(new Outbox(storage, "olivia", "g1").entries().length, 1);
  });

  test("a page of no session keeps nothing", () => {
    const storage = new MemoryStorage();
    new Outbox(storage, "", "g1").put("s1-farms", { value: "4", base: 2 });
    assert.equal(storage.length, 0);
  });

  test("a storage that refuses to keep it leaves the page working", () => {
    const outbox = new Outbox(new RefusingStorage(), "olivia", "g1");
    outbox.put("s1-farms", { value: "4", base: 2 });
    assert.deepEqual(outbox.entries(), []);
  });
});

describe("another session's", () => {
  test("everything is forgotten by the next session's first page, the phone's own choices kept", () => {
    const storage = new MemoryStorage({ "apiary-move-order": "down", "apiary-unsaved-g1": "{}" });
    new Outbox(storage, "olivia", "g1").put("s1-farms", { value: "4", base: 2 });
    kept(storage, "olivia", "g1", "answers:all").write([{ revision: 3 }], false);
    new Outbox(storage, "ben", "g1").put("s2-farms", { value: "6", base: 0 });
    forgetOtherSessions(storage, "ben");
    assert.deepEqual([...storage.map.keys()].sort(), ["apiary-move-order", "apiary:ben:g1:outbox"]);
  });

  test("a page of no session forgets every session's", () => {
    const storage = new MemoryStorage({ "apiary-move-order": "down" });
    new Outbox(storage, "olivia", "g1").put("s1-farms", { value: "4", base: 2 });
    forgetOtherSessions(storage, "");
    assert.deepEqual([...storage.map.keys()], ["apiary-move-order"]);
  });

  test("a tag that begins another's is not that other", () => {
    const storage = new MemoryStorage();
    new Outbox(storage, "ab", "g1").put("s1-farms", { value: "4", base: 2 });
    forgetOtherSessions(storage, "a");
    assert.equal(storage.length, 0);
  });
});

test("the answers kept for offline copies are those of the games opened last", () => {
  const storage = new MemoryStorage();
  for (const [game, at] of [
    ["g1", 10],
    ["g2", 30],
    ["g3", 20],
  ]) {
    kept(storage, "olivia", game, "answers:all").write(
      [
        { revision: 1, at: at - 5 },
        { revision: 2, at },
      ],
      false,
    );
  }
  new Outbox(storage, "olivia", "g1").put("s1-farms", { value: "4", base: 2 });
  forgetOldAnswers(storage, "olivia", 2);
  assert.deepEqual([...storage.map.keys()].sort(), [
    "apiary:olivia:g1:outbox",
    "apiary:olivia:g2:answers:all",
    "apiary:olivia:g3:answers:all",
  ]);
});
