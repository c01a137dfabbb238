// The condition of one field of the pad: one explicit phase, and every way it changes, here and
// nowhere else (the pad's script turns a phase into what the field shows and does).
//
// Declared state-first, as robot's createMachine declares a machine: for each phase, the events it
// takes and the phase each leads to (MACHINE, below), so that what may happen while a field is,
// say, sending reads in one place. An event a phase does not list leaves the state as it is.
//
// A state is a plain object: { phase, text, step, base, flight, attempt, problem, theirs, here }:
// - text: the value as typed, while one of this page's waits to be stored (null otherwise);
// - step: the taps of a stepper (+1, −1) not sent yet;
// - base: the stored value's version this page saw (what its next save is based on);
// - flight: the save on its way ({ text } or { step }), or null;
// - attempt and problem: how many saves failed in a row, and why ("network", "server", "busy");
// - theirs: the value another phone stored, in a conflict;
// - here: the value shown was entered on this phone (Next may select it; see keypad.js).
//
// ``next(state, event, ...arguments)`` is a pure function of the state and an event, so that
// tests/js/ can walk every cell of the table; it never touches the page.

export const Phase = Object.freeze({
  IDLE: "idle", // shows what is stored; nothing of this page waits
  TYPING: "typing", // being typed: kept on the phone, not sent yet (never while it cannot be complete)
  WAITING: "waiting", // to be sent: at once, or when the save on its way has answered
  SENDING: "sending", // a save is on its way, and nothing newer waits
  RETRYING: "retrying", // a save failed (no network, the server busy or failing): sent again later
  SAVED: "saved", // the server has this page's value
  CONFLICT: "conflict", // changed on another phone meanwhile: the player chooses, nothing is sent
  REFUSED: "refused", // not a value the game can hold: the player corrects it
  STOPPED: "stopped", // this page can save nothing more: the value stays on screen
});

// What can happen to a field, and what each event brings:
// - typed(text): the player typed; the text is kept, and sent once left while it can be complete;
// - left({ complete }): the player left the field (Next, another field, a pause long enough);
//   ``complete``: the text can be complete (not "7+", still being added up);
// - stepped(delta, text): a stepper's tap (+1 or −1); ``text``: the number it makes on screen;
// - sending(sent): the save ``sent`` (as ``due`` gave it) is on its way;
// - saved({ version }): the server stored the save on its way (or already had it); ``version``
//   is the value's version now;
// - conflicted({ version, stored }): another phone changed the value since this page saw it
//   (``stored``, at ``version``): nothing was written;
// - refused(): the server refused the value in words (said under the field);
// - failed({ problem, shown }): the save did not reach the server, or the server could not take
//   it now (``problem``: "network", "server", "busy"); ``shown``: the value on screen;
// - retry(): time to try again (the wait after a failure is over, or the network is back);
// - stop(): this page can save nothing more (the game is gone, the session ended, the way of
//   counting changed): what waits stays on screen;
// - resolved(choice): the player chose, in a conflict: "mine" (sent again, now based on the
//   stored version) or "theirs" (the stored one);
// - savedElsewhere(): another tab of this page's session got the value saved (or dropped it):
//   this tab follows it;
// - received({ version }): another phone's value arrived (a poll);
// - restored({ text, base, typing }): a value of the outbox, typed on this phone before the page
//   was (re)opened: sent again, or still being typed when the page went.
export const EVENTS = Object.freeze([
  "typed",
  "left",
  "stepped",
  "sending",
  "saved",
  "conflicted",
  "refused",
  "failed",
  "retry",
  "stop",
  "resolved",
  "savedElsewhere",
  "received",
  "restored",
]);

export function initial(base, { here = false } = {}) {
  return {
    phase: Phase.IDLE,
    text: null,
    step: 0,
    base,
    flight: null,
    attempt: 0,
    problem: "",
    theirs: null,
    here,
  };
}

// -- questions asked of a state ------------------------------------------------------------------

// A value of this page's that the server does not have yet (kept in the outbox meanwhile).
export function isPending(s) {
  return s.phase !== Phase.IDLE && s.phase !== Phase.SAVED;
}

// Another phone's value may be shown in the field: nothing of this page's waits there.
export function takesOthers(s) {
  return !isPending(s) && s.flight === null;
}

// The save to send now, or null: { text } or { step }.
export function due(s) {
  if (s.phase !== Phase.WAITING || s.flight !== null) return null;
  return s.text !== null ? { text: s.text } : { step: s.step };
}

// Finishing the game must wait for this field (its save will answer soon).
export function settling(s) {
  return s.phase === Phase.WAITING || s.phase === Phase.SENDING;
}

// Finishing the game is held back until the player deals with this field.
export function blocksFinish(s) {
  return isPending(s) && !settling(s);
}

// Why this field holds Finish back, as the banner says it: "incomplete" (still being typed, a sum
// that cannot be complete yet: "7+"), "answered" (the message under it says why it is not saved:
// refused, or changed on another phone meanwhile) or "unsent" (not sent yet, or this page can
// send nothing more). Only the second has a message under the field to point at.
export function whyHeld(s) {
  if (s.phase === Phase.TYPING) return "incomplete";
  if (s.phase === Phase.REFUSED || s.phase === Phase.CONFLICT) return "answered";
  return "unsent";
}

// The server's figures cannot count this field's value: it waits for the network.
export function waitsForNetwork(s) {
  return s.phase === Phase.RETRYING;
}

// -- what else of the state an event changes (besides its phase) ----------------------------------

const nothing = () => ({});

// The typed text is kept (a stepper's taps not sent give way to it; a conflict's other value too).
const typedText = (_s, text) => ({ text, step: 0, theirs: null });

// A page that can save nothing more still shows what is typed (a tap: the number it makes).
const textOnScreen = (_s, text) => ({ text });
const stepOnScreen = (_s, _delta, text) => ({ text });

// On a value typed and not saved, a tap changes that value (``text``: the number it makes), sent
// as typed; otherwise the tap itself is sent, so that two phones tapping + add two.
const tapped = (s, delta, text) => (s.text !== null ? { text, step: 0 } : { step: s.step + delta });

// The taps it carries are no longer waiting (taps made meanwhile go together after it).
const inFlight = (s, sent) => ({ flight: sent, ...("step" in sent ? { step: s.step - sent.step } : {}) });

// The field's value was entered on this phone, stored at ``version``.
const acknowledged = (_s, { version }) => ({
  flight: null,
  base: version,
  attempt: 0,
  problem: "",
  here: true,
});
const storedNow = (s, answer) => ({ ...acknowledged(s, answer), text: null, step: 0 });

// What was typed (or was on its way) stays, beside what is stored (``theirs``), until the player
// chooses; it is now based on the stored version.
function besideTheirs(s, { version, stored }) {
  const text = s.text !== null ? s.text : s.flight && "text" in s.flight ? s.flight.text : null;
  return { flight: null, base: version, text, step: 0, theirs: stored, attempt: 0, problem: "" };
}

const answered = () => ({ flight: null, attempt: 0, problem: "" });
const refusedNow = (s) => ({ ...answered(s), step: 0 });

// A tap that may not have landed is sent again as the value it made (``shown``), against the
// version this page saw: a conflict says so if it had landed.
const failure = (s, { problem }) => ({ flight: null, step: 0, attempt: s.attempt + 1, problem });
const toRetry = (s, failed) => ({ ...failure(s, failed), text: s.text !== null ? s.text : failed.shown });

const grounded = () => ({ flight: null });
const keepMine = () => ({ theirs: null });
const takeTheirs = () => ({ text: null, theirs: null, here: false });
const forgotten = () => ({ text: null, step: 0, flight: null, here: false });
const othersValue = (_s, { version }) => ({ base: version, here: false });
const putBack = (_s, { text, base }) => ({ text, base, step: 0, here: true });

// -- conditions on a way out (robot's guards) ------------------------------------------------------

const always = () => true;
const canBeComplete = (_s, { complete }) => complete;
const newerThanShown = (s, { version }) => version > s.base;
const stillTyping = (_s, { typing }) => typing;
const choseMine = (_s, choice) => choice === "mine";

// -- the machine -------------------------------------------------------------------------------------

// One way out of a phase (robot's transition): to ``phase``, with the rest of the state changed as
// ``changes`` says; taken only when ``when`` holds, else the cell's next way is tried.
function to(phase, changes = nothing, when = always) {
  return { phase, changes, when };
}

const { IDLE, TYPING, WAITING, SENDING, RETRYING, SAVED, CONFLICT, REFUSED, STOPPED } = Phase;

// A value of the outbox is put back whatever the field was doing: it is the phone's newest.
const RESTORED = [to(TYPING, putBack, stillTyping), to(WAITING, putBack)];

// phase → event → the phase it leads to. A save's answer (saved, conflicted, refused, failed) is
// listed where a save can be on its way: sending; typing or waiting (something newer than the
// save on its way, which goes once that one answers); stopped (the page stopped meanwhile); idle
// (another tab got the value saved meanwhile).
const MACHINE = {
  [IDLE]: {
    typed: to(TYPING, typedText),
    stepped: to(WAITING, tapped),
    saved: to(SAVED, storedNow),
    conflicted: to(CONFLICT, besideTheirs),
    refused: to(REFUSED, refusedNow),
    failed: to(RETRYING, toRetry),
    // shown when it is newer than what the page shows (nothing of this page's waits here)
    received: to(IDLE, othersValue, newerThanShown),
    restored: RESTORED,
  },
  [TYPING]: {
    typed: to(TYPING, typedText),
    // a text that can be complete is to be sent; one that cannot yet ("7+") stays as it is,
    // neither sent nor flagged
    left: to(WAITING, nothing, canBeComplete),
    stepped: to(WAITING, tapped),
    saved: to(TYPING, acknowledged), // (what is typed goes once left, based on what the save stored)
    conflicted: to(CONFLICT, besideTheirs),
    refused: to(TYPING, answered),
    failed: to(TYPING, failure), // (a value being typed meanwhile goes on being typed: sent once left)
    stop: to(STOPPED, grounded),
    savedElsewhere: to(IDLE, forgotten),
    restored: RESTORED,
  },
  [WAITING]: {
    typed: to(TYPING, typedText),
    stepped: to(WAITING, tapped),
    sending: to(SENDING, inFlight),
    saved: to(WAITING, acknowledged), // (what waited goes now, based on what the save stored)
    conflicted: to(CONFLICT, besideTheirs),
    refused: to(WAITING, answered),
    failed: to(RETRYING, toRetry),
    stop: to(STOPPED, grounded),
    savedElsewhere: to(IDLE, forgotten),
    restored: RESTORED,
  },
  [SENDING]: {
    typed: to(TYPING, typedText),
    stepped: to(WAITING, tapped),
    saved: to(SAVED, storedNow),
    conflicted: to(CONFLICT, besideTheirs),
    refused: to(REFUSED, refusedNow),
    failed: to(RETRYING, toRetry),
    stop: to(STOPPED, grounded),
    restored: RESTORED,
  },
  [RETRYING]: {
    typed: to(TYPING, typedText),
    stepped: to(WAITING, tapped),
    retry: to(WAITING),
    stop: to(STOPPED, grounded),
    savedElsewhere: to(IDLE, forgotten),
    restored: RESTORED,
  },
  [SAVED]: {
    typed: to(TYPING, typedText),
    stepped: to(WAITING, tapped),
    received: to(IDLE, othersValue, newerThanShown),
    restored: RESTORED,
  },
  [CONFLICT]: {
    typed: to(TYPING, typedText),
    // (no stepped: in a conflict, the player chooses first)
    stop: to(STOPPED, grounded),
    resolved: [to(WAITING, keepMine, choseMine), to(IDLE, takeTheirs)],
    savedElsewhere: to(IDLE, forgotten),
    restored: RESTORED,
  },
  [REFUSED]: {
    typed: to(TYPING, typedText),
    stepped: to(WAITING, tapped),
    stop: to(STOPPED, grounded),
    savedElsewhere: to(IDLE, forgotten),
    restored: RESTORED,
  },
  [STOPPED]: {
    typed: to(STOPPED, textOnScreen),
    stepped: to(STOPPED, stepOnScreen),
    saved: to(SAVED, storedNow),
    conflicted: to(CONFLICT, besideTheirs),
    refused: to(REFUSED, refusedNow),
    failed: to(RETRYING, toRetry),
    savedElsewhere: to(IDLE, forgotten),
    restored: RESTORED,
  },
};

// The state after ``event`` (one of EVENTS, with its arguments): the first way of its cell whose
// condition holds; the same state when there is none.
export function next(s, event, ...args) {
  if (!EVENTS.includes(event)) throw new Error(`field-state: no event "${event}"`);
  const way = [MACHINE[s.phase][event] ?? []].flat().find((candidate) => candidate.when(s, ...args));
  return way ? { ...s, ...way.changes(s, ...args), phase: way.phase } : s;
}
