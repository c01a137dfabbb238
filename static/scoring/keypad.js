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

// ``fields``: fields.js's store (every field in the page's order, whether Next may land on one);
// ``typing``: typing.js's (leave(el), stepped(el, delta)); ``seat``: the one player's sheet, or null.
export function setUpKeypad({ fields, typing, seat }) {
  // Next: the field it goes to from ``from`` gets the focus, or the keyboard closes.
  function next(from) {
    typing.leave(from);
    const els = fields.all().map(({ el }) => el);
    const described = els.map((el) => ({ el, seat: Number(el.dataset.seat), free: fields.isFree(el) }));
    const to = nextField(described, described[els.indexOf(from)], moveOrder(localStorage), { seat });
    if (to) {
      to.el.focus({ preventScroll: true });
      to.el.scrollIntoView({ block: "center" });
    } else {
      from.blur();
    }
  }

  rememberOrder();
  setUpBar(next);
  document.addEventListener("keydown", (event) => {
    const el = event.target;
    if (!el.matches("#pad [data-field]")) return;
    if (el.matches(".stepper input") && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      typing.stepped(el, event.key === "ArrowUp" ? 1 : -1);
    } else if (event.key === "Enter") {
      event.preventDefault(); // (not the form's submit: Next saves this field and moves on)
      next(el);
    }
  });
}

// The order chosen over the names, remembered on the phone.
function rememberOrder() {
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
}

// The bar, shown while a sum is typed: what is typed, whose field it is, a + and a − that type
// themselves, and Next (``next(el)``).
function setUpBar(next) {
  const bar = document.getElementById("keypad-bar");
  const readout = document.getElementById("keypad-readout");
  const what = document.getElementById("keypad-what");
  let served = null; // the sum field the bar serves

  function show(input) {
    served = input;
    bar.hidden = false;
    what.textContent =
      document.querySelector(`.names .name[data-seat="${input.dataset.seat}"]`)?.textContent || "";
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
      if (!document.activeElement?.matches("#pad input.sum")) bar.hidden = true;
    }, 0);
  });
  document.addEventListener("input", (event) => {
    if (event.target === served) readout.textContent = served.value;
  });

  // The bar's buttons keep the keyboard up (no focus taken from the field).
  bar.addEventListener("pointerdown", (event) => {
    if (event.target.closest("button")) event.preventDefault();
  });
  bar.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || !served) return;
    const input = served;
    if (button.dataset.insert) {
      const start = input.selectionStart ?? input.value.length;
      const end = input.selectionEnd ?? input.value.length;
      input.value = input.value.slice(0, start) + button.dataset.insert + input.value.slice(end);
      input.focus({ preventScroll: true });
      input.setSelectionRange(start + 1, start + 1);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    } else if (button.hasAttribute("data-next")) {
      next(input);
    }
  });
}
