// Each save the fields make due ("pad:due", fields.js), sent, and what its answer does: to the
// field (saved, in conflict, refused: its state, its value, its status), to the banner (what
// waits, and why) and to the page (stopped, out of date). Each save names the version this page
// saw, a page id and a rising number, so that the server refuses stale and out-of-order saves;
// a failed one is sent again after a wait. saving.js makes the request and reads the answer.

import { isPending, Phase } from "./field-state.js";
import { fieldValue, setStored, storedMatches } from "./fields.js";
import { meaning, outdated, post, retryDelay, revisionOf, sentence } from "./saving.js";
import { showState } from "./statuses.js";
import { normalize } from "./sums.js";

// ``page``: what the pad says of itself ({ tag, player, saveUrl }); ``msg(key)``: its words;
// ``fields``: fields.js's store; ``live``: live.js's (saveAnswered, changesShown); ``stopping``:
// stopping.js's (what the page is now, and what stops it); ``banner``: banner.js's (the server's
// words for a refusal of the moment).
export function setUpSending(root, page, { msg, fields, live, stopping, banner }) {
  const pageId = [...crypto.getRandomValues(new Uint8Array(8))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
  let seq = 0;

  // (with keepalive while the page is hidden: a page being left still sends what is due)
  async function send(name, sent) {
    fields.cancel(name);
    const s = fields.update(name, "sending", sent);
    seq += 1;
    const value = "text" in sent ? { value: sent.text } : { step: String(sent.step) };
    const body = {
      field: name,
      ...value,
      version: String(s.base),
      page: pageId,
      seq: String(seq),
      session: page.tag,
      player: page.player,
      changes: live.changesShown() ? "1" : undefined,
    };
    const csrf = root.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
    let answer;
    try {
      answer = await post(page.saveUrl, body, { csrf, keepalive: document.visibilityState === "hidden" });
    } catch {
      failed(name, "network");
      return;
    }
    answered(name, sent, answer);
  }

  function answered(name, sent, answer) {
    const why = outdated(answer.headers, stopping.page());
    const kind = meaning(answer.status);
    if (why === "session") {
      stopping.outdated(why, answer.headers, sentence(answer));
      return;
    }
    const fieldsAnswer = kind === "saved" || kind === "conflict" || kind === "refused";
    if (why && !fieldsAnswer) {
      // (the field may be gone, or take no more values: the outbox keeps the value, shown apart)
      stopping.outdated(why, answer.headers, sentence(answer));
      return;
    }
    if (fieldsAnswer) {
      fieldAnswered(name, sent, kind, answer);
    } else if (kind === "busy" || kind === "server") {
      banner.heard(kind, sentence(answer));
      failed(name, kind, answer.headers.get("Retry-After"));
    } else {
      stopping.refused(kind, sentence(answer));
    }
    if (why) stopping.outdated(why, answer.headers, sentence(answer));
  }

  // The field's own answer (saved, in conflict, refused): its status, and what is stored now.
  function fieldAnswered(name, sent, kind, answer) {
    const el = fields.input(name);
    const status = live.saveAnswered(answer.text, revisionOf(answer.headers), answer.headers.get("ETag"));
    const version = Number(status?.dataset.version ?? fields.state(name).base);
    const stored = status?.dataset.stored;
    const same = kind === "conflict" && "text" in sent && stored === normalize(sent.text);
    if (kind === "saved" || same) {
      const after = fields.update(name, "saved", { version });
      fields.enteredHere(name, version);
      if (!isPending(after) && stored !== undefined && !storedMatches(el, stored)) setStored(el, stored);
      else if (after.text === null && after.step) el.value = String(Number(stored || 0) + after.step);
    } else if (kind === "conflict") {
      fields.update(name, "conflicted", { version, stored });
    } else {
      fields.update(name, "refused");
    }
    // (the answer's status replaced the one that showed the field's state)
    showState(el, fields.state(name), msg);
  }

  function failed(name, problem, retryAfter) {
    const after = fields.update(name, "failed", { problem, shown: fieldValue(fields.input(name)) });
    if (after.phase === Phase.RETRYING) {
      fields.later(name, () => fields.update(name, "retry"), retryDelay(after.attempt, retryAfter));
    }
  }

  root.addEventListener("pad:due", (event) => send(event.detail.name, event.detail.sent));
}
