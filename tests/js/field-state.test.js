// static/scoring/field-state.js: each field's one state, and every way it changes.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as F from "../../static/scoring/field-state.js";

const { Phase } = F;

// A field that shows version ``base``, walked through ``steps`` ([event, ...args] each).
function walk(steps, base = 3) {
  return steps.reduce((s, [event, ...args]) => F.next(s, event, ...args), F.initial(base));
}

describe("typing a value", () => {
  test("is kept, not sent, while the player types", () => {
    const s = walk([["typed", "7"]]);
    assert.equal(s.phase, Phase.TYPING);
    assert.equal(s.text, "7");
    assert.equal(F.due(s), null);
    assert.equal(F.isPending(s), true);
  });

  test("is sent once left (Next, another field, the pause), against the version the page saw", () => {
    const s = walk([
      ["typed", "7+6"],
      ["left", { complete: true }],
    ]);
    assert.equal(s.phase, Phase.WAITING);
    assert.deepEqual(F.due(s), { text: "7+6" });
    assert.equal(s.base, 3);
  });

  test("that cannot be complete yet stays typing when left: never sent, never flagged", () => {
    const s = walk([
      ["typed", "7+"],
      ["left", { complete: false }],
    ]);
    assert.equal(s.phase, Phase.TYPING);
    assert.equal(F.due(s), null);
    assert.equal(F.blocksFinish(s), true); // (Finish says so, naming it)
  });

  test("saved: the field holds the server's value, entered on this phone", () => {
    const sent = walk([
      ["typed", "5"],
      ["left", { complete: true }],
    ]);
    const flying = F.next(sent, "sending", F.due(sent));
    assert.equal(flying.phase, Phase.SENDING);
    assert.equal(F.due(flying), null); // one save at a time per field
    assert.equal(F.settling(flying), true);
    const done = F.next(flying, "saved", { version: 4 });
    assert.equal(done.phase, Phase.SAVED);
    assert.equal(done.base, 4);
    assert.equal(done.text, null);
    assert.equal(done.here, true);
    assert.equal(F.isPending(done), false);
  });

  test("typed again while a save is on its way: the newer one waits, then goes", () => {
    let s = walk([
      ["typed", "5"],
      ["left", { complete: true }],
    ]);
    s = F.next(s, "sending", F.due(s));
    s = F.next(F.next(s, "typed", "56"), "left", { complete: true });
    assert.equal(s.phase, Phase.WAITING);
    assert.equal(F.due(s), null); // (not while the first is on its way)
    s = F.next(s, "saved", { version: 4 });
    assert.equal(s.phase, Phase.WAITING);
    assert.deepEqual(F.due(s), { text: "56" });
    assert.equal(s.base, 4); // based on what the first save stored
  });
});

describe("a stepper's taps", () => {
  test("are sent as taps, so that two phones tapping + add two", () => {
    const s = walk([["stepped", 1, "1"]]);
    assert.deepEqual(F.due(s), { step: 1 });
  });

  test("made while one is on its way go together after it", () => {
    let s = walk([["stepped", 1, "1"]]);
    s = F.next(s, "sending", F.due(s));
    s = F.next(F.next(s, "stepped", 1, "2"), "stepped", 1, "3");
    assert.equal(F.due(s), null);
    s = F.next(s, "saved", { version: 4 });
    assert.deepEqual(F.due(s), { step: 2 });
  });

  test("on a value typed and not saved change that value, sent as typed", () => {
    const s = walk([
      ["typed", "4"],
      ["stepped", 1, "5"],
    ]);
    assert.deepEqual(F.due(s), { text: "5" });
  });

  test("wait in a conflict: the player chooses first", () => {
    const conflict = walk([
      ["typed", "4"],
      ["left", { complete: true }],
      ["sending", { text: "4" }],
      ["conflicted", { version: 5, stored: "9" }],
    ]);
    assert.equal(F.next(conflict, "stepped", 1, "5"), conflict);
  });

  test("that may not have landed are sent again as the value they made", () => {
    let s = walk([["stepped", 1, "3"]]);
    s = F.next(F.next(s, "sending", F.due(s)), "failed", { problem: "network", shown: "3" });
    assert.equal(s.phase, Phase.RETRYING);
    assert.deepEqual(F.due(F.next(s, "retry")), { text: "3" });
  });
});

describe("failures", () => {
  const sent = () => {
    const s = walk([
      ["typed", "5"],
      ["left", { complete: true }],
    ]);
    return F.next(s, "sending", F.due(s));
  };

  test("a save that fails is kept and sent again after the wait", () => {
    const s = F.next(sent(), "failed", { problem: "network", shown: "5" });
    assert.equal(s.phase, Phase.RETRYING);
    assert.equal(s.attempt, 1);
    assert.equal(F.waitsForNetwork(s), true);
    assert.equal(F.blocksFinish(s), true);
    assert.equal(F.due(s), null);
    assert.deepEqual(F.due(F.next(s, "retry")), { text: "5" });
    assert.equal(
      F.next(F.next(F.next(s, "retry"), "sending", { text: "5" }), "failed", {
        problem: "server",
        shown: "5",
      }).attempt,
      2,
    );
  });

  test("a value being typed when its older save fails goes on being typed", () => {
    const s = F.next(F.next(sent(), "typed", "57"), "failed", { problem: "network", shown: "57" });
    assert.equal(s.phase, Phase.TYPING);
    assert.equal(s.text, "57");
  });

  test("a conflict keeps what was typed beside what is stored, until the player chooses", () => {
    const s = F.next(sent(), "conflicted", { version: 6, stored: "9" });
    assert.equal(s.phase, Phase.CONFLICT);
    assert.equal(s.text, "5");
    assert.equal(s.theirs, "9");
    assert.equal(F.takesOthers(s), false);
    assert.equal(F.due(s), null);
    const mine = F.next(s, "resolved", "mine");
    assert.deepEqual(F.due(mine), { text: "5" });
    assert.equal(mine.base, 6); // now based on what is stored
    const theirs = F.next(s, "resolved", "theirs");
    assert.equal(theirs.phase, Phase.IDLE);
    assert.equal(F.isPending(theirs), false);
  });

  test("a refusal keeps the value, to be corrected", () => {
    const s = F.next(sent(), "refused");
    assert.equal(s.phase, Phase.REFUSED);
    assert.equal(s.text, "5");
    assert.equal(F.blocksFinish(s), true);
    assert.deepEqual(F.due(F.next(F.next(s, "typed", "6"), "left", { complete: true })), { text: "6" });
  });

  test("a page that can save no more keeps what waits on screen, and sends nothing", () => {
    const s = F.next(sent(), "stop");
    assert.equal(s.phase, Phase.STOPPED);
    assert.equal(s.text, "5");
    assert.equal(F.due(F.next(s, "typed", "6")), null);
    assert.equal(F.next(s, "typed", "6").phase, Phase.STOPPED);
    // (a field with nothing waiting is as it was)
    assert.equal(F.next(F.initial(2), "stop").phase, Phase.IDLE);
  });
});

describe("finishing the game", () => {
  test("waits for a save on its way, and is held back by a value the player must deal with", () => {
    const typed = walk([
      ["typed", "7+"],
      ["left", { complete: false }],
    ]);
    const sending = F.next(F.next(typed, "typed", "7+1"), "left", { complete: true });
    const refused = F.next(F.next(sending, "sending", F.due(sending)), "refused");
    const conflict = walk([
      ["typed", "4"],
      ["left", { complete: true }],
      ["sending", { text: "4" }],
      ["conflicted", { version: 5, stored: "9" }],
    ]);
    const unsent = F.next(F.next(sending, "sending", F.due(sending)), "failed", {
      problem: "network",
      shown: "8",
    });
    assert.equal(F.blocksFinish(sending), false); // (it will answer soon)
    assert.deepEqual(
      [typed, refused, conflict, unsent, F.next(unsent, "stop")].map((s) => [
        F.blocksFinish(s),
        F.whyHeld(s),
      ]),
      [
        [true, "incomplete"], // "finish typing it"
        [true, "answered"], // "read the message under it"
        [true, "answered"],
        [true, "unsent"], // no message under it to read
        [true, "unsent"],
      ],
    );
  });
});

describe("another phone's values", () => {
  test("are taken by a field with nothing of this page's, when newer", () => {
    const s = F.next(F.initial(3, { here: true }), "received", { version: 5 });
    assert.equal(s.base, 5);
    assert.equal(s.here, false);
    assert.equal(F.next(s, "received", { version: 4 }), s);
  });

  test("never replace a value of this page's not saved yet", () => {
    for (const steps of [
      [["typed", "5"]],
      [
        ["typed", "5"],
        ["left", { complete: true }],
      ],
      [["stepped", 1, "1"]],
    ]) {
      const s = walk(steps);
      assert.equal(F.next(s, "received", { version: 9 }), s);
    }
  });
});

describe("the outbox, when the pad opens again", () => {
  test("a value left before the page went is sent; one still being typed goes on being typed", () => {
    assert.deepEqual(F.due(F.next(F.initial(7), "restored", { text: "12", base: 3, typing: false })), {
      text: "12",
    });
    const typing = F.next(F.initial(7), "restored", { text: "1", base: 3, typing: true });
    assert.equal(typing.phase, Phase.TYPING);
    assert.equal(typing.base, 3); // (based on what it was typed over: a conflict says if it moved)
  });

  test("another tab got it saved: this tab follows", () => {
    const s = F.next(
      walk([
        ["typed", "5"],
        ["left", { complete: true }],
      ]),
      "savedElsewhere",
    );
    assert.equal(s.phase, Phase.IDLE);
    assert.equal(F.isPending(s), false);
  });
});

test("every phase answers the questions the pad asks, one way", () => {
  const pending = {
    idle: false,
    typing: true,
    waiting: true,
    sending: true,
    retrying: true,
    saved: false,
    conflict: true,
    refused: true,
    stopped: true,
  };
  for (const phase of Object.values(Phase)) {
    const s = { ...F.initial(1), phase };
    assert.equal(F.isPending(s), pending[phase], phase);
    assert.equal(F.takesOthers(s), !pending[phase], phase);
    assert.equal(F.blocksFinish(s), pending[phase] && phase !== "waiting" && phase !== "sending", phase);
  }
});

// -- the table, cell by cell ------------------------------------------------------------------------

// Each phase as the pad meets it (a value typed, left, sent, ...), and each event with the
// arguments the pad gives it.
const typed = [["typed", "5"]];
const waiting = [...typed, ["left", { complete: true }]];
const sending = [...waiting, ["sending", { text: "5" }]];
const MET = {
  idle: [],
  typing: typed,
  waiting,
  sending,
  retrying: [...sending, ["failed", { problem: "network", shown: "5" }]],
  saved: [...sending, ["saved", { version: 4 }]],
  conflict: [...sending, ["conflicted", { version: 4, stored: "9" }]],
  refused: [...sending, ["refused"]],
  stopped: [...waiting, ["stop"]],
};
const ARGS = {
  typed: ["6"],
  left: [{ complete: true }],
  stepped: [1, "6"],
  sending: [{ text: "5" }],
  saved: [{ version: 7 }],
  conflicted: [{ version: 7, stored: "8" }],
  refused: [],
  failed: [{ problem: "server", shown: "5" }],
  retry: [],
  stop: [],
  resolved: ["mine"],
  savedElsewhere: [],
  received: [{ version: 7 }],
  restored: [{ text: "4", base: 2, typing: false }],
};
// phase → event → the phase it leads to; an event not named leaves the state as it is (the
// same object). A save's answer comes only where a save can be on its way.
const NEXT = {
  idle: {
    typed: "typing",
    stepped: "waiting",
    saved: "saved",
    conflicted: "conflict",
    refused: "refused",
    failed: "retrying",
    received: "idle",
    restored: "waiting",
  },
  typing: {
    typed: "typing",
    left: "waiting",
    stepped: "waiting",
    saved: "typing",
    conflicted: "conflict",
    refused: "typing",
    failed: "typing",
    stop: "stopped",
    savedElsewhere: "idle",
    restored: "waiting",
  },
  waiting: {
    typed: "typing",
    stepped: "waiting",
    sending: "sending",
    saved: "waiting",
    conflicted: "conflict",
    refused: "waiting",
    failed: "retrying",
    stop: "stopped",
    savedElsewhere: "idle",
    restored: "waiting",
  },
  sending: {
    typed: "typing",
    stepped: "waiting",
    saved: "saved",
    conflicted: "conflict",
    refused: "refused",
    failed: "retrying",
    stop: "stopped",
    restored: "waiting",
  },
  retrying: {
    typed: "typing",
    stepped: "waiting",
    retry: "waiting",
    stop: "stopped",
    savedElsewhere: "idle",
    restored: "waiting",
  },
  saved: { typed: "typing", stepped: "waiting", received: "idle", restored: "waiting" },
  conflict: {
    typed: "typing",
    stop: "stopped",
    resolved: "waiting",
    savedElsewhere: "idle",
    restored: "waiting",
  },
  refused: {
    typed: "typing",
    stepped: "waiting",
    stop: "stopped",
    savedElsewhere: "idle",
    restored: "waiting",
  },
  stopped: {
    typed: "stopped",
    stepped: "stopped",
    saved: "saved",
    conflicted: "conflict",
    refused: "refused",
    failed: "retrying",
    savedElsewhere: "idle",
    restored: "waiting",
  },
};

function frozen(s) {
  return Object.freeze({ ...s, flight: s.flight && Object.freeze({ ...s.flight }) });
}

describe("the table, cell by cell", () => {
  test("every phase is met, and every event has its arguments", () => {
    assert.deepEqual(Object.keys(MET).sort(), Object.values(Phase).sort());
    assert.deepEqual(Object.keys(ARGS).sort(), [...F.EVENTS].sort());
    for (const [phase, steps] of Object.entries(MET)) assert.equal(walk(steps).phase, phase);
  });

  for (const phase of Object.values(Phase)) {
    for (const event of F.EVENTS) {
      const expected = NEXT[phase][event];
      test(`${phase}, ${event}: ${expected ?? "as it was"}`, () => {
        const before = frozen(walk(MET[phase])); // (a transition never changes the state it is given)
        const after = F.next(before, event, ...ARGS[event]);
        if (expected === undefined) assert.equal(after, before);
        else assert.equal(after.phase, expected);
      });
    }
  }

  test("an event the machine does not know is an error, not a state left as it was", () => {
    assert.throws(() => F.next(F.initial(1), "typedd", "5"), /no event "typedd"/);
  });
});
