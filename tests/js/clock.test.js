// static/scoring/clock.js: a time of day written as the server writes one
// (scoring/wording/numbers_and_dates.py's clock), in the format the page gives
// (tests/i18n/test_as_the_editions_write.py checks the page's and the server's agree).
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText } from "../../static/scoring/clock.js";

const evening = new Date(2026, 11, 1, 21, 14);
const morning = new Date(2026, 11, 1, 9, 5);

test("English writes 21:14 and 09:05", () => {
  assert.equal(clockText(evening, "H:i"), "21:14");
  assert.equal(clockText(morning, "H:i"), "09:05");
});

test("French writes the typographers' 21 h 14 and 9 h 05, narrow no-break spaces around the h", () => {
  const french = "G\u202f\\h\u202fi";
  assert.equal(clockText(evening, french), "21\u202fh\u202f14");
  assert.equal(clockText(morning, french), "9\u202fh\u202f05");
});

test("a backslash writes the next letter as it is, and a character no time needs is written as it is", () => {
  assert.equal(clockText(evening, "\\H\\i H.i"), "Hi 21.14");
});
