// Finish, with this script: the empty finish form is posted once every value is saved. A value
// being typed is left first (so saved, when it can be complete); one the player must deal with
// (not complete, refused, in conflict, not sent) holds Finish back, and the banner says which.

import { blocksFinish, isPending, whyHeld } from "./field-state.js";
import { markLeaving } from "./lifecycle.js";
import { SAVE_TIMEOUT_MS } from "./saving.js";

const WAIT_STEP_MS = 100; // how often Finish looks again at the saves on their way

// The banner's words for a field that holds Finish back, by why it does (field-state.js's whyHeld).
const HELD_WORDS = {
  incomplete: "msgFinishIncomplete",
  answered: "msgFinishAnswered",
  unsent: "msgFinishUnsent",
};

// ``fields``: fields.js's store; ``typing``: typing.js's (leave); ``banner``: banner.js's;
// ``msg(key)``: the pad's words.
export function setUpFinish({ fields, typing, banner, msg }) {
  const button = document.getElementById("finish-button");
  const form = document.getElementById("finish-form");
  if (!button || !form) return;
  button.setAttribute("form", "finish-form");
  button.removeAttribute("formaction");
  const pending = () => fields.all().filter(({ state }) => isPending(state));

  form.addEventListener("submit", (event) => {
    for (const { el } of fields.all()) typing.leave(el);
    if (!pending().length) {
      markLeaving();
      return;
    }
    event.preventDefault();
    const started = Date.now();
    (function wait() {
      const held = pending().find(({ state }) => blocksFinish(state));
      if (held) {
        banner.say(
          msg(HELD_WORDS[whyHeld(held.state)]).replace("%(what)s", held.el.getAttribute("aria-label")),
        );
        held.el.focus();
      } else if (!pending().length) {
        banner.say("");
        markLeaving();
        form.submit();
      } else if (Date.now() - started > SAVE_TIMEOUT_MS) {
        banner.clear();
      } else {
        banner.say(msg("msgFinishing"));
        setTimeout(wait, WAIT_STEP_MS);
      }
    })();
  });
}
