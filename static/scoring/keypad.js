// Moving through the pad by keyboard, and the +/− bar (an iPhone's numeric keypad has no + key).
//
// Next (the keyboard's Enter, or the bar's Next) goes across the players or down each player's
// column, as chosen over the names (remembered on the phone). It lands only on a field that holds
// nothing another phone entered: an empty field, one the game filled in at its start (a seat's
// starting VP), or one this phone entered; there it selects the value, so typing replaces it.
// Another phone's value is skipped, never selected: one more digit would replace it unseen. On
// one player's sheet, Next stays within that player.
//
// The bar covers the pad's sticky names while a sum is typed (they share one row, as tall as the
// bar, so nothing moves as it comes and goes): it shows what is typed, whole, and whose field it is
// (the names it covers).

export const ORDER_KEY = "apiary-move-order"; // the phone's choice, not a session's

// The field Next goes to from ``from``, or null (the last one: the keyboard closes). ``fields``
// in the page's order, each { seat, free }: free when Next may land there.
export function nextField(fields, from, order, { seat = null } = {}) {
  const place = new Map(fields.map((field, index) => [field, index]));
  let ordered = seat === null ? fields : fields.filter((field) => field.seat === seat);
  if (order === "down") ordered = [...ordered].sort((a, b) => a.seat - b.seat || place.get(a) - place.get(b));
  const start = ordered.indexOf(from);
  return ordered.slice(start + 1).find((field) => field.free) || null;
}

export function moveOrder(storage) {
  try {
    return storage.getItem(ORDER_KEY) === "down" ? "down" : "across";
  } catch {
    return "across";
  }
}

// -- on the page -------------------------------------------------------------------------------------

// ``pad``: the pad's fields (pad.js): pad.fields() in the page's order, pad.isFree(el), pad.leave(el),
// pad.stepped(el, delta), and pad.seat (the one player's sheet, or null).
export function setUpKeypad(pad) {
  const bar = document.getElementById("keypad-bar");
  const readout = document.getElementById("keypad-readout");
  const what = document.getElementById("keypad-what");
  let typing = null; // the sum field the bar serves

  document.querySelectorAll('input[name="move-order"]').forEach((radio) => {
    radio.checked = radio.value === moveOrder(localStorage);
    radio.addEventListener("change", () => {
      try {
        localStorage.setItem(ORDER_KEY, radio.value);
      } catch {
        // not remembered: Next goes the default way after a reload
      }
    });
  });

  function focusNext(from) {
    const fields = pad.fields();
    const described = fields.map((el) => ({ el, seat: Number(el.dataset.seat), free: pad.isFree(el) }));
    const next = nextField(described, described[fields.indexOf(from)], moveOrder(localStorage), { seat: pad.seat });
    if (next) {
      next.el.focus({ preventScroll: true });
      next.el.scrollIntoView({ block: "center" });
    } else {
      from.blur();
    }
  }

  // The bar shows what is typed, and whose field it is.
  function show(input) {
    typing = input;
    bar.hidden = false;
    what.textContent = document.querySelector(`.names .name[data-seat="${input.dataset.seat}"]`)?.textContent || "";
    readout.textContent = input.value;
  }

  document.addEventListener("focusin", (event) => {
    const el = event.target;
    if (!el.matches("#pad [data-field]")) return;
    if (el.classList.contains("sum")) show(el);
    else bar.hidden = true;
  });
  document.addEventListener("focusout", () => {
    setTimeout(() => {
      if (!document.activeElement || !document.activeElement.matches("#pad input.sum")) bar.hidden = true;
    }, 0);
  });
  document.addEventListener("input", (event) => {
    if (event.target === typing) readout.textContent = typing.value;
  });

  // The bar's buttons keep the keyboard up (no focus taken from the field).
  bar.addEventListener("pointerdown", (event) => {
    if (event.target.closest("button")) event.preventDefault();
  });
  bar.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || !typing) return;
    const input = typing;
    if (button.dataset.insert) {
      const start = input.selectionStart ?? input.value.length;
      const end = input.selectionEnd ?? input.value.length;
      input.value = input.value.slice(0, start) + button.dataset.insert + input.value.slice(end);
      input.focus({ preventScroll: true });
      input.setSelectionRange(start + 1, start + 1);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    } else if (button.hasAttribute("data-next")) {
      pad.leave(input);
      focusNext(input);
    }
  });

  document.addEventListener("keydown", (event) => {
    const el = event.target;
    if (!el.matches("#pad [data-field]")) return;
    if (el.matches(".stepper input") && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      pad.stepped(el, event.key === "ArrowUp" ? 1 : -1);
    } else if (event.key === "Enter") {
      event.preventDefault(); // (not the form's submit: Next saves this field and moves on)
      pad.leave(el);
      focusNext(el);
    }
  });
}
