// When this page can save nothing more, and why: the game can no longer be reached, the session
// ended or expired, the server refused a save outright, or the page is out of date (another phone
// changed how the game counts the points scored during it, or finished or reopened it). Every
// field stops, what waits staying on screen (and in the outbox), and the banner says why and what
// to do; a page out of date reloads as soon as nobody types in it (lifecycle.js).

import { isLeaving, reloadWhenFree } from "./lifecycle.js";

// ``msg(key)``: the pad's words; ``fields``: fields.js's store; ``banner``: banner.js's;
// ``figures()``: the phone's own sums shown again.
export function setUpStopping({ msg, fields, banner, figures }) {
  function stop(reason, text) {
    if (!fields.stop(reason)) return;
    banner.say(text, true);
    figures();
  }

  // The game cannot be reached any more (deleted, the link revoked): the server's sentence says why.
  function gone(text) {
    stop("gone", text ? `${text} ${msg("msgKept")}` : msg("msgGone"));
  }

  // Another phone counted the during-the-game points the other way, or finished (or reopened) the
  // game: this page's fields are no longer what the game takes. It reloads as soon as nobody types
  // in it (what waits is kept, and a value that can no longer be saved is shown apart).
  function changed(why) {
    if (fields.stopped() === why) return; // (said by a save's answer and a poll's alike)
    if (isLeaving()) return; // (finished by this page: it is going to the results, never back to the pad)
    stop(why, msg(why === "during" ? "msgDuring" : "msgFinishedElsewhere"));
    reloadWhenFree();
  }

  return {
    gone,
    // What an answer says of the page (saving.js's outdated: "session", "during", "finished").
    outdated(why) {
      if (why === "session") stop("session", msg("msgSession"));
      else changed(why);
    },
    // A save refused for the whole page (saving.js's meaning: "gone", "expired", "refused-<status>"),
    // with the server's sentence, if any.
    refused(kind, text) {
      if (kind === "gone") gone(text);
      else if (kind === "expired") stop("expired", text ? `${text} ${msg("msgKept")}` : msg("msgExpired"));
      else stop(kind, msg("msgRefused").replace("%(status)s", kind.slice("refused-".length)));
    },
  };
}
