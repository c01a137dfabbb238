// Apiary Scorepad's service worker (served by scoring/views/offline.py from the site's root).
// Version {{ version }}: a digest of this script and of the files it keeps.
//
// - Pages come from the network first, always: online, a phone never sees a kept copy. A page the
//   server lets this phone keep (the header {{ keep_header }}: the pads and the history) is kept as
//   the network last gave it, and shown only when the network cannot be reached, marked as a copy
//   (data-offline-copy on its body: the page says it is offline and of when it is).
// - The app's static files are kept when this version installs, and served from the copy.
// - Everything else (saves, polls, forms) goes to the network untouched: the page's own script
//   keeps what was typed until the server has it.
// - Signing in or out forgets every kept page, so that another account never sees them.
"use strict";

var VERSION = "{{ version }}";
var STATIC_CACHE = "apiary-static";
var PAGES_CACHE = "apiary-pages";
var STATIC_URLS = {{ static_urls_json|safe }};
var NETWORK_WAIT_MS = 10000; // a network that does not answer for this long counts as none

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC_CACHE).then(function (cache) {
    return cache.addAll(STATIC_URLS); // (from the HTTP cache when the page just loaded them: no byte fetched twice)
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  // A new version takes over the open pages at once (they say so: pad.js, controllerchange).
  event.waitUntil(self.clients.claim());
});

function keptPage(request) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.match(request.url).then(function (found) {
      return found || cache.match(request.url, { ignoreSearch: true });
    });
  }).then(function (found) {
    if (!found) return null;
    return found.text().then(function (html) {
      return new Response(html.replace("<body ", "<body data-offline-copy "), {
        status: 200, headers: { "Content-Type": found.headers.get("Content-Type") || "text/html; charset=utf-8" }
      });
    });
  });
}

function fromNetwork(request) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("no answer")); }, NETWORK_WAIT_MS);
    fetch(request).then(function (response) { clearTimeout(timer); resolve(response); },
                        function (error) { clearTimeout(timer); reject(error); });
  });
}

function page(event) {
  var request = event.request;
  return fromNetwork(request).then(function (response) {
    if (response.ok && !response.redirected && response.headers.get("{{ keep_header }}")) {
      var copy = response.clone();
      event.waitUntil(caches.open(PAGES_CACHE).then(function (cache) { return cache.put(request.url, copy); }));
    }
    return response;
  }, function (error) {
    return keptPage(request).then(function (kept) {
      if (kept) return kept;
      throw error;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "POST" && url.pathname.indexOf("/accounts/") === 0) {
    event.waitUntil(caches.delete(PAGES_CACHE)); // signing in or out: the kept pages were another account's
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") { event.respondWith(page(event)); return; }
  if (STATIC_URLS.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(request).then(function (kept) { return kept || fetch(request); }));
  }
});
