// static/scoring/sums.js reads a typed value as scoring/rules/sums.py does: one table of cases for both.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { evaluate, isIncomplete, normalize } from "../../static/scoring/sums.js";

const { cases } = JSON.parse(readFileSync(new URL("../data/sum-cases.json", import.meta.url), "utf8"));

for (const c of cases) {
  test(`${c.why}: ${JSON.stringify(c.text)}`, () => {
    assert.equal(evaluate(c.text), c.value);
    if ("normalized" in c) assert.equal(normalize(c.text), c.normalized);
    if ("incomplete" in c) assert.equal(isIncomplete(c.text), c.incomplete);
    if (c.value !== null && !("incomplete" in c)) assert.equal(isIncomplete(c.text), false);
  });
}

test("a value with a sign at its end is never complete, whatever comes before", () => {
  for (const text of ["1+", "12-", "3+4\u2212", "5 +", "+", "\uff0b", "7+6 "]) {
    assert.equal(isIncomplete(text), true, text);
  }
});

test("an empty or blank field is complete: it is left empty", () => {
  for (const text of ["", "  "]) assert.equal(isIncomplete(text), false);
});
