// The values of this phone that the server does not have yet (the outbox, store.js), beyond one
// page: put back and sent when the pad opens again, in the order typed (a value still being typed
// when the page went goes on being typed); followed across the tabs of one game; shown apart, with
// what it was and why, when it can no longer be saved (its field is gone), until dismissed; sent
// when the network comes back.

import { isPending, Phase } from "./field-state.js";
import { fieldValue, setStored, showEnd } from "./fields.js";
import { isLeaving } from "./lifecycle.js";
import { isIncomplete } from "./sums.js";

// ``outbox``: store.js's Outbox; ``fields``: fields.js's store; ``typing``: typing.js's (typed);
// ``msg(key)``: the pad's words; ``readonly``: the game takes no more values (finished).
export function setUpUnsaved(root, { outbox, fields, typing, msg, readonly }) {
  const showApart = apartList(outbox, msg);
  putBack(root, { outbox, fields, typing, readonly });
  showApart();
  // The game was finished under this page (stopping.js): what waited can no longer be saved.
  root.addEventListener("pad:finished", () => {
    for (const entry of outbox.entries()) if (!entry.apart) outbox.setApart(entry.name, "finished");
    showApart();
  });
  if (readonly) return;
  followOtherTabs(root, { outbox, fields, showApart });

  // -- the network, and leaving ------------------------------------------------------------------
  const retryAll = () => {
    for (const { name, state } of fields.all()) {
      if (state.phase === Phase.RETRYING) fields.update(name, "retry");
    }
  };
  window.addEventListener("online", retryAll);
  // A page being left sends what is due with keepalive; a value still being typed waits in the
  // outbox for the pad's next opening.
  window.addEventListener("pagehide", () => {
    if (navigator.onLine !== false) retryAll();
    rememberFocus(root, outbox);
  });
  window.addEventListener("beforeunload", (event) => {
    if (isLeaving() || fields.stopped() === "finished") return; // (what waited is shown apart, and kept)
    if (!fields.all().some(({ state }) => isPending(state))) return;
    event.preventDefault();
    event.returnValue = "";
  });
}

// -- when the pad opens ----------------------------------------------------------------------------
function putBack(root, { outbox, fields, typing, readonly }) {
  let typed = null;
  for (const entry of outbox.entries()) {
    const el = fields.input(entry.name);
    if (!el || readonly) {
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
    showEnd(el);
    fields.update(entry.name, "restored", { text: value, base: entry.base, typing: entry.typing });
    if (!entry.typing) continue;
    typed = el;
    if (!isIncomplete(value)) typing.typed(el); // (saved after the pause, unless the player goes on)
  }
  // The value typed last, being typed when the page went, else the field the player was in (a
  // reload right after typing, the value sent as the page went): the player goes on there, the
  // +/− bar with them.
  const goOn = typed || focusRemembered(root, outbox);
  if (goOn && !readonly && !root.contains(document.activeElement)) {
    goOn.dataset.caretAtEnd = "1";
    goOn.focus({ preventScroll: false });
  }
}

// The field in focus as the page went, remembered for this tab (sessionStorage) under the
// session's and the game's key, and read once.
function rememberFocus(root, outbox) {
  const el = document.activeElement;
  try {
    if (el?.matches?.("[data-field]") && root.contains(el))
      sessionStorage.setItem(outbox.keyFor("focus"), el.name);
  } catch {
    // storage refused: the page opens without a field in focus
  }
}

function focusRemembered(root, outbox) {
  try {
    const key = outbox.keyFor("focus");
    const name = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    return name ? root.querySelector(`[data-field][name="${CSS.escape(name)}"]`) : null;
  } catch {
    return null;
  }
}

// -- values that can no longer be saved ------------------------------------------------------------
// Returns what shows them again (#apart), as the outbox has them.
function apartList(outbox, msg) {
  const apart = document.getElementById("apart");
  return function showApart() {
    if (!apart) return;
    const list = apart.querySelector("ul");
    list.replaceChildren();
    for (const entry of outbox.entries().filter((item) => item.apart)) {
      const item = document.createElement("li");
      const said = document.createElement("span");
      said.id = `apart-${entry.name}`;
      said.textContent = msg(entry.apart === "finished" ? "msgApartFinished" : "msgApart")
        .replace("%(value)s", entry.value === "" ? "\u2014" : entry.value)
        .replace("%(what)s", entry.label);
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
  };
}

// -- another tab of this game ----------------------------------------------------------------------
// Another tab saved (or typed over) a value this tab was holding: this tab follows the outbox
// rather than sending its own, older copy.
function followOtherTabs(root, { outbox, fields, showApart }) {
  window.addEventListener("storage", (event) => {
    if (!outbox.isKey(event.key)) return;
    for (const { name, el, state } of fields.all()) {
      if (!isPending(state) || state.flight !== null) continue;
      const entry = outbox.get(name);
      if (entry && String(entry.value) === fieldValue(el)) continue;
      if (entry && !entry.apart) {
        setStored(
          el,
          el.type === "checkbox" ? (entry.value === "1" ? "True" : "False") : String(entry.value),
        );
        fields.update(name, "restored", { text: String(entry.value), base: entry.base, typing: false });
      } else {
        fields.update(name, "savedElsewhere");
        root.dispatchEvent(new Event("pad:poll-whole")); // (its value as saved comes with the next poll)
      }
    }
    showApart();
  });
}
