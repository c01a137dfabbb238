// static/scoring/keypad.js: where Next goes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { moveOrder, nextField } from "../../static/scoring/keypad.js";
import { MemoryStorage } from "./memory-storage.js";

// Three rows of a three-player pad, in the page's order (row by row): [seat, free] each.
function pad(rows) {
  return rows.flatMap((row, r) => row.map(([seat, free], c) => ({ id: `r${r}s${seat}`, seat, free, c })));
}
const id = (field) => (field ? field.id : null);
const at = (fields, name) => fields.find((field) => field.id === name);

test("across: the next player's field of the same row, then the next row", () => {
  const fields = pad([
    [
      [1, true],
      [2, true],
      [3, true],
    ],
    [
      [1, true],
      [2, true],
      [3, true],
    ],
  ]);
  assert.equal(id(nextField(fields, at(fields, "r0s1"), "across")), "r0s2");
  assert.equal(id(nextField(fields, at(fields, "r0s3"), "across")), "r1s1");
});

test("down each player: the same player's next row, then the next player's first", () => {
  const fields = pad([
    [
      [1, true],
      [2, true],
    ],
    [
      [1, true],
      [2, true],
    ],
  ]);
  assert.equal(id(nextField(fields, at(fields, "r0s1"), "down")), "r1s1");
  assert.equal(id(nextField(fields, at(fields, "r1s1"), "down")), "r0s2");
  assert.equal(nextField(fields, at(fields, "r1s2"), "down"), null); // the last: the keyboard closes
});

test("a value another phone entered is never landed on: Next goes past it", () => {
  // The host types her column, down: Tom's first two values came from his phone.
  const fields = pad([
    [
      [1, true],
      [2, false],
    ],
    [
      [1, true],
      [2, false],
    ],
    [
      [1, true],
      [2, true],
    ],
  ]);
  assert.equal(id(nextField(fields, at(fields, "r2s1"), "down")), "r2s2");
  assert.equal(id(nextField(fields, at(fields, "r0s1"), "across")), "r1s1");
  const full = pad([
    [
      [1, true],
      [2, false],
    ],
    [
      [1, true],
      [2, false],
    ],
  ]);
  assert.equal(nextField(full, at(full, "r1s1"), "down"), null);
});

test("on one player's sheet, Next stays within that player", () => {
  const fields = pad([
    [
      [1, true],
      [2, true],
    ],
    [
      [1, true],
      [2, true],
    ],
  ]);
  assert.equal(nextField(fields, at(fields, "r1s1"), "down", { seat: 1 }), null);
  assert.equal(id(nextField(fields, at(fields, "r0s2"), "across", { seat: 2 })), "r1s2");
});

test("the order is the phone's choice, across unless it chose down", () => {
  assert.equal(moveOrder(new MemoryStorage()), "across");
  assert.equal(moveOrder(new MemoryStorage({ "apiary-move-order": "down" })), "down");
  assert.equal(
    moveOrder({
      getItem() {
        throw new Error("refused");
      },
    }),
    "across",
  );
});
