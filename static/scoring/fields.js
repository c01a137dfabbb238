// The pad's fields and what the phone holds of them: each field's one state (field-state.js), its
// timer (the pause before a value is saved, or the wait before it is sent again), the outbox kept
// in step with the states (store.js: each value the server does not have yet, kept on the phone),
// the values entered on this phone, and why this page can save nothing more, if it cannot.
//
// Every change of a state goes through ``update``, which keeps it, then says so on the pad's root:
// "pad:field" ({ name, el, before, after }: each change; statuses.js, figures.js and banner.js
// follow it) and, once the update has returned, "pad:due" ({ name, sent }: a save to send now, if
// the field still has it due; sending.js sends it). So no update ever runs inside another, and the
// state ``update`` returns is the field's.

import * as F from "./field-state.js";
import { normalize } from "./sums.js";

// What a field holds, as a save sends it (a yes: "1", or "" when not ticked).
export function fieldValue(el) {
  return el.type === "checkbox" ? (el.checked ? "1" : "") : el.value;
}

// The field shows the value the server stored (a yes: "True" or "False").
export function storedMatches(el, stored) {
  return el.type === "checkbox" ? el.checked === (stored === "True") : normalize(el.value) === stored;
}

export function setStored(el, stored) {
  if (el.type === "checkbox") el.checked = stored === "True";
  else el.value = stored;
  showEnd(el);
}

// A field not being typed in shows the end of what it holds: a sum too long for a narrow column
// reads "…6+2", its last number and its result below it (issue 36), not "3+6+" cut; marked
// clipped (data-clipped: app.css writes the "…" over its start), so that its end never reads as
// another value, "+6+2" (issue 49).
export function showEnd(el) {
  showEnds([el]);
}

// showEnd for many fields at once (the pad's, as it opens), the page laid out once: every width
// read before any field is changed. (Read and changed field by field, each field's width made the
// browser lay the page out again: 156 layouts as a pad of 20 sectors opened, issue 51.)
export function showEnds(els) {
  const shown = [...els].filter((el) => el.type !== "checkbox" && el !== document.activeElement);
  const widths = shown.map((el) => [el.scrollWidth, el.clientWidth]);
  shown.forEach((el, index) => {
    const [held, width] = widths[index];
    if (held > width) el.scrollLeft = held;
    el.toggleAttribute("data-clipped", held > width);
  });
}

// What a field's row says of its kind: its limits (min, max), a category's section and VP per
// unit (section, vpEach), whether it holds a comb sector's tokens (comb).
export function kindOf(el) {
  return el.closest("[data-min]").dataset;
}

// The field's words, to name it where it is not in view (its accessible name).
export function labelOf(el) {
  return el.getAttribute("aria-label") || el.name;
}

// ``root``: the pad ([data-pad]), its fields [data-field]; ``outbox``: store.js's Outbox;
// ``here``: store.js's kept() for {name: version}, the values entered on this phone.
export function createFields(root, { outbox, here }) {
  const inputs = new Map([...root.querySelectorAll("[data-field]")].map((el) => [el.name, el]));
  const states = new Map();
  const timers = new Map(); // field name -> its pause's or its retry's timer
  const enteredHere = here.read({});
  let stopped = ""; // why this page can save nothing more

  function state(name) {
    if (!states.has(name)) {
      const version = Number(inputs.get(name).dataset.version);
      states.set(name, F.initial(version, { here: enteredHere[name] === version }));
    }
    return states.get(name);
  }

  function say(type, detail) {
    root.dispatchEvent(new CustomEvent(type, { detail }));
  }

  // One change of a field's state (``event``, one of field-state.js's), and what follows from it;
  // the state it made. A save it made due is said once this update (and the code that asked for
  // it) has run, if the field is still in that state (a later change says its own).
  function update(name, event, ...args) {
    const before = state(name);
    let after = F.next(before, event, ...args);
    if (stopped && F.due(after)) after = F.next(after, "stop");
    states.set(name, after);
    keep(name, after);
    say("pad:field", { name, el: inputs.get(name), before, after });
    const sent = F.due(after);
    if (sent) queueMicrotask(() => states.get(name) === after && say("pad:due", { name, sent }));
    return after;
  }

  function keep(name, s) {
    const el = inputs.get(name);
    if (F.isPending(s)) {
      const value = s.text ?? fieldValue(el);
      outbox.put(name, { value, base: s.base, label: labelOf(el), typing: s.phase === F.Phase.TYPING });
    } else {
      outbox.drop(name);
    }
  }

  return {
    input: (name) => inputs.get(name),
    // Every field in the page's order, with its state: [{ name, el, state }].
    all: () => [...inputs].map(([name, el]) => ({ name, el, state: state(name) })),
    state,
    update,
    // The field's timer, which replaces the one it had (``later``), or none (``cancel``).
    later(name, run, ms) {
      clearTimeout(timers.get(name));
      timers.set(name, setTimeout(run, ms));
    },
    cancel: (name) => clearTimeout(timers.get(name)),
    // This page can save nothing more (``reason``): every field stops, what waits staying on
    // screen. Whether it stopped now (false: it had stopped already).
    stop(reason) {
      if (stopped) return false;
      stopped = reason;
      for (const name of inputs.keys()) update(name, "stop");
      return true;
    },
    stopped: () => stopped,
    // The server stored this phone's value (at ``version``): entered here (Next may select it).
    enteredHere(name, version) {
      enteredHere[name] = version;
      here.write(enteredHere, false);
    },
    // Next may land on the field: it holds nothing another phone entered.
    isFree(el) {
      const s = state(el.name);
      return s.here || s.base === 0 || (el.type === "checkbox" ? !el.checked : el.value.trim() === "");
    },
  };
}
