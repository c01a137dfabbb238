// Signing out from a pad while values of this phone wait to be saved: the page's own question
// (#signout-dialog), not the browser's blank "leave page?": how many would be lost, and a choice
// to wait (signed out by itself once every value is saved, or told when they cannot be sent),
// to sign out anyway (the values are dropped: signing out leaves nothing of this session on the
// phone), or to stay. Without this script, or with nothing waiting, the form signs out at once.

import { waitingWords } from "./banner.js";
import { isPending, Phase } from "./field-state.js";
import { markLeaving } from "./lifecycle.js";

// ``fields``: fields.js's store; ``outbox``: store.js's Outbox; ``typing``: typing.js's (leave);
// ``msg(key)``: the pad's words.
export function setUpSigningOut(root, { fields, outbox, typing, msg }) {
  const form = document.querySelector("form.nav-form[action$='/logout/']");
  const dialog = document.getElementById("signout-dialog");
  if (!form || !dialog) return;
  const waiting = () => fields.all().filter(({ state }) => isPending(state)).length;
  const say = (text) => {
    dialog.querySelector("[data-signout-said]").textContent = text;
  };
  let waitingToSignOut = false;

  function signOut() {
    markLeaving(); // (no leave-page warning: what is lost was said)
    form.submit();
  }

  form.addEventListener("submit", (event) => {
    const count = waiting();
    if (!count) return;
    event.preventDefault();
    waitingToSignOut = false;
    say(waitingWords(count, msg));
    dialog.showModal();
  });
  dialog.querySelector("[data-signout-wait]").addEventListener("click", () => {
    waitingToSignOut = true;
    say(`${waitingWords(waiting(), msg)} ${dialog.dataset.msgSending}`);
    for (const { name, el, state } of fields.all()) {
      if (state.phase === Phase.RETRYING)
        fields.update(name, "retry"); // (tried again now)
      else if (state.phase === Phase.TYPING) typing.leave(el); // (saved now, as on leaving the field)
    }
  });
  dialog.querySelector("[data-signout-anyway]").addEventListener("click", () => {
    for (const entry of outbox.entries()) outbox.drop(entry.name);
    signOut();
  });
  dialog.querySelector("[data-signout-cancel]").addEventListener("click", () => {
    waitingToSignOut = false;
    dialog.close();
  });
  root.addEventListener("pad:field", () => {
    if (!waitingToSignOut) return;
    const count = waiting();
    if (count === 0) signOut();
    else say(`${waitingWords(count, msg)} ${dialog.dataset.msgSending}`);
  });
}
