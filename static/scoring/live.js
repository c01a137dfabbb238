// What the server sends the pad, applied: other phones' saves (htmx polls #live, declared in
// templates/scoring/pad.html), a save's answer, an undo's; and the answers this phone last
// applied, kept for the page's offline copy to show them again (the copy is the page as first
// loaded: replaying them brings it to what the phone last showed).
//
// htmx makes the requests and the out-of-band swaps; this module adds the ETag (a poll that finds
// nothing new is a 304 with no body; after this page's own save, the ETag of the save's revision
// when nothing else was written between: saving.js, pollAfterSave), holds the poll while the page
// is hidden or can save no more, asks at once when the page is shown again or the network is
// back, and hands the values to the fields nobody is working on (pad.received).

import { isCopy } from "./offline.js";
import { outdated, pollAfterSave, revisionOf } from "./saving.js";
import { forgetOldAnswers, kept } from "./store.js";

const MAX_KEPT_ANSWERS = 30; // per game (a poll's answer holds the whole game: the list starts again with each)
const WHOLE_POLL_AT = 25; // kept answers from which the next poll asks for the whole game (the list starts again)
const NOTHING_POLLED = { etag: null, revision: NaN }; // the next poll brings every value and figure
const KEPT_GAMES = 12; // the pads whose answers are kept: those this session opened last

// ``pad``: pad.js's pad (root, game, tag, view, inputs, stopped(), received(item), statusArrived(status),
// gone(sentence), outdated(reason), dimRows(), refreshFigures(), banner(text, reload)).
export function setUpLive(pad) {
  const live = document.getElementById("live");
  const answers = kept(localStorage, pad.tag, pad.game, `answers:${pad.view}`);
  forgetOldAnswers(localStorage, pad.tag, KEPT_GAMES);
  // The ETag the next poll sends, and the revision it is for (saving.js, pollAfterSave): first the
  // page's own (it shows the game as a poll at its revision would), but never an offline copy's.
  const { pollEtag, revision: shown } = pad.root.dataset;
  let polled = pollEtag && !isCopy() ? { etag: pollEtag, revision: Number(shown) } : NOTHING_POLLED;

  const poll = () => htmx.trigger(live, "poll-now");
  const changesShown = () => !!document.getElementById("changes-box")?.open;

  // The game's revision the figures on screen show: answers can arrive out of order (two fields
  // saved at once, a poll overtaken by a save), and figures older than those shown are dropped.
  function newer(revision) {
    if (Number.isNaN(revision)) return true; // (an answer that does not say: taken as it is)
    if (revision < Number(pad.root.dataset.revision || 0)) return false;
    pad.root.dataset.revision = String(revision);
    return true;
  }

  function keep(kind, revision, html) {
    const list = kind === "poll" ? [] : answers.read([]);
    list.push({ kind, revision, html, at: Math.floor(Date.now() / 1000) });
    answers.write(list.length > MAX_KEPT_ANSWERS ? [list[0], ...list.slice(1 - MAX_KEPT_ANSWERS)] : list, false);
    if (list.length >= WHOLE_POLL_AT) polled = NOTHING_POLLED; // (saves polled on from: before the list is full)
  }

  // A poll's answer: every value, and out of band every figure.
  function applyPoll(html) {
    htmx.swap(live, html, { swapStyle: "innerHTML" });
    applyItems(live.querySelectorAll("[data-name]"));
    live.innerHTML = "";
    pad.dimRows();
  }

  function applyItems(items) {
    items.forEach((item) => pad.received(item));
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
    const fresh = newer(revision);
    if (!fresh) holder.querySelectorAll("[hx-swap-oob]:not(.field-error)").forEach((el) => el.remove());
    holder.querySelectorAll(".field-error").forEach(placeError);
    htmx.swap(live, holder.innerHTML, { swapStyle: "none" });
    if (status) document.getElementById(status.id)?.replaceWith(status);
    if (cells && fresh) applyItems(cells.querySelectorAll("[data-name]"));
    pad.dimRows();
    return status;
  }

  // A field's error is on the page only while it has something to say: the paragraph an answer
  // brings for a field that shows none takes its place first (under its row's cells, in seat
  // order, as the server writes them), and one that clears an error not shown is dropped.
  function placeError(error) {
    if (document.getElementById(error.id)) return;
    const input = pad.inputs.get(error.id.slice("error-".length));
    const row = input?.closest(".row");
    if (error.hidden || !row) {
      error.remove();
      return;
    }
    const place = document.createElement("p");
    place.id = error.id;
    place.hidden = true;
    const fields = [...row.querySelectorAll("[data-field]")];
    const after = (other) => fields.indexOf(pad.inputs.get(other.id.slice("error-".length))) > fields.indexOf(input);
    row.insertBefore(place, [...row.querySelectorAll(".field-error")].find(after) ?? row.querySelector(".field-warnings"));
  }

  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt !== live) return;
    if (document.visibilityState === "hidden" || pad.stopped()) {
      event.preventDefault(); // (asked again as soon as the page is shown)
      return;
    }
    if (polled.etag) event.detail.headers["If-None-Match"] = polled.etag;
    if (changesShown()) event.detail.parameters.changes = "1";
  });

  // A poll (or the recent changes' fold) that found nothing new (304), the game gone (286, 404),
  // an answer for another session or way of counting, or older figures than those shown: not swapped.
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target !== live) return;
    const xhr = event.detail.xhr;
    const headers = { get: (name) => xhr.getResponseHeader(name) };
    const stale = outdated(headers, pad);
    if (stale) pad.outdated(stale);
    else if (xhr.status === 286 || xhr.status === 404) pad.gone(xhr.responseText);
    if (xhr.status !== 200 || stale || !newer(revisionOf(headers))) {
      event.detail.shouldSwap = false;
      return;
    }
    if (event.detail.requestConfig?.elt === live && xhr.getResponseHeader("ETag")) {
      polled = { etag: xhr.getResponseHeader("ETag"), revision: revisionOf(headers) };
    }
    keep("poll", Number(pad.root.dataset.revision), xhr.responseText);
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target !== live) return;
    applyItems(live.querySelectorAll("[data-name]"));
    live.innerHTML = "";
    pad.dimRows();
    pad.refreshFigures();
  });

  // An undo (htmx posts it; its answer is the recent changes and every figure): the values follow by a poll.
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    if (!form.matches || !form.matches("form[data-undo]")) return;
    const xhr = event.detail.xhr;
    if (xhr.status === 200 || xhr.status === 409) {
      poll();
      return;
    }
    const plain = (xhr.getResponseHeader("Content-Type") || "").startsWith("text/plain") && xhr.responseText.length < 400;
    pad.banner(plain ? xhr.responseText : pad.msg("msgRefused").replace("%(status)s", String(xhr.status)), true);
  });

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") poll();
  });
  window.addEventListener("online", () => {
    polled = NOTHING_POLLED; // (the page may be its copy from before)
    poll();
  });

  // The answers this phone last applied, shown again on the page's offline copy: the newest
  // (those newer than the copy) in the order they came. Their time is the copy's.
  function replay() {
    let newest = null;
    for (const answer of answers.read([])) {
      if (answer.revision <= Number(pad.root.dataset.revision || 0)) continue;
      if (answer.kind === "poll") {
        pad.root.dataset.revision = String(answer.revision);
        applyPoll(answer.html);
      } else {
        const status = applySave(answer.html, answer.revision);
        if (status) pad.statusArrived(status);
      }
      newest = answer.at;
    }
    return newest;
  }

  return {
    poll,
    changesShown,
    replay,
    // A save's answer applied; kept for the copy when it is the game as it stands, and the poll
    // goes on from its revision when its write is the only one since the last poll.
    saveAnswered(html, revision, etag) {
      const status = applySave(html, revision);
      if (Number(pad.root.dataset.revision) === revision) {
        polled = pollAfterSave(polled, { etag, revision });
        keep("save", revision, html);
      }
      return status;
    },
    fresh() {
      polled = NOTHING_POLLED;
      poll();
    },
  };
}
