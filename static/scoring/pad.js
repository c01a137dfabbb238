// The pad's script: it puts the pad's modules together, and holds nothing else. What is typed is
// kept on the phone until the server has it, saved once the player is done with it, and shown as
// it stands. The pad's promises, and where they are kept:
// - what was typed is what is stored: focusing a field selects its value, so typing replaces it,
//   and a value is saved on Next, on leaving the field, or after a pause long enough to look at
//   the board (data-save-pause-ms), never while it cannot be complete ("7+") (typing.js);
// - nothing acknowledged is undone: each save names the version this page saw, a page id and a
//   rising number (the server refuses stale and out-of-order saves), and a stepper sends its taps
//   (sending.js; each field's one state: field-state.js);
// - every failure is visible: the field says it (statuses.js), the banner says what happened and
//   what to do (banner.js, stopping.js), and the value stays on screen;
// - nothing typed is lost: the outbox (store.js, kept in step by fields.js) keeps each value until
//   the server has it, across reloads, closed tabs and restarts, for this session only; one that
//   can no longer be saved is shown apart, with what it was, until the player dismisses it
//   (unsaved.js);
// - every page is fresh: other phones' saves come with the poll, and a page out of date reloads
//   once nobody types in it (live.js, answers.js, lifecycle.js).
//
// The modules talk through events on the pad's root, each said by the one module that owns what
// changed and followed by whoever needs it: "pad:field" (a field's state changed: fields.js),
// "pad:due" (a save to send, once the change that made it due has run: fields.js), "pad:answered"
// (an answer of the server's applied: live.js), "pad:finished" (the game was finished on another
// phone: stopping.js), "pad:poll-whole" (the next poll is to bring the whole game: figures.js,
// stopping.js, unsaved.js). A module asks another for what it owns through what that one's set-up
// returns (the fields' states: fields.js; whether the page is finished: stopping.js's page()),
// and never calls another to show something again.

import { setUpBanner } from "./banner.js";
import { createFields } from "./fields.js";
import { setUpFigures } from "./figures.js";
import { setUpFinish } from "./finish.js";
import { setUpKeypad } from "./keypad.js";
import { setUpLive } from "./live.js";
import { copyNote, isCopy } from "./offline.js";
import { setUpSending } from "./sending.js";
import { setUpSigningOut } from "./signing-out.js";
import { setUpStatuses } from "./statuses.js";
import { setUpStopping } from "./stopping.js";
import { kept, Outbox } from "./store.js";
import { setUpTyping } from "./typing.js";
import { setUpUnsaved } from "./unsaved.js";

// How old an answer kept by this phone may be to be shown again on a page just drawn (below):
// the moments between a reload and the save it interrupted being stored.
const JUST_NOW_SECONDS = 60;

const root = document.querySelector("[data-pad]");
if (root) setUpPad(root);

function setUpPad(root) {
  root.classList.add("live");
  const page = pageOf(root);
  const words = JSON.parse(document.getElementById("pad-words")?.textContent || "{}");
  const msg = (key) => words[key] || ""; // (the pad's words in the page's language: presenters/pad_page.py)
  // What was typed before this script ran (a slow phone's first moments): typed now, once it is set
  // up. (Not what first-paint.js put back from the outbox: unsaved.js takes that over.)
  const typedEarly = [...root.querySelectorAll("[data-field]:not([data-kept])")].filter((el) =>
    el.type === "checkbox" ? el.checked !== el.defaultChecked : el.value !== el.defaultValue,
  );
  const outbox = new Outbox(localStorage, page.tag, page.game);
  const here = kept(localStorage, page.tag, page.game, "here"); // {name: version}: entered on this phone
  const fields = createFields(root, { outbox, here });
  setUpStatuses(root, msg);
  const banner = setUpBanner(root, { msg, fields });
  setUpFigures(root, { fields, msg });
  const stopping = setUpStopping(root, page, { msg, fields, banner });
  const live = setUpLive(root, page, { msg, fields, stopping, banner });
  setUpSending(root, page, { msg, fields, live, stopping, banner });

  // The answers this phone last applied that are newer than the page: on its offline copy, every
  // one (the copy is the page as first loaded); on a page just drawn, those of the last moments (a
  // save answered as the page reloaded, stored a moment after the server drew it: never shown
  // older than this phone saw it; a bound in time, so that answers of a game restored from a
  // backup since are not taken for newer than it).
  const since = isCopy() ? 0 : Date.now() / 1000 - JUST_NOW_SECONDS;
  const at = live.replay(since);
  if (isCopy() && at) copyNote(at);
  const unsaved = { outbox, fields, msg, readonly: page.readonly };
  if (page.readonly) {
    // (what this phone typed before the game was finished: shown apart)
    if (page.finished) setUpUnsaved(root, { ...unsaved, typing: null });
    return;
  }
  const typing = setUpTyping(root, { fields, pauseMs: Number(root.dataset.savePauseMs) });
  setUpKeypad({ fields, typing, seat: page.seat });
  if (!isCopy()) {
    for (const el of typedEarly) {
      typing.typed(el);
      if (el.type === "checkbox" || document.activeElement !== el) typing.leave(el);
    }
  }
  setUpUnsaved(root, { ...unsaved, typing });
  setUpFinish({ fields, typing, banner, msg });
  setUpSigningOut(root, { fields, outbox, typing, msg });
}

// What the pad says of itself (its data-*, and the page's session tag).
function pageOf(root) {
  const { game, player, during, finished, saveUrl } = root.dataset;
  return {
    game,
    tag: document.body.dataset.sessionTag || "",
    player, // (the one player's sheet: its seat, or undefined)
    seat: player ? Number(player) : null,
    view: player || "all",
    during,
    finished,
    readonly: root.hasAttribute("data-readonly"),
    saveUrl,
  };
}
