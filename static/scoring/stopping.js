// When this page can save nothing more, and why: the game can no longer be reached, the session
// ended or expired, the server refused a save outright, or the page is out of date (another phone
// changed how the game counts the points scored during it, or reopened it). Every field stops,
// what waits staying on screen (and in the outbox), and the banner says why and what to do; a page
// out of date reloads as soon as nobody types in it (lifecycle.js).
//
// A game finished on another phone is finished here at once, focus or not, without a reload: the
// fields turn read-only in place, what waited is shown apart as any value that came too late
// ("pad:finished", unsaved.js), and the next poll brings who finished it and when (#finished-note).

import { isLeaving, reloadWhenFree } from "./lifecycle.js";
import { finishedMark } from "./saving.js";

// ``root``: the pad; ``page``: what it said of itself as it loaded (``page()`` says what it is
// now: whether the game is finished is this module's to know); ``msg(key)``: the pad's words;
// ``fields``: fields.js's store; ``banner``: banner.js's.
export function setUpStopping(root, page, { msg, fields, banner }) {
  let finishedAt = page.finished; // when the game was finished, as this page knows it ("" in progress)

  function stop(reason, text) {
    if (!fields.stop(reason)) return;
    banner.say(text, true);
  }

  // The game cannot be reached any more (deleted, the link revoked): the server's sentence says why.
  function gone(text) {
    stop("gone", text ? `${text} ${msg("msgKept")}` : msg("msgGone"));
  }

  // Another phone counted the during-the-game points the other way, or reopened the game: this
  // page's fields are no longer what the game takes. It reloads as soon as nobody types in it
  // (what waits is kept, and a value that can no longer be saved is shown apart).
  function changed(why) {
    if (fields.stopped() === why) return; // (said by a save's answer and a poll's alike)
    if (isLeaving()) return; // (finished by this page: it is going to the results, never back to the pad)
    stop(why, msg(why === "during" ? "msgDuring" : "msgFinishedElsewhere"));
    reloadWhenFree();
  }

  // The game was finished (``mark``: when) while this page had it in progress; ``said``: the
  // sentence a save was refused with (who finished it, and when), shown until the poll's note comes.
  function finished(mark, said) {
    if (isLeaving()) return; // (finished by this page: it is going to the results)
    fields.stop("finished");
    finishedAt = mark; // (the answers of a finished game are this page's now)
    root.dataset.finished = mark;
    root.setAttribute("data-readonly", "");
    const inputs = root.querySelector("fieldset.pad-fields");
    if (inputs) inputs.disabled = true; // (read-only in place: the keyboard goes with the focus)
    for (const id of ["finish-button", "keypad-bar"]) document.getElementById(id)?.setAttribute("hidden", "");
    banner.say("");
    const note = document.getElementById("finished-note");
    if (note?.hidden && said) {
      note.querySelector("[data-finished-sentence]").textContent = said;
      note.hidden = false;
    }
    root.dispatchEvent(new Event("pad:finished"));
    root.dispatchEvent(new Event("pad:poll-whole")); // (who finished it, and when, come with it)
  }

  return {
    // The page as it is now: as it said of itself, finished when the game is, here.
    page: () => ({ ...page, finished: finishedAt }),
    gone,
    // What an answer says of the page (saving.js's outdated: "session", "during", "finished"),
    // with its headers and, a save's, the sentence it was refused with.
    outdated(why, headers, said = "") {
      const mark = finishedMark(headers);
      if (why === "session") {
        stop("session", msg("msgSession"));
      } else if (why === "finished" && !finishedAt && mark) {
        finished(mark, said);
      } else if (why === "finished" && fields.stopped() === "finished") {
        reloadWhenFree(); // (reopened: the pad again as it takes values; nothing is typed in it)
      } else {
        changed(why);
      }
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
