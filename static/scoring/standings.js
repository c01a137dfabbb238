// The table's view follows the game: htmx polls its standings (declared on #standings in
// templates/scoring/table.html); this adds the ETag it last got, so that a poll that finds
// nothing new is a 304 with no body, and holds the poll while the page is hidden, asking at once
// when it is shown again.

let etag = null;

document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.elt.id !== "standings") return;
  if (document.visibilityState === "hidden") {
    event.preventDefault();
    return;
  }
  if (etag) event.detail.headers["If-None-Match"] = etag;
});

document.addEventListener("htmx:afterRequest", (event) => {
  const xhr = event.detail.xhr;
  if (event.detail.elt.id === "standings" && xhr.status === 200) etag = xhr.getResponseHeader("ETag") || etag;
});

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") htmx.trigger("#standings", "poll-now");
});
