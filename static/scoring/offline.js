// Every page's module (templates/base.html): the service worker (templates/sw.js), the notes a
// page shows about it, and this session's own storage.
//
// A page the service worker shows from the phone's copy (body[data-offline-copy]: the network
// failed, or was slow to answer) says so, and of when. It gives way to the live page as soon as
// the server answers: the worker says so when the answer it waited for comes, and the copy asks
// the server itself, every data-poll-ms and whenever the browser says something may have changed
// (the phone back online, the page shown again). A browser may not say so at all: the interval
// alone is enough, the events only make it sooner. It reloads once no form field has the focus,
// so that nothing is reloaded under a player's fingers (lifecycle.js).

import { clockText } from "./clock.js";
import { reloadNow, reloadWhenFree } from "./lifecycle.js";
import { forgetOtherSessions } from "./store.js";

// This page is reloading itself (the browser journeys ask it of a copy that waits for a field to be left).
export { isLeaving as givingWay } from "./lifecycle.js";

const body = document.body;
const HEALTH_URL = "/healthz"; // any HTTP answer says the server answers (apiary_site/health.py)

// This page is an offline copy (the service worker marked it).
export function isCopy() {
  return body.hasAttribute("data-offline-copy");
}

// Shows a note (its words in data-text), its %(time)s the time of ``seconds`` since the epoch,
// written as the server writes a time (data-time-format: "21:14", in French "21 h 14").
function note(id, seconds) {
  const el = document.getElementById(id);
  if (!el) return;
  let text = el.dataset.text || "";
  if (seconds) {
    text = text.replace(
      "%(time)s",
      clockText(new Date(Number(seconds) * 1000), el.dataset.timeFormat || "H:i"),
    );
  }
  el.textContent = text;
  el.hidden = false;
}

// Shows, or updates, the copy's note: the page as of ``seconds`` (the pad: its newest answer replayed).
export function copyNote(seconds) {
  note("offline-copy", seconds);
}

// The copy asks the server whether it answers, and gives way to the live page if it does.
function ask() {
  fetch(HEALTH_URL, { cache: "no-store" }).then(reloadWhenFree, () => {
    /* no answer yet: asked again */
  });
}

// Registers the service worker; a newer version taking over this page says so.
function registerWorker() {
  const worker = navigator.serviceWorker;
  if (!worker || !body.dataset.sw) return; // (no service worker: a private window, plain HTTP)
  let controlled = !!worker.controller;
  worker.addEventListener("controllerchange", () => {
    if (controlled) note("app-updated"); // (a newer version took over from the one this page had)
    controlled = true;
  });
  worker.register(body.dataset.sw, { scope: "/", updateViaCache: "none" }).catch(() => {
    /* refused: the app works online as before */
  });
}

try {
  forgetOtherSessions(window.localStorage, body.dataset.sessionTag || "");
} catch {
  // no storage at all (refused): nothing was kept
}
registerWorker();
if (isCopy()) {
  copyNote(body.dataset.shownAt);
  navigator.serviceWorker?.addEventListener("message", (event) => {
    if (event.data === "server-answered") reloadWhenFree();
  });
  window.setInterval(ask, Number(body.dataset.pollMs) || 2000);
  window.addEventListener("online", ask);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") ask();
  });
}
// A page shown again from the back/forward cache may be stale: it is loaded afresh.
window.addEventListener("pageshow", (event) => {
  if (event.persisted) reloadNow();
});
