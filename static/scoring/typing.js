// What the player does in a field of the pad, handed to its state (pad.js): typing, ticking a
// yes, leaving the field, tapping a stepper's + or −, choosing in a conflict. A field's value is
// selected when it gets focus, so what is typed replaces it: no digit lands in front of an old value.

import * as F from "./field-state.js";

export function setUpTyping(pad) {
  const { root, inputs } = pad;
  const isField = (el) => el.matches?.("[data-field]") && root.contains(el);

  root.addEventListener("input", (event) => {
    if (isField(event.target) && event.target.type !== "checkbox") pad.typed(event.target);
  });
  root.addEventListener("change", (event) => {
    const el = event.target;
    if (!isField(el) || el.type !== "checkbox") return;
    pad.typed(el);
    pad.leave(el);
  });
  root.addEventListener("focusout", (event) => {
    if (isField(event.target)) pad.leave(event.target);
  });

  // Selected on focus, and once more after the browser has placed its caret (unless typing has
  // begun); the tap that focused the field does not undo the selection.
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
      if (el && event.target === el && el.selectionStart === 0 && el.selectionEnd === el.value.length) event.preventDefault();
    });
  }

  root.addEventListener("click", (event) => {
    const step = event.target.closest("button.step");
    if (step) {
      event.preventDefault(); // (without this script, the button posts the pad's form with the step)
      const input = step.parentElement.querySelector("input.number");
      const delta = parseInt(step.value.slice(step.value.lastIndexOf(":") + 1), 10); // (its value: name:±1)
      if (input) pad.stepped(input, delta);
      return;
    }
    const choice = event.target.closest("[data-resolve]");
    if (choice) resolve(choice.dataset.field, choice.dataset.resolve);
  });

  // In a conflict: the player's own value, sent again, or the one another phone stored.
  function resolve(name, choice) {
    const el = inputs.get(name);
    if (!el) return;
    const conflict = pad.state(name);
    const error = document.getElementById(`error-${name}`);
    if (error) {
      error.hidden = true;
      error.textContent = "";
    }
    if (choice === "theirs") pad.setStored(el, conflict.theirs ?? "");
    const after = pad.update(name, "resolved", choice);
    if (choice === "theirs" && after.phase === F.Phase.IDLE) {
      const status = document.getElementById(`status-${name}`);
      if (status) status.textContent = "";
    }
    pad.refreshFigures();
    el.focus();
  }
}
