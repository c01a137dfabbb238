// The server's HTML applied to the pad: a poll's answer (every value, and out of band every
// figure), a save's (its field's status, its error, the figures its kind can change and, for a
// comb step, the other cells of its sector), and the values they bring handed to the fields
// nobody is working on. htmx makes the out-of-band swaps (into #live, which holds an answer only
// while it is applied).
//
// Answers can arrive out of order (two fields saved at once, a poll overtaken by a save): the
// pad's data-revision is the game's revision the figures on screen show, and figures older than
// those are dropped.

import { takesOthers } from "./field-state.js";
import { setStored, storedMatches } from "./fields.js";

const CHANGED_ELSEWHERE_MS = 2500; // how long a value another phone changed stays marked

// ``root``: the pad; ``live``: #live; ``fields``: fields.js's store.
export function createAnswers(root, live, fields) {
  // A value that came for the field in focus, held until the player leaves it (never changed
  // under their fingers), then shown unless they typed there meanwhile (their save meets it: a
  // conflict, for them to settle). Never dropped: the pad's revision has moved past it already.
  const heldForFocus = new Map();
  root.addEventListener("focusout", (event) => {
    const name = event.target?.name;
    const held = name ? heldForFocus.get(name) : null;
    if (!held) return;
    heldForFocus.delete(name);
    setTimeout(() => showStored(fields, heldForFocus, name, held)); // (once the focus has moved on)
  });

  // What a poll's answer, swapped into #live, brings: every value, handed to its field.
  function takeValues() {
    for (const item of live.querySelectorAll("[data-name]")) received(fields, heldForFocus, item);
    live.innerHTML = "";
    dimRows(root);
  }

  // A save's answer: the field's status first, then (out of band) its error and the figures its
  // kind can change, and for a comb step the other cells of its sector. The status element it
  // brought is returned (its data-version and data-stored say what is stored now).
  function applySave(html, revision) {
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const status = holder.querySelector("[data-status]");
    status?.remove();
    const cells = holder.querySelector("[data-live]");
    cells?.remove();
    const fresh = newer(root, revision);
    if (!fresh) {
      for (const el of holder.querySelectorAll("[hx-swap-oob]:not(.field-error)")) el.remove();
    }
    for (const error of holder.querySelectorAll(".field-error")) placeError(error, fields);
    htmx.swap(live, holder.innerHTML, { swapStyle: "none" });
    if (status) document.getElementById(status.id)?.replaceWith(status);
    if (cells && fresh) {
      for (const item of cells.querySelectorAll("[data-name]")) received(fields, heldForFocus, item);
    }
    dimRows(root);
    return status;
  }

  return {
    newer: (revision) => newer(root, revision),
    takeValues,
    // A poll's answer kept for the offline copy, applied again (every value, every figure).
    applyPoll(html) {
      htmx.swap(live, html, { swapStyle: "innerHTML" });
      takeValues();
    },
    applySave,
    // A save's answer shown again on the offline copy: the field shows what it stored.
    statusArrived(status) {
      const name = status.id.slice("status-".length);
      const { version, stored } = status.dataset;
      showStored(fields, heldForFocus, name, { version: Number(version), stored, html: null });
    },
  };
}

// Whether figures of ``revision`` are not older than those shown (the pad's data-revision, which
// they then are).
function newer(root, revision) {
  if (Number.isNaN(revision)) return true; // (an answer that does not say: taken as it is)
  if (revision < Number(root.dataset.revision || 0)) return false;
  root.dataset.revision = String(revision);
  return true;
}

// A poll's value ([data-name], its status inside); a comb sector's award follows every
// phone's tokens, so it is brought up to date whatever the version.
function received(fields, held, item) {
  const name = item.dataset.name;
  if (!fields.input(name)) return;
  const value = { version: Number(item.dataset.version), stored: item.dataset.stored, html: item.innerHTML };
  if (!showStored(fields, held, name, value)) {
    const status = document.getElementById(`status-${name}`);
    if (status && !status.dataset.state) syncAward(status, item);
  }
}

// Another phone's value ({ version, stored, html: its status, or null }), shown in its field
// when nothing of this page's waits there, once the player is not in it (else ``held`` for when
// they leave it); whether it was shown now.
function showStored(fields, held, name, { version, stored, html }) {
  const el = fields.input(name);
  if (!el) return false;
  const s = fields.state(name);
  const status = document.getElementById(`status-${name}`);
  if (!takesOthers(s) || version <= s.base) return false;
  if (document.activeElement === el) {
    if (!(held.get(name)?.version >= version)) held.set(name, { version, stored, html });
    return false;
  }
  fields.update(name, "received", { version });
  const changed = !storedMatches(el, stored);
  setStored(el, stored);
  el.dataset.version = String(version);
  if (status && html !== null) status.innerHTML = html;
  if (changed) {
    const cell = el.closest(".cell");
    cell?.classList.add("changed-elsewhere");
    setTimeout(() => cell?.classList.remove("changed-elsewhere"), CHANGED_ELSEWHERE_MS);
  }
  return true;
}

// The comb sector's award in a field's status, as the poll's item has it.
function syncAward(status, item) {
  const fresh = item.querySelector(".award");
  const shown = status.querySelector(".award");
  if (fresh && shown) {
    if (shown.textContent !== fresh.textContent) shown.textContent = fresh.textContent;
  } else if (fresh) {
    status.append(fresh.cloneNode(true));
  } else {
    shown?.remove();
  }
}

// A category row is dimmed while nobody has entered it (its heading's data-entered).
function dimRows(root) {
  for (const label of root.querySelectorAll(".row-label[data-entered]")) {
    label.closest(".row")?.classList.toggle("not-entered", label.dataset.entered !== "1");
  }
}

// A field's error is on the page only while it has something to say: the paragraph an answer
// brings for a field that shows none takes its place first (under its row's cells, in seat
// order, as the server writes them), and one that clears an error not shown is dropped.
function placeError(error, fields) {
  if (document.getElementById(error.id)) return;
  const fieldOf = (other) => fields.input(other.id.slice("error-".length));
  const input = fieldOf(error);
  const row = input?.closest(".row");
  if (error.hidden || !row) {
    error.remove();
    return;
  }
  const place = document.createElement("p");
  place.id = error.id;
  place.hidden = true;
  const inRow = [...row.querySelectorAll("[data-field]")];
  const after = (other) => inRow.indexOf(fieldOf(other)) > inRow.indexOf(input);
  row.insertBefore(
    place,
    [...row.querySelectorAll(".field-error")].find(after) ?? row.querySelector(".field-warnings"),
  );
}
