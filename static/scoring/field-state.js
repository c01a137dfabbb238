// The condition of one field of the pad: one explicit phase, and every way it changes, here and
// nowhere else (the pad's script turns a phase into what the field shows and does).
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
// Each transition is a pure function of the state and an event, so that tests/js/ can walk
// every path; it never touches the page.

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

export function initial(base, { here = false } = {}) {
  return { phase: Phase.IDLE, text: null, step: 0, base, flight: null, attempt: 0, problem: "", theirs: null, here };
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

// The server's figures cannot count this field's value: it waits for the network.
export function waitsForNetwork(s) {
  return s.phase === Phase.RETRYING;
}

// -- transitions -----------------------------------------------------------------------------------

function to(s, changes) {
  return { ...s, ...changes };
}

// The player typed: the text is kept, and sent once left (``left``) while it can be complete.
export function typed(s, text) {
  if (s.phase === Phase.STOPPED) return to(s, { text });
  return to(s, { phase: Phase.TYPING, text, step: 0, theirs: null });
}

// The player left the field (Next, another field, a pause long enough): a text that can be
// complete is to be sent; one that cannot yet ("7+") stays as it is, neither sent nor flagged.
export function left(s, { complete }) {
  if (s.phase !== Phase.TYPING || !complete) return s;
  return to(s, { phase: Phase.WAITING });
}

// A stepper's tap. On a value typed and not saved, it changes that value (``text``: the number
// it makes), sent as typed; otherwise the tap itself is sent, so that two phones tapping + add two.
// In a conflict, the player chooses first.
export function stepped(s, delta, text) {
  if (s.phase === Phase.CONFLICT) return s;
  if (s.phase === Phase.STOPPED) return to(s, { text });
  if (s.text !== null) return to(s, { phase: Phase.WAITING, text, step: 0 });
  return to(s, { phase: Phase.WAITING, step: s.step + delta });
}

// The save ``sent`` (as ``due`` gave it) is on its way.
export function sending(s, sent) {
  const rest = "step" in sent ? { step: s.step - sent.step } : {};
  return to(s, { phase: Phase.SENDING, flight: sent, ...rest });
}

// Something newer than the save on its way: it goes once that one answers.
function newer(s) {
  return s.phase === Phase.TYPING || s.phase === Phase.WAITING;
}

// The server stored the save on its way (or already had it): ``version`` is the value's version now.
export function saved(s, { version }) {
  const after = to(s, { flight: null, base: version, attempt: 0, problem: "", here: true });
  if (newer(s)) return after;
  return to(after, { phase: Phase.SAVED, text: null, step: 0 });
}

// Another phone changed the value since this page saw it: nothing was written. What was typed
// stays, beside what is stored (``theirs``), until the player chooses.
export function conflicted(s, { version, stored }) {
  const text = s.text !== null ? s.text : s.flight && "text" in s.flight ? s.flight.text : null;
  return to(s, { phase: Phase.CONFLICT, flight: null, base: version, text, step: 0, theirs: stored, attempt: 0,
                 problem: "" });
}

// The server refused the value in words (said under the field): it stays, to be corrected.
export function refused(s) {
  const after = to(s, { flight: null, attempt: 0, problem: "" });
  if (newer(s)) return after;
  return to(after, { phase: Phase.REFUSED, step: 0 });
}

// The save did not reach the server, or the server could not take it now: kept, and sent again
// later (``retry``). A tap that may not have landed is sent again as the value it made
// (``shown``), against the version this page saw: a conflict says so if it had landed.
// A value being typed meanwhile goes on being typed: it is sent once left.
export function failed(s, { problem, shown }) {
  const after = to(s, { flight: null, step: 0, attempt: s.attempt + 1, problem });
  if (s.phase === Phase.TYPING) return after;
  return to(after, { phase: Phase.RETRYING, text: s.text !== null ? s.text : shown });
}

// Time to try again (the wait after a failure is over, or the network is back).
export function retry(s) {
  return s.phase === Phase.RETRYING ? to(s, { phase: Phase.WAITING }) : s;
}

// This page can save nothing more (the game is gone, the session ended, the way of counting
// changed): what waits stays on screen.
export function stop(s) {
  return isPending(s) ? to(s, { phase: Phase.STOPPED, flight: null }) : s;
}

// The player chose, in a conflict: their own value (sent again, now based on the stored
// version), or the stored one.
export function resolved(s, choice) {
  if (s.phase !== Phase.CONFLICT) return s;
  if (choice === "mine") return to(s, { phase: Phase.WAITING, theirs: null });
  return to(s, { phase: Phase.IDLE, text: null, theirs: null, here: false });
}

// Another tab of this page's session got the value saved (or dropped it): this tab follows it.
export function savedElsewhere(s) {
  return to(s, { phase: Phase.IDLE, text: null, step: 0, flight: null, here: false });
}

// Another phone's value arrived (a poll): shown when nothing of this page's waits there and it is
// newer than what the page shows; the state says whether it was taken.
export function received(s, { version }) {
  if (!takesOthers(s) || version <= s.base) return s;
  return to(s, { phase: Phase.IDLE, base: version, here: false });
}

// A value of the outbox, typed on this phone before the page was (re)opened: sent again, or
// still being typed when the page went.
export function restored(s, { text, base, typing }) {
  return to(s, { phase: typing ? Phase.TYPING : Phase.WAITING, text, base, step: 0, here: true });
}
