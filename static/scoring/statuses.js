// What a field shows of its state: its frame (not saved yet, in conflict, invalid for screen
// readers) and, in its status (#status-<name>), a mark in the field's corner saying whether its
// value is being saved or waits (the page grows no taller; its words, the pad's for its script
// (presenters/pad_page.py), are for screen readers).

import { isPending, Phase } from "./field-state.js";

const MARKS = {
  typing: "msgUnsaved",
  waiting: "msgSaving",
  sending: "msgSaving",
  retrying: "msgRetrying",
  stopped: "msgUnsaved",
};

// Shows state ``s`` in the field ``el``; ``msg(key)``: the pad's words.
export function showState(el, s, msg) {
  const conflict = s.phase === Phase.CONFLICT;
  el.classList.toggle("unsaved", isPending(s) && !conflict && s.phase !== Phase.REFUSED);
  el.classList.toggle("conflict", conflict);
  if (conflict || s.phase === Phase.REFUSED) el.setAttribute("aria-invalid", "true");
  else el.removeAttribute("aria-invalid");
  const status = document.getElementById(`status-${el.name}`);
  if (!status) return;
  status.querySelector(".state-mark")?.remove();
  const mark = MARKS[s.phase];
  if (mark) {
    const span = document.createElement("span");
    span.className = "state-mark";
    span.textContent = msg(mark);
    status.append(span);
    status.dataset.state = s.phase;
  } else {
    delete status.dataset.state;
  }
}

// Every change of a field's state ("pad:field", fields.js) shown as it happens.
export function setUpStatuses(root, msg) {
  root.addEventListener("pad:field", (event) => showState(event.detail.el, event.detail.after, msg));
}
