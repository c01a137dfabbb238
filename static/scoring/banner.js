// The pad's banner (#banner): what happened to this page's values, and what to do. While values
// wait for the network it says how many and why (offline, the server busy or not answering, in
// the server's own words when it gave them); once the page can save nothing more, why, with a
// Reload button (what waits is kept in the outbox: the reload puts it back).

import { Phase } from "./field-state.js";
import { reloadNow } from "./lifecycle.js";

// How many values wait, in the pad's words (msgWaitingOne / msgWaitingMany).
export function waitingWords(count, msg) {
  return count === 1 ? msg("msgWaitingOne") : msg("msgWaitingMany").replace("%(count)s", String(count));
}

// ``msg(key)``: the pad's words; ``fields``: fields.js's store. The banner follows what waits by
// itself: a field that starts or stops waiting for the network ("pad:field"), the network going
// or coming back.
export function setUpBanner(root, { msg, fields }) {
  const problems = { busy: "", server: "" }; // the server's own words for its last 429 and 5xx

  function say(text, offerReload = false) {
    const box = document.getElementById("banner");
    if (!box) return;
    document.getElementById("banner-text").textContent = text;
    document.getElementById("banner-reload").hidden = !offerReload;
    box.hidden = !text;
  }

  // What waits for the network, said again (nothing, once nothing waits); a stopped page's words stay.
  function refresh() {
    if (fields.stopped()) return;
    const retrying = fields.all().filter(({ state }) => state.phase === Phase.RETRYING);
    if (!retrying.length) {
      say("");
      return;
    }
    // How many first: while a field is typed in, the banner is one line cut at its end (app.css).
    const count = waitingWords(retrying.length, msg);
    const because = (problem) => retrying.some(({ state }) => state.problem === problem);
    if (because("busy")) say(`${count} ${problems.busy || msg("msgBusy")}`);
    else if (navigator.onLine === false) say(`${count} ${msg("msgOffline")}`);
    else if (because("server") && problems.server) say(problems.server);
    else say(`${count} ${msg("msgProblem")}`);
  }

  document.getElementById("banner-reload")?.addEventListener("click", reloadNow);
  // A field that starts or stops waiting for the network, or is typed again (a message said while
  // the player was away goes).
  root.addEventListener("pad:field", ({ detail: { before, after } }) => {
    const waits = before.phase === Phase.RETRYING || after.phase === Phase.RETRYING;
    if (waits || (after.phase === Phase.TYPING && before.phase !== Phase.TYPING)) refresh();
  });
  window.addEventListener("online", refresh);
  window.addEventListener("offline", refresh);

  return {
    say,
    // The message said goes: the banner says what waits, if anything does.
    clear: refresh,
    // The server's own words for a 429 ("busy") or a 5xx ("server"), said while values wait for it.
    heard(problem, words) {
      problems[problem] = words;
    },
  };
}
