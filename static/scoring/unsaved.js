// The values of this phone that the server does not have yet (the outbox, store.js), beyond one
// page: put back and sent when the pad opens again, in the order typed (a value still being typed
// when the page went goes on being typed); followed across the tabs of one game; shown apart, with
// what it was and why, when it can no longer be saved (its field is gone), until dismissed; sent
// when the network comes back; and Finish waits for them.

import * as F from "./field-state.js";
import { SAVE_TIMEOUT_MS } from "./saving.js";
import { isIncomplete } from "./sums.js";

export function setUpUnsaved(pad) {
  const { root, inputs, outbox, msg } = pad;
  const apart = document.getElementById("apart");

  // -- when the pad opens --------------------------------------------------------------------------
  let typing = null;
  for (const entry of outbox.entries()) {
    const el = inputs.get(entry.name);
    if (!el || pad.readonly) {
      // (its field is gone, or the game, finished, takes no more values)
      if (!entry.apart) outbox.setApart(entry.name, el ? "finished" : "field");
      continue;
    }
    if (entry.apart) continue;
    // (sent again even when the page shows it stored already, its answer having come after the
    // page went: the server stores a value once, and its answer says "Saved")
    const value = String(entry.value);
    if (el.type === "checkbox") el.checked = value === "1";
    else el.value = value;
    pad.update(entry.name, "restored", { text: value, base: entry.base, typing: entry.typing });
    if (!entry.typing) continue;
    typing = el;
    if (!isIncomplete(value)) pad.typed(el); // (saved after the pause, unless the player goes on)
  }
  // The value typed last, being typed when the page went: the player goes on typing it.
  if (typing && !root.contains(document.activeElement)) {
    typing.dataset.caretAtEnd = "1";
    typing.focus({ preventScroll: false });
  }
  showApart();
  if (pad.readonly) return;

  // -- values that can no longer be saved ----------------------------------------------------------
  function showApart() {
    if (!apart) return;
    const list = apart.querySelector("ul");
    list.replaceChildren();
    for (const entry of outbox.entries().filter((item) => item.apart)) {
      const item = document.createElement("li");
      const said = document.createElement("span");
      said.id = `apart-${entry.name}`;
      said.textContent = msg(entry.apart === "finished" ? "msgApartFinished" : "msgApart")
        .replace("%(value)s", entry.value === "" ? "\u2014" : entry.value).replace("%(what)s", entry.label);
      const dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "button small";
      dismiss.textContent = msg("msgDismiss");
      dismiss.setAttribute("aria-describedby", said.id); // (which value: its sentence)
      dismiss.addEventListener("click", () => {
        outbox.drop(entry.name);
        showApart();
      });
      item.append(said, " ", dismiss);
      list.append(item);
    }
    apart.hidden = !list.children.length;
  }

  // -- another tab of this game ----------------------------------------------------------------
  // Another tab saved (or typed over) a value this tab was holding: this tab follows the outbox
  // rather than sending its own, older copy.
  window.addEventListener("storage", (event) => {
    if (event.key !== outbox.store.key) return;
    for (const [name, el] of inputs) {
      const s = pad.state(name);
      if (!F.isPending(s) || s.flight !== null) continue;
      const entry = outbox.get(name);
      if (entry && String(entry.value) === pad.valueOf(el)) continue;
      if (entry && !entry.apart) {
        pad.setStored(el, el.type === "checkbox" ? (entry.value === "1" ? "True" : "False") : String(entry.value));
        pad.update(name, "restored", { text: String(entry.value), base: entry.base, typing: false });
      } else {
        pad.update(name, "savedElsewhere");
        pad.fresh(); // (its value as saved comes with the next poll)
      }
    }
    showApart();
    pad.refreshBanner();
    pad.refreshFigures();
  });

  // -- the network, and leaving ------------------------------------------------------------------
  window.addEventListener("online", () => pad.retryAll());
  // A page being left sends what is due with keepalive; a value still being typed waits in the
  // outbox for the pad's next opening.
  window.addEventListener("pagehide", () => {
    if (navigator.onLine === false) return;
    for (const name of inputs.keys()) if (pad.state(name).phase === F.Phase.RETRYING) pad.update(name, "retry");
  });
  window.addEventListener("beforeunload", (event) => {
    if (pad.leaving() || ![...inputs.keys()].some((name) => F.isPending(pad.state(name)))) return;
    event.preventDefault();
    event.returnValue = "";
  });

  setUpFinish(pad);
}

// Finish: with this script, post the empty finish form once every value is saved. A value
// being typed is left first (so saved, when it can be complete); one the player must deal
// with (not complete, refused, in conflict, not sent) holds Finish back, and the banner says which.
function setUpFinish(pad) {
  const { inputs, msg } = pad;
  const button = document.getElementById("finish-button");
  const form = document.getElementById("finish-form");
  if (!button || !form) return;
  button.setAttribute("form", "finish-form");
  button.removeAttribute("formaction");
  form.addEventListener("submit", (event) => {
    for (const el of inputs.values()) pad.leave(el);
    const pending = () => [...inputs].filter(([name]) => F.isPending(pad.state(name)));
    if (!pending().length) {
      pad.finishing();
      return;
    }
    event.preventDefault();
    const started = Date.now();
    (function wait() {
      const held = pending().find(([name]) => F.blocksFinish(pad.state(name)));
      if (held) {
        pad.banner(msg("msgFinishBlocked").replace("%(what)s", held[1].getAttribute("aria-label")));
        held[1].focus();
      } else if (!pending().length) {
        pad.banner("");
        pad.finishing();
        form.submit();
      } else if (Date.now() - started > SAVE_TIMEOUT_MS) {
        pad.refreshBanner();
      } else {
        pad.banner(msg("msgFinishing"));
        setTimeout(wait, 100);
      }
    })();
  });
}
