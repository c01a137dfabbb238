// A page's poll, which htmx makes (hx-trigger="every …ms, poll-now" on the polling element, in
// its template), made light and kind to the phone: sent with the ETag of the last answer taken, so
// that a poll that finds nothing new is a 304 with no body; held while the page is hidden; asked
// at once when the page is shown again. The pad's (live.js), the table view's and the results'
// (follow.js): one helper for every page that polls, as healthchecks keeps one
// adaptive-setinterval.js.

// Follows the poll of the element #``id`` (which a swap may replace with a new one). Options:
// ``etag()``: the ETag to send (without it, the last one a 200 answer brought, and before any the
// one of what the page shows, ``shown``: its first poll is a 304 while nothing changed, rather
// than the whole of it again, parsed and swapped on a slow phone as it opens); ``held()``: the
// poll also waits while it says so; ``configure(detail)``: what else the request carries
// (htmx:configRequest's detail). Returns a function that asks at once.
export function followPoll(id, { etag, shown = null, held = () => false, configure = () => {} } = {}) {
  let taken = shown;
  const etagToSend = etag ?? (() => taken);
  const pollNow = () => htmx.trigger(`#${id}`, "poll-now");

  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt.id !== id) return;
    if (document.visibilityState === "hidden" || held()) {
      event.preventDefault(); // (asked again as soon as the page is shown)
      return;
    }
    const sent = etagToSend();
    if (sent) event.detail.headers["If-None-Match"] = sent;
    configure(event.detail);
  });
  if (!etag) {
    document.addEventListener("htmx:afterRequest", (event) => {
      const xhr = event.detail.xhr;
      if (event.detail.elt.id === id && xhr.status === 200) taken = xhr.getResponseHeader("ETag") || taken;
    });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") pollNow();
  });
  return pollNow;
}
