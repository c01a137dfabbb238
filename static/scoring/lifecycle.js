// The page's own going: reloading it (at once, or once nobody is typing in it) and leaving it for
// another, with one flag saying that this page is going. Every page's (offline.js: an offline
// copy gives way to the live page; a page shown again from the back/forward cache is loaded
// afresh) and the pad's (another phone changed the game under it; its banner's Reload; Finish).
//
// A page that is going asks nothing more: no leave-page warning (what waits is kept in the
// outbox, and the page that comes puts it back), no second reload, no word about the game it
// leaves.

let leaving = false; // this page is going: reloading itself, or posting Finish (its answer: the results)

// This page is going (the pad's leave-page warning need not ask).
export function isLeaving() {
  return leaving;
}

// This page posted Finish: it is going to the results, never back to the pad.
export function markLeaving() {
  leaving = true;
}

export function reloadNow() {
  leaving = true;
  window.location.reload();
}

// Reloads at once or, while a form field has the focus, once the focus has left it and gone to
// no other field, so that nothing is reloaded under a player's fingers. Asked again meanwhile (a
// poll, the service worker), it goes on waiting as it was (its listener is added once).
export function reloadWhenFree() {
  if (leaving) return;
  const focused = document.activeElement;
  if (focused?.matches("input, select, textarea")) {
    focused.addEventListener("blur", afterBlur, { once: true });
  } else {
    reloadNow();
  }
}

function afterBlur() {
  setTimeout(reloadWhenFree); // (once the focus has landed: on another field, it waits again)
}
