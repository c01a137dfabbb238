// What the player does in a field of the pad, handed to its state (fields.js): typing, ticking a
// yes, leaving the field, tapping a stepper's + or −, choosing in a conflict. A value is saved on
// Next, on leaving the field, or after a pause long enough to look at the board
// (data-save-pause-ms), never while it cannot be complete ("7+"). A field's value is selected
// when it gets focus, so what is typed replaces it: no digit lands in front of an old value.

import { Phase } from "./field-state.js";
import { fieldValue, kindOf, setStored, showEnd, showEnds } from "./fields.js";
import { isIncomplete } from "./sums.js";

// ``fields``: fields.js's store; ``pauseMs``: the pause after which a value typed is saved.
// Returns what the keypad and the outbox do as the player would: typed(el), leave(el),
// stepped(el, delta).
export function setUpTyping(root, { fields, pauseMs }) {
  const actions = playerActions({ fields, pauseMs });
  const isField = (el) => el.matches?.("[data-field]") && root.contains(el);

  root.addEventListener("input", (event) => {
    if (isField(event.target) && event.target.type !== "checkbox") actions.typed(event.target);
  });
  root.addEventListener("change", (event) => {
    const el = event.target;
    if (!isField(el) || el.type !== "checkbox") return;
    actions.typed(el);
    actions.leave(el);
  });
  root.addEventListener("focusout", (event) => {
    if (!isField(event.target)) return;
    actions.leave(event.target);
    setTimeout(() => showEnd(event.target)); // (once the browser has put the field back at its start)
  });
  showEnds(root.querySelectorAll("[data-field]"));
  root.addEventListener("click", (event) => {
    const step = event.target.closest("button.step");
    if (step) {
      event.preventDefault(); // (without this script, the button posts the pad's form with the step)
      const input = step.parentElement.querySelector("input.number");
      const delta = parseInt(step.value.slice(step.value.lastIndexOf(":") + 1), 10); // (its value: name:±1)
      if (input) actions.stepped(input, delta);
      return;
    }
    const choice = event.target.closest("[data-resolve]");
    if (choice) resolve(choice.dataset.field, choice.dataset.resolve, fields);
  });
  selectOnFocus(root);
  return actions;
}

function playerActions({ fields, pauseMs }) {
  // Typed: kept at once; saved when left, or after the pause (never while it cannot be complete).
  function typed(el) {
    const name = el.name;
    fields.cancel(name);
    const text = fieldValue(el);
    fields.update(name, "typed", text);
    if (!isIncomplete(text)) fields.later(name, () => leave(el), pauseMs);
  }

  function leave(el) {
    if (!fields.input(el.name)) return;
    fields.cancel(el.name);
    fields.update(el.name, "left", { complete: !isIncomplete(fieldValue(el)) });
  }

  function stepped(el, delta) {
    const current = parseInt(el.value, 10) || 0;
    const { min, max } = kindOf(el);
    const next = Math.max(Number(min), Math.min(Number(max), current + delta));
    if (next === current && el.value !== "") return;
    el.value = String(next);
    fields.update(el.name, "stepped", next - current, String(next));
  }

  return { typed, leave, stepped };
}

// In a conflict: the player's own value, sent again, or the one another phone stored.
function resolve(name, choice, fields) {
  const el = fields.input(name);
  if (!el) return;
  const conflict = fields.state(name);
  const error = document.getElementById(`error-${name}`);
  if (error) {
    error.hidden = true;
    error.textContent = "";
  }
  if (choice === "theirs") setStored(el, conflict.theirs ?? "");
  const after = fields.update(name, "resolved", choice);
  if (choice === "theirs" && after.phase === Phase.IDLE) {
    const status = document.getElementById(`status-${name}`);
    if (status) status.textContent = "";
  }
  el.focus();
}

// Selected on focus, and once more after the browser has placed its caret (unless typing has
// begun); the tap that focused the field does not undo the selection.
function selectOnFocus(root) {
  let justFocused = null;
  root.addEventListener("focusin", (event) => {
    const el = event.target;
    if (!el.matches("input.number")) return;
    if (el.dataset.caretAtEnd) {
      delete el.dataset.caretAtEnd; // (a value being typed when the page went: the player goes on)
      el.setSelectionRange(el.value.length, el.value.length);
      return;
    }
    justFocused = el;
    el.select();
    const focused = el.value;
    setTimeout(() => {
      if (document.activeElement === el && justFocused === el && el.value === focused) el.select();
    }, 0);
  });
  for (const type of ["mouseup", "pointerup", "touchend"]) {
    document.addEventListener(type, (event) => {
      const el = justFocused;
      justFocused = null;
      const selected = el && el.selectionStart === 0 && el.selectionEnd === el.value.length;
      if (selected && event.target === el) event.preventDefault();
    });
  }
}
