// static/scoring/figures.js: a player's own sums, worked out on the phone.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fieldNumber, figureText, places, seatSums, withFigure } from "../../static/scoring/figures.js";

const sum = (text, min = 0, max = 99) => fieldNumber({ checkbox: false, text, min, max });

test("a field holds what the server will read in it: a sum, or 0 when empty", () => {
  assert.equal(sum("5+7"), 12);
  assert.equal(sum("1 \u2212 3", -99), -2);
  assert.equal(sum(""), 0);
  assert.equal(sum("  "), 0);
});

test("a sum being typed counts what it adds up to so far", () => {
  assert.equal(sum("7+"), 7);
  assert.equal(sum("7+6\u2212"), 13);
  assert.equal(sum("12 + "), 12);
  assert.equal(sum("-"), 0);
});

test("a value the server would refuse counts as nothing the phone can add up", () => {
  assert.equal(sum("3x"), null);
  assert.equal(sum("3++2"), null);
  assert.equal(sum("120"), null); // over the category's limit
  assert.equal(sum("-1"), null);
});

test("a yes counts one unit", () => {
  assert.equal(fieldNumber({ checkbox: true, checked: true }), 1);
  assert.equal(fieldNumber({ checkbox: true, checked: false }), 0);
});

test("a seat's VP per section: each value times its VP per unit", () => {
  assert.deepEqual(
    seatSums([
      { section: "during", vpEach: 1, number: 12 },
      { section: "end", vpEach: 2, number: 3 },
      { section: "end", vpEach: 8, number: 1 },
    ]),
    { during: 12, end: 14 },
  );
  assert.equal(seatSums([{ section: "end", vpEach: 1, number: null }]), null);
});

test("a figure is written as the server writes it: a negative one with a true minus sign", () => {
  assert.equal(figureText(12), "12");
  assert.equal(figureText(0), "0");
  assert.equal(figureText(-3), "\u22123");
});

test("a cell's VP take the phone's own figure and keep the page's own unit", () => {
  assert.equal(withFigure("0\u00a0VP", 8), "8\u00a0VP");
  assert.equal(withFigure("0\u00a0PV", 16), "16\u00a0PV");
  assert.equal(withFigure("3\u00a0VP", -2), "\u22122\u00a0VP");
  assert.equal(withFigure("\u22122\u00a0VP", 0), "0\u00a0VP");
});

test("places follow the VP, then the active workers; equal both, one place shared", () => {
  const player = (total, workers) => ({ total, workers });
  assert.deepEqual(places([player(25, 0), player(30, 1), player(25, 2)]), [3, 1, 2]);
  assert.deepEqual(places([player(25, 2), player(25, 2), player(10, 4)]), [1, 1, 3]);
  assert.deepEqual(places([player(-3, 0)]), [1]);
});
