// static/scoring/field-state.js: each field's one state, and every way it changes.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as F from "../../static/scoring/field-state.js";

const { Phase } = F;

// A field that shows version ``base``, walked through ``steps`` ([transition, ...args] each).
function walk(steps, base = 3) {
  return steps.reduce((s, [transition, ...args]) => transition(s, ...args), F.initial(base));
}

describe("typing a value", () => {
  test("is kept, not sent, while the player types", () => {
    const s = walk([[F.typed, "7"]]);
    assert.equal(s.phase, Phase.TYPING);
    assert.equal(s.text, "7");
    assert.equal(F.due(s), null);
    assert.equal(F.isPending(s), true);
  });

  test("is sent once left (Next, another field, the pause), against the version the page saw", () => {
    const s = walk([[F.typed, "7+6"], [F.left, { complete: true }]]);
    assert.equal(s.phase, Phase.WAITING);
    assert.deepEqual(F.due(s), { text: "7+6" });
    assert.equal(s.base, 3);
  });

  test("that cannot be complete yet stays typing when left: never sent, never flagged", () => {
    const s = walk([[F.typed, "7+"], [F.left, { complete: false }]]);
    assert.equal(s.phase, Phase.TYPING);
    assert.equal(F.due(s), null);
    assert.equal(F.blocksFinish(s), true); // (Finish says so, naming it)
  });

  test("saved: the field holds the server's value, entered on this phone", () => {
    const sent = walk([[F.typed, "5"], [F.left, { complete: true }]]);
    const flying = F.sending(sent, F.due(sent));
    assert.equal(flying.phase, Phase.SENDING);
    assert.equal(F.due(flying), null); // one save at a time per field
    assert.equal(F.settling(flying), true);
    const done = F.saved(flying, { version: 4 });
    assert.equal(done.phase, Phase.SAVED);
    assert.equal(done.base, 4);
    assert.equal(done.text, null);
    assert.equal(done.here, true);
    assert.equal(F.isPending(done), false);
  });

  test("typed again while a save is on its way: the newer one waits, then goes", () => {
    let s = walk([[F.typed, "5"], [F.left, { complete: true }]]);
    s = F.sending(s, F.due(s));
    s = F.left(F.typed(s, "56"), { complete: true });
    assert.equal(s.phase, Phase.WAITING);
    assert.equal(F.due(s), null); // (not while the first is on its way)
    s = F.saved(s, { version: 4 });
    assert.equal(s.phase, Phase.WAITING);
    assert.deepEqual(F.due(s), { text: "56" });
    assert.equal(s.base, 4); // based on what the first save stored
  });
});

describe("a stepper's taps", () => {
  test("are sent as taps, so that two phones tapping + add two", () => {
    const s = walk([[F.stepped, 1, "1"]]);
    assert.deepEqual(F.due(s), { step: 1 });
  });

  test("made while one is on its way go together after it", () => {
    let s = walk([[F.stepped, 1, "1"]]);
    s = F.sending(s, F.due(s));
    s = F.stepped(F.stepped(s, 1, "2"), 1, "3");
    assert.equal(F.due(s), null);
    s = F.saved(s, { version: 4 });
    assert.deepEqual(F.due(s), { step: 2 });
  });

  test("on a value typed and not saved change that value, sent as typed", () => {
    const s = walk([[F.typed, "4"], [F.stepped, 1, "5"]]);
    assert.deepEqual(F.due(s), { text: "5" });
  });

  test("wait in a conflict: the player chooses first", () => {
    const conflict = walk([[F.typed, "4"], [F.left, { complete: true }], [F.sending, { text: "4" }],
                           [F.conflicted, { version: 5, stored: "9" }]]);
    assert.equal(F.stepped(conflict, 1, "5"), conflict);
  });

  test("that may not have landed are sent again as the value they made", () => {
    let s = walk([[F.stepped, 1, "3"]]);
    s = F.failed(F.sending(s, F.due(s)), { problem: "network", shown: "3" });
    assert.equal(s.phase, Phase.RETRYING);
    assert.deepEqual(F.due(F.retry(s)), { text: "3" });
  });
});

describe("failures", () => {
  const sent = () => {
    const s = walk([[F.typed, "5"], [F.left, { complete: true }]]);
    return F.sending(s, F.due(s));
  };

  test("a save that fails is kept and sent again after the wait", () => {
    const s = F.failed(sent(), { problem: "network", shown: "5" });
    assert.equal(s.phase, Phase.RETRYING);
    assert.equal(s.attempt, 1);
    assert.equal(F.waitsForNetwork(s), true);
    assert.equal(F.blocksFinish(s), true);
    assert.equal(F.due(s), null);
    assert.deepEqual(F.due(F.retry(s)), { text: "5" });
    assert.equal(F.failed(F.sending(F.retry(s), { text: "5" }), { problem: "server", shown: "5" }).attempt, 2);
  });

  test("a value being typed when its older save fails goes on being typed", () => {
    const s = F.failed(F.typed(sent(), "57"), { problem: "network", shown: "57" });
    assert.equal(s.phase, Phase.TYPING);
    assert.equal(s.text, "57");
  });

  test("a conflict keeps what was typed beside what is stored, until the player chooses", () => {
    const s = F.conflicted(sent(), { version: 6, stored: "9" });
    assert.equal(s.phase, Phase.CONFLICT);
    assert.equal(s.text, "5");
    assert.equal(s.theirs, "9");
    assert.equal(F.takesOthers(s), false);
    assert.equal(F.due(s), null);
    const mine = F.resolved(s, "mine");
    assert.deepEqual(F.due(mine), { text: "5" });
    assert.equal(mine.base, 6); // now based on what is stored
    const theirs = F.resolved(s, "theirs");
    assert.equal(theirs.phase, Phase.IDLE);
    assert.equal(F.isPending(theirs), false);
  });

  test("a refusal keeps the value, to be corrected", () => {
    const s = F.refused(sent());
    assert.equal(s.phase, Phase.REFUSED);
    assert.equal(s.text, "5");
    assert.equal(F.blocksFinish(s), true);
    assert.deepEqual(F.due(F.left(F.typed(s, "6"), { complete: true })), { text: "6" });
  });

  test("a page that can save no more keeps what waits on screen, and sends nothing", () => {
    const s = F.stop(sent());
    assert.equal(s.phase, Phase.STOPPED);
    assert.equal(s.text, "5");
    assert.equal(F.due(F.typed(s, "6")), null);
    assert.equal(F.typed(s, "6").phase, Phase.STOPPED);
    assert.equal(F.stop(F.initial(2)).phase, Phase.IDLE); // (a field with nothing waiting is as it was)
  });
});

describe("another phone's values", () => {
  test("are taken by a field with nothing of this page's, when newer", () => {
    const s = F.received(F.initial(3, { here: true }), { version: 5 });
    assert.equal(s.base, 5);
    assert.equal(s.here, false);
    assert.equal(F.received(s, { version: 4 }), s);
  });

  test("never replace a value of this page's not saved yet", () => {
    for (const steps of [[[F.typed, "5"]], [[F.typed, "5"], [F.left, { complete: true }]],
                         [[F.stepped, 1, "1"]]]) {
      const s = walk(steps);
      assert.equal(F.received(s, { version: 9 }), s);
    }
  });
});

describe("the outbox, when the pad opens again", () => {
  test("a value left before the page went is sent; one still being typed goes on being typed", () => {
    assert.deepEqual(F.due(F.restored(F.initial(7), { text: "12", base: 3, typing: false })), { text: "12" });
    const typing = F.restored(F.initial(7), { text: "1", base: 3, typing: true });
    assert.equal(typing.phase, Phase.TYPING);
    assert.equal(typing.base, 3); // (based on what it was typed over: a conflict says if it moved)
  });

  test("another tab got it saved: this tab follows", () => {
    const s = F.savedElsewhere(walk([[F.typed, "5"], [F.left, { complete: true }]]));
    assert.equal(s.phase, Phase.IDLE);
    assert.equal(F.isPending(s), false);
  });
});

test("every phase answers the questions the pad asks, one way", () => {
  const pending = { idle: false, typing: true, waiting: true, sending: true, retrying: true, saved: false,
                    conflict: true, refused: true, stopped: true };
  for (const phase of Object.values(Phase)) {
    const s = { ...F.initial(1), phase };
    assert.equal(F.isPending(s), pending[phase], phase);
    assert.equal(F.takesOthers(s), !pending[phase], phase);
    assert.equal(F.blocksFinish(s), pending[phase] && phase !== "waiting" && phase !== "sending", phase);
  }
});
