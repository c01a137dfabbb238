{% comment %}
Apiary Scorepad's service worker, served by scoring/views/offline.py from the site's root (its
scope: every page) and never from a cache. Its explanations are template comments: a phone's
first load fetches this script, and comments are bytes it need not send.

- Pages come from the network first. A page the server lets this phone keep (the pads and the
  history) says so by its X-Keep-Offline header, the tag of the session it was made for; it is
  kept only when that tag is its own session's (its X-Session-Tag), as the network gave it,
  headers included, in the cache named after that tag ("apiary-pages:<tag>": the kept pages' tag
  is in the Cache API, since this worker's globals do not survive its restarts).
- Every answer to a navigation says its session's tag (X-Session-Tag, "" for none): the kept
  pages of any other tag are forgotten before anything else, whatever ended their session
  (signing out, expiry, a password changed on another device). A sign-in or sign-out posted
  forgets them all too.
- A kept page is shown when the network fails, or gives no answer within
  settings.PAD_NETWORK_WAIT_MS, and never past its X-Keep-Until (its session's expiry): marked as
  a copy (data-offline-copy on its body), with the kept page's own headers (its Content Security
  Policy and the other security headers) but for those its changed body makes wrong.
- A copy shown because the network was slow gives way: the worker keeps waiting for the network
  and, when the answer comes, keeps it (if it may) and tells the page ("server-answered"), which
  reloads (static/scoring/offline.js). A page with no copy just waits for the network.
- The app's static files are kept when this version installs (in a cache of this version: the
  versions before it forget theirs as it takes over), and served from that copy.
- Everything else (saves, polls, forms) goes to the network untouched: the page's own script
  keeps what was typed until the server has it.

The kept pages change one step at a time (serially), in the order the network answered, so that
a page kept for a session is never put back after that session's pages were forgotten.
{% endcomment %}"use strict";
const VERSION = "{{ version }}";
const STATIC_CACHE = "apiary-static-" + VERSION;
const PAGES = "apiary-pages:";
const STATIC_URLS = {{ static_urls_json|safe }};
const WAIT_MS = {{ network_wait_ms }};
let steps = Promise.resolve();
{# Each step starts once the one before has ended, failed or not. #}
const serially = (step) => (steps = steps.then(step, step));

self.addEventListener("install", (event) => event.waitUntil(
  caches.open(STATIC_CACHE).then((cache) => cache.addAll(STATIC_URLS)).then(() => self.skipWaiting())));

{# A new version takes over the open pages at once (they say so: offline.js, controllerchange). #}
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) {
    if (name !== STATIC_CACHE && !name.startsWith(PAGES)) await caches.delete(name);
  }
  await self.clients.claim();
})()));

{# Forget the kept pages of every session but the tag's ("" forgets them all). #}
const forget = (tag) => serially(async () => {
  for (const name of await caches.keys()) {
    if (name.startsWith(PAGES) && name !== PAGES + tag) await caches.delete(name);
  }
});

{# A navigation's network answer: another session's pages forgotten, this one kept if it may be. #}
function file(request, response) {
  const tag = response.headers.get("{{ tag_header }}");
  if (tag === null) return steps; {# (not a page: a download) #}
  forget(tag);
  if (!tag || response.headers.get("{{ keep_header }}") !== tag || !response.ok || response.redirected) return steps;
  const copy = response.clone();
  return serially(async () => (await caches.open(PAGES + tag)).put(request.url, copy));
}

{# The kept copy of a page (the same address, else the same path), marked as a copy, with its own headers; none past its X-Keep-Until. #}
const copyOf = (request) => serially(async () => {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PAGES)) continue;
    const cache = await caches.open(name);
    const kept = (await cache.match(request.url)) || (await cache.match(request.url, { ignoreSearch: true }));
    if (!kept || Date.now() >= kept.headers.get("{{ until_header }}") * 1000) continue;
    const headers = new Headers(kept.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    const html = (await kept.text()).replace("<body ", "<body data-offline-copy ");
    return new Response(html, { headers });
  }
  return null;
});

{# A page: the network's answer (filed before the page has it); its copy when the network fails, or gives no answer within WAIT_MS (then the answer, when it comes, is filed and the page told). #}
function navigate(event) {
  const request = event.request;
  let copy = null;
  let timer;
  let filed;
  const network = fetch(request).then((response) => {
    clearTimeout(timer);
    filed = file(request, response);
    return response;
  });
  const copied = () => copyOf(request).then((found) => (copy = found));
  const slow = new Promise((resolve) => { timer = setTimeout(resolve, WAIT_MS); }).then(copied);
  const shown = Promise.race([network, slow]).then(
    (answer) => answer || network,
    () => copied().then((found) => found || network));
  event.respondWith(shown);
  event.waitUntil(network.then(async () => {
    await filed;
    if (!copy || (await shown) !== copy) return;
    const page = await self.clients.get(event.resultingClientId);
    if (page) page.postMessage("server-answered");
  }, () => clearTimeout(timer)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "POST" && url.pathname.startsWith("/accounts/")) {
    event.waitUntil(forget("")); {# signing in or out: the kept pages were another account's #}
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") navigate(event);
  else if (STATIC_URLS.includes(url.pathname)) {
    event.respondWith(caches.match(request, { cacheName: STATIC_CACHE }).then((kept) => kept || fetch(request)));
  }
});
