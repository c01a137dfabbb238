// What the server sends the pad, followed: other phones' saves (htmx polls #live, declared in
// templates/scoring/pad.html), a save's answer, an undo's; and the answers this phone last
// applied, kept for the page's offline copy to show them again (the copy is the page as first
// loaded: replaying them brings it to what the phone last showed), and for a page the server drew
// a moment before this phone's last save was stored (pad.js). answers.js applies them.
//
// htmx makes the requests and the out-of-band swaps; poll.js adds the ETag (a poll that finds
// nothing new is a 304 with no body; after this page's own save, the ETag of the save's revision
// when nothing else was written between: saving.js, pollAfterSave), holds the poll while the page
// is hidden or can save no more, and asks at once when the page is shown again; here the poll is
// asked at once when the network is back, and for the whole game when "pad:poll-whole" is said on
// the pad's root (every value of this phone's is in: figures.js; another tab saved: unsaved.js).

import { createAnswers } from "./answers.js";
import { isCopy } from "./offline.js";
import { followPoll } from "./poll.js";
import { outdated, pollAfterSave, revisionOf, sentence } from "./saving.js";
import { forgetOldAnswers, kept } from "./store.js";

// Answers kept per game (a poll's answer holds the whole game: the list starts again with each).
const MAX_KEPT_ANSWERS = 30;
// Kept answers from which the next poll asks for the whole game (the list starts again).
const WHOLE_POLL_AT = 25;
const NOTHING_POLLED = { etag: null, revision: NaN }; // the next poll brings every value and figure
const KEPT_GAMES = 12; // the pads whose answers are kept: those this session opened last

// ``page``: what the pad says of itself ({ tag, game, view }); ``msg(key)``: its words; ``fields``:
// fields.js's store; ``stopping``: stopping.js's (what the page is now; gone, outdated);
// ``banner``: banner.js's. Each answer applied is said on the pad's root ("pad:answered"): the
// phone's own sums go back over the server's figures (figures.js).
export function setUpLive(root, page, { msg, fields, stopping, banner }) {
  const live = document.getElementById("live");
  const answers = createAnswers(root, live, fields);
  const applied = () => root.dispatchEvent(new Event("pad:answered"));
  const kept = keptAnswers(root, page, answers);
  // The ETag the next poll sends, and the revision it is for (saving.js, pollAfterSave): first the
  // page's own (it shows the game as a poll at its revision would), but never an offline copy's.
  const { pollEtag, revision: shown } = root.dataset;
  let polled = pollEtag && !isCopy() ? { etag: pollEtag, revision: Number(shown) } : NOTHING_POLLED;
  const changesShown = () => !!document.getElementById("changes-box")?.open;
  const poll = followPoll("live", {
    etag: () => polled.etag,
    held: () => !!fields.stopped() && fields.stopped() !== "finished", // (a finished pad follows it still)
    configure(detail) {
      if (changesShown()) detail.parameters.changes = "1";
    },
  });
  const pollWhole = () => {
    polled = NOTHING_POLLED;
    poll();
  };

  function keep(kind, revision, html) {
    const count = kept.add(kind, revision, html);
    if (count >= WHOLE_POLL_AT) polled = NOTHING_POLLED; // (saves polled on from: before the list is full)
  }

  const undos = followUndos(msg, banner);

  // A poll (or the recent changes' fold, or an undo: the game as it stands, an undo refused with
  // its reason, 409) that found nothing new (304), the game gone (286, 404), an answer for another
  // session or way of counting, older figures than those shown, or a poll's while an undo is on
  // its way: not swapped.
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target !== live) return;
    const xhr = event.detail.xhr;
    const undo = undos.answered(xhr);
    const headers = { get: (name) => xhr.getResponseHeader(name) };
    const stale = outdated(headers, stopping.page());
    if (stale) stopping.outdated(stale, headers);
    else if (xhr.status === 286 || xhr.status === 404) stopping.gone(xhr.responseText);
    const answered = xhr.status === 200 || (xhr.status === 409 && undo);
    const waiting = !undo && undos.onTheirWay();
    if (!answered || stale || waiting || !answers.newer(revisionOf(headers))) {
      event.detail.shouldSwap = false;
      return;
    }
    if (event.detail.requestConfig?.elt === live && xhr.getResponseHeader("ETag")) {
      polled = { etag: xhr.getResponseHeader("ETag"), revision: revisionOf(headers) };
    }
    keep("poll", Number(root.dataset.revision), xhr.responseText);
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target !== live) return;
    answers.takeValues();
    applied();
  });

  window.addEventListener("online", pollWhole); // (the page may be its copy from before)
  root.addEventListener("pad:poll-whole", pollWhole);

  return {
    changesShown,
    // The answers this phone last applied that are newer than the page, kept since ``since`` (a
    // time in seconds), shown again in the order they came: the newest one's time, or null.
    replay(since) {
      const newest = kept.replay(since);
      if (newest !== null) applied();
      return newest;
    },
    // A save's answer applied; kept for the copy when it is the game as it stands, and the poll
    // goes on from its revision when its write is the only one since the last poll.
    saveAnswered(html, revision, etag) {
      const status = answers.applySave(html, revision);
      if (Number(root.dataset.revision) === revision) {
        polled = pollAfterSave(polled, { etag, revision });
        keep("save", revision, html);
      }
      applied();
      return status;
    },
  };
}

// The undos on their way (htmx posts the recent changes' Undo forms): until each is answered, no
// poll's (nor the fold's) answer is swapped. An undo's answer is the game as it stands, the
// recent changes and why it was refused, if it was (#undo-message), swapped into #live like a
// poll's (presenters.answers.undo_partials); htmx swaps its out-of-band parts within the page of
// the form it was sent from, so a poll that swapped the list meanwhile would take the form, and
// the undo's answer, out of the page (issue 49). An undo htmx could not swap is said on the
// banner (on the form, still in the page: a swapped answer replaced the list it was in, and its
// events reach no further).
function followUndos(msg, banner) {
  const sent = new Set();
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (isUndo(event.detail.elt)) sent.add(event.detail.xhr);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!isUndo(event.detail.elt)) return;
    const xhr = event.detail.xhr;
    sent.delete(xhr);
    if (xhr.status === 200 || xhr.status === 409) return;
    const refused = msg("msgRefused").replace("%(status)s", String(xhr.status));
    banner.say(sentence(answerOf(xhr)) || refused, true);
  });
  return {
    // Whether this answer is an undo's (no longer on its way, then).
    answered: (xhr) => sent.delete(xhr),
    onTheirWay: () => sent.size > 0,
  };
}

// Whether an htmx request was an undo's (the recent changes' Undo form).
function isUndo(elt) {
  return !!elt?.matches?.("form[data-undo]");
}

// An htmx request's answer, as saving.js reads one.
function answerOf(xhr) {
  return { headers: { get: (name) => xhr.getResponseHeader(name) }, text: xhr.responseText };
}

// The answers kept for the offline copy of this pad (this session's, this game's, this view's),
// and shown again there (``answers``: answers.js's).
function keptAnswers(root, { tag, game, view }, answers) {
  const store = kept(localStorage, tag, game, `answers:${view}`);
  forgetOldAnswers(localStorage, tag, KEPT_GAMES);
  return {
    // Keeps one; how many are kept now.
    add(kind, revision, html) {
      const list = kind === "poll" ? [] : store.read([]);
      list.push({ kind, revision, html, at: Math.floor(Date.now() / 1000) });
      store.write(
        list.length > MAX_KEPT_ANSWERS ? [list[0], ...list.slice(1 - MAX_KEPT_ANSWERS)] : list,
        false,
      );
      return list.length;
    },
    replay(since) {
      let newest = null;
      for (const answer of store.read([])) {
        if (answer.revision <= Number(root.dataset.revision || 0) || answer.at < since) continue;
        if (answer.kind === "poll") {
          root.dataset.revision = String(answer.revision);
          answers.applyPoll(answer.html);
        } else {
          const status = answers.applySave(answer.html, answer.revision);
          if (status) answers.statusArrived(status);
        }
        newest = answer.at;
      }
      return newest;
    },
  };
}
