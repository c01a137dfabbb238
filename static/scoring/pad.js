// The pad's fields: what is typed is kept on the phone until the server has it, saved once the
// player is done with it, and shown as it stands. Each field has one state (field-state.js), and
// every change of it goes through ``update``, which then keeps, shows and sends what that state
// says. The pad's promises, and where they are kept:
// - what was typed is what is stored: focusing a field selects its value, so typing replaces it,
//   and a value is saved on Next, on leaving the field, or after a pause long enough to look at
//   the board (data-save-pause-ms), never while it cannot be complete ("7+");
// - nothing acknowledged is undone: each save names the version this page saw, a page id and a
//   rising number (the server refuses stale and out-of-order saves), and a stepper sends its taps;
// - every failure is visible: the field says it, the banner says what happened and what to do,
//   and the value stays on screen;
// - nothing typed is lost: the outbox (store.js) keeps each value until the server has it,
//   across reloads, closed tabs and restarts, for this session only; one that can no longer be
//   saved is shown apart, with what it was, until the player dismisses it.

import * as F from "./field-state.js";
import { copyNote, givingWay, isCopy } from "./offline.js";
import { kindOf, refreshFigures } from "./figures.js";
import { setUpKeypad } from "./keypad.js";
import { setUpLive } from "./live.js";
import { setUpTyping } from "./typing.js";
import { setUpUnsaved } from "./unsaved.js";
import { meaning, outdated, post, retryDelay, revisionOf, sentence } from "./saving.js";
import { Outbox, kept } from "./store.js";
import { isIncomplete, normalize } from "./sums.js";

const root = document.querySelector("[data-pad]");
if (root) setUpPad(root);

function setUpPad(root) {
  root.classList.add("live");
  const readonly = root.hasAttribute("data-readonly");
  const tag = document.body.dataset.sessionTag || "";
  const inputs = new Map([...root.querySelectorAll("[data-field]")].map((el) => [el.name, el]));
  // What was typed before this script ran (a slow phone's first moments): typed now, once it is set up.
  const typedEarly = [...inputs.values()].filter((el) =>
    (el.type === "checkbox" ? el.checked !== el.defaultChecked : el.value !== el.defaultValue));
  const states = new Map();
  const timers = new Map(); // field name -> its pause's or its retry's timer
  const outbox = new Outbox(localStorage, tag, root.dataset.game);
  const here = kept(localStorage, tag, root.dataset.game, "here"); // {name: version}: values entered on this phone
  const enteredHere = here.read({});
  const pageId = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
  let seq = 0;
  let stopped = ""; // why this page can save nothing more
  let leaving = false; // this page is reloading itself: no leave-page warning
  let finishing = false; // this page posted Finish: its answer (the results) is on its way
  let figuresWaited = false;
  const problems = { busy: "", server: "" }; // the server's own words for its last 429 and 5xx

  const msg = (key) => root.dataset[key] || "";
  const statusEl = (name) => document.getElementById(`status-${name}`);
  const valueOf = (el) => (el.type === "checkbox" ? (el.checked ? "1" : "") : el.value);
  const storedMatches = (el, stored) => (el.type === "checkbox" ? el.checked === (stored === "True") : normalize(el.value) === stored);
  const labelOf = (el) => el.getAttribute("aria-label") || el.name;

  function setStored(el, stored) {
    if (el.type === "checkbox") el.checked = stored === "True";
    else el.value = stored;
  }

  function state(name) {
    if (!states.has(name)) {
      const version = Number(inputs.get(name).dataset.version);
      states.set(name, F.initial(version, { here: enteredHere[name] === version }));
    }
    return states.get(name);
  }

  // -- one change of a field's state, and what follows from it -----------------------------------

  function update(name, event, ...args) {
    const before = state(name);
    let after = F.next(before, event, ...args);
    if (stopped && F.due(after)) after = F.next(after, "stop");
    states.set(name, after);
    keep(name, after);
    show(name, after);
    const sent = F.due(after);
    if (sent) send(name, sent);
    if (after.phase === F.Phase.TYPING && before.phase !== F.Phase.TYPING) refreshBanner();
    return after;
  }

  function keep(name, s) {
    const el = inputs.get(name);
    if (F.isPending(s)) outbox.put(name, { value: s.text ?? valueOf(el), base: s.base, label: labelOf(el),
                                           typing: s.phase === F.Phase.TYPING });
    else outbox.drop(name);
  }

  const MARKS = { typing: "msgUnsaved", waiting: "msgSaving", sending: "msgSaving", retrying: "msgRetrying",
                  stopped: "msgUnsaved" };

  function show(name, s) {
    const el = inputs.get(name);
    const conflict = s.phase === F.Phase.CONFLICT;
    el.classList.toggle("unsaved", F.isPending(s) && !conflict && s.phase !== F.Phase.REFUSED);
    el.classList.toggle("conflict", conflict);
    if (conflict || s.phase === F.Phase.REFUSED) el.setAttribute("aria-invalid", "true");
    else el.removeAttribute("aria-invalid");
    const status = statusEl(name);
    if (!status) return;
    status.querySelector(".state-mark")?.remove();
    const mark = MARKS[s.phase];
    if (mark) {
      // in the field's corner (the page grows no taller), its words for screen readers
      const span = document.createElement("span");
      span.className = "state-mark";
      span.textContent = msg(mark);
      status.append(span);
      status.dataset.state = s.phase;
    } else {
      delete status.dataset.state;
    }
  }

  // -- saving ---------------------------------------------------------------------------------------

  // (with keepalive while the page is hidden: a page being left still sends what is due)
  async function send(name, sent) {
    clearTimeout(timers.get(name));
    const s = update(name, "sending", sent);
    seq += 1;
    const fields = { field: name, ...("text" in sent ? { value: sent.text } : { step: String(sent.step) }),
                     version: String(s.base), page: pageId, seq: String(seq), session: tag,
                     player: root.dataset.player, changes: live.changesShown() ? "1" : undefined };
    let answer;
    try {
      answer = await post(root.dataset.saveUrl, fields,
                          { csrf: csrfToken(), keepalive: document.visibilityState === "hidden" });
    } catch {
      failed(name, "network");
      return;
    }
    answered(name, sent, answer);
  }

  function answered(name, sent, answer) {
    const el = inputs.get(name);
    const why = outdated(answer.headers, pad);
    const kind = meaning(answer.status);
    if (why === "session") {
      stop("session", msg("msgSession"));
      return;
    }
    const fieldsAnswer = kind === "saved" || kind === "conflict" || kind === "refused";
    if (why && !fieldsAnswer) {
      pageChanged(why); // (the field may be gone, or take no more values: the outbox keeps the value, shown apart)
      return;
    }
    if (fieldsAnswer) {
      const status = live.saveAnswered(answer.text, revisionOf(answer.headers), answer.headers.get("ETag"));
      const version = Number(status?.dataset.version ?? state(name).base);
      const stored = status?.dataset.stored;
      const same = kind === "conflict" && "text" in sent && stored === normalize(sent.text);
      if (kind === "saved" || same) {
        const after = update(name, "saved", { version });
        enteredHere[name] = version;
        here.write(enteredHere, false);
        if (!F.isPending(after) && stored !== undefined && !storedMatches(el, stored)) setStored(el, stored);
        else if (after.text === null && after.step) el.value = String(Number(stored || 0) + after.step);
      } else if (kind === "conflict") {
        update(name, "conflicted", { version, stored });
      } else {
        update(name, "refused");
      }
      show(name, state(name)); // (the answer's status replaced the one that showed the field's state)
    } else if (kind === "busy" || kind === "server") {
      problems[kind] = sentence(answer);
      failed(name, kind, answer.headers.get("Retry-After"));
    } else if (kind === "gone") {
      gone(sentence(answer));
    } else if (kind === "expired") {
      const text = sentence(answer);
      stop("expired", text ? `${text} ${msg("msgKept")}` : msg("msgExpired"));
    } else {
      stop(kind, msg("msgRefused").replace("%(status)s", kind.slice(8)));
    }
    if (why) pageChanged(why);
    refreshBanner();
    figures();
  }

  function failed(name, problem, retryAfter) {
    const after = update(name, "failed", { problem, shown: valueOf(inputs.get(name)) });
    if (after.phase === F.Phase.RETRYING) {
      timers.set(name, setTimeout(() => update(name, "retry"), retryDelay(after.attempt, retryAfter)));
    }
    refreshBanner();
    figures();
  }

  function csrfToken() {
    return root.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
  }

  // -- what the player does --------------------------------------------------------------------------

  // Typed: kept at once; saved when left, or after the pause (never while it cannot be complete).
  function typed(el) {
    const name = el.name;
    clearTimeout(timers.get(name));
    const text = valueOf(el);
    update(name, "typed", text);
    if (!isIncomplete(text)) timers.set(name, setTimeout(() => leave(el), Number(root.dataset.savePauseMs)));
    figures();
  }

  function leave(el) {
    if (!inputs.has(el.name)) return;
    clearTimeout(timers.get(el.name));
    update(el.name, "left", { complete: !isIncomplete(valueOf(el)) });
  }

  function stepped(el, delta) {
    const current = parseInt(el.value, 10) || 0;
    const { min, max } = kindOf(el);
    const next = Math.max(Number(min), Math.min(Number(max), current + delta));
    if (next === current && el.value !== "") return;
    el.value = String(next);
    update(el.name, "stepped", next - current, String(next));
    figures();
  }

  function stop(reason, text) {
    if (stopped) return;
    stopped = reason;
    for (const name of inputs.keys()) update(name, "stop");
    banner(text, true);
    figures();
  }

  // The game cannot be reached any more (deleted, the link revoked): the server's sentence says why.
  function gone(text) {
    stop("gone", text ? `${text} ${msg("msgKept")}` : msg("msgGone"));
  }

  // Another phone counted the during-the-game points the other way, or finished (or reopened) the
  // game: this page's fields are no longer what the game takes. It reloads as soon as nobody types
  // in it (what waits is kept, and a value that can no longer be saved is shown apart).
  function pageChanged(why) {
    if (stopped === why) return; // (said by a save's answer and a poll's alike)
    if (finishing) return; // (finished by this page: it is going to the results, never back to the pad)
    stop(why, msg(why === "during" ? "msgDuring" : "msgFinishedElsewhere"));
    const reload = () => {
      leaving = true;
      window.location.reload();
    };
    if (root.contains(document.activeElement) && document.activeElement.matches("[data-field]")) {
      document.activeElement.addEventListener("blur", reload, { once: true });
    } else {
      reload();
    }
  }

  // -- what other phones saved (live.js) ------------------------------------------------------------

  // Another phone's value, shown in its field when nothing of this page's waits there; whether it was.
  function showStored(name, version, stored, html) {
    const el = inputs.get(name);
    if (!el) return false;
    const s = state(name);
    const status = statusEl(name);
    if (document.activeElement === el || !F.takesOthers(s) || version <= s.base) return false;
    update(name, "received", { version });
    const changed = !storedMatches(el, stored);
    setStored(el, stored);
    el.dataset.version = String(version);
    if (status && html !== null) status.innerHTML = html;
    if (changed) {
      const cell = el.closest(".cell");
      cell?.classList.add("changed-elsewhere");
      setTimeout(() => cell?.classList.remove("changed-elsewhere"), 2500);
    }
    return true;
  }

  // What the other modules use of the pad: live.js, keypad.js, figures.js, typing.js, unsaved.js.
  const pad = {
    root, tag, readonly, outbox, msg, inputs, update, state, typed, leave, stepped, stop, gone, banner, refreshBanner,
    valueOf, setStored,
    game: root.dataset.game,
    view: root.dataset.player || "all",
    during: root.dataset.during,
    finished: root.dataset.finished,
    seat: root.dataset.player ? Number(root.dataset.player) : null,
    fields: () => [...inputs.values()],
    entries: () => [...inputs].map(([name, el]) => [el, state(name)]),
    isFree(el) {
      const s = state(el.name);
      return s.here || s.base === 0 || (el.type === "checkbox" ? !el.checked : el.value.trim() === "");
    },
    stopped: () => stopped,
    leaving: () => leaving || givingWay(),
    finishing() {
      finishing = leaving = true;
    },
    outdated: (why) => (why === "session" ? stop("session", msg("msgSession")) : pageChanged(why)),
    // A poll's value ([data-name], its status inside); a comb sector's award follows every
    // phone's tokens, so it is brought up to date whatever the version.
    received(item) {
      const name = item.dataset.name;
      if (!inputs.has(name)) return;
      if (!showStored(name, Number(item.dataset.version), item.dataset.stored, item.innerHTML)) {
        const status = statusEl(name);
        if (status && !status.dataset.state) syncAward(status, item);
      }
    },
    // A save's answer shown again on the offline copy: the field shows what it stored.
    statusArrived(status) {
      showStored(status.id.slice("status-".length), Number(status.dataset.version), status.dataset.stored, null);
    },
    dimRows() {
      root.querySelectorAll(".row-label[data-entered]").forEach((label) => {
        label.closest(".row")?.classList.toggle("not-entered", label.dataset.entered !== "1");
      });
    },
    refreshFigures: () => figures(),
    fresh: () => live.fresh(),
    retryAll() {
      for (const name of inputs.keys()) if (state(name).phase === F.Phase.RETRYING) update(name, "retry");
    },
  };

  const live = setUpLive(pad);

  // -- figures and the banner ------------------------------------------------------------------------

  function figures() {
    const waited = refreshFigures(pad);
    if (waited) figuresWaited = true;
    else if (figuresWaited && ![...states.values()].some(F.isPending)) {
      figuresWaited = false;
      live.fresh(); // every value is in: the next poll brings the server's figures whole
    }
  }

  function banner(text, offerReload = false) {
    const box = document.getElementById("banner");
    if (!box) return;
    document.getElementById("banner-text").textContent = text;
    document.getElementById("banner-reload").hidden = !offerReload;
    box.hidden = !text;
  }

  function refreshBanner() {
    if (stopped) return;
    const retrying = [...states.values()].filter((s) => s.phase === F.Phase.RETRYING);
    if (!retrying.length) {
      banner("");
      return;
    }
    const count = retrying.length === 1 ? msg("msgWaitingOne")
      : msg("msgWaitingMany").replace("%(count)s", String(retrying.length));
    if (retrying.some((s) => s.problem === "busy")) banner(`${problems.busy || msg("msgBusy")} ${count}`);
    else if (navigator.onLine === false) banner(`${msg("msgOffline")} ${count}`);
    else if (retrying.some((s) => s.problem === "server") && problems.server) banner(problems.server);
    else banner(`${msg("msgProblem")} ${count}`);
  }

  function syncAward(status, item) {
    const fresh = item.querySelector(".award");
    const shown = status.querySelector(".award");
    if (fresh && shown) {
      if (shown.textContent !== fresh.textContent) shown.textContent = fresh.textContent;
    } else if (fresh) {
      status.append(fresh.cloneNode(true));
    } else {
      shown?.remove();
    }
  }

  if (isCopy()) {
    const at = live.replay(); // the answers this phone last applied, newer than its copy
    if (at) copyNote(at);
  }
  if (readonly) {
    if (pad.finished) setUpUnsaved(pad); // (what this phone typed before the game was finished: shown apart)
    return;
  }

  document.getElementById("banner-reload")?.addEventListener("click", () => {
    leaving = true; // (what waits is kept in the outbox: the reload puts it back)
    window.location.reload();
  });
  setUpKeypad(pad);
  setUpTyping(pad);
  if (!isCopy()) for (const el of typedEarly) {
    typed(el);
    if (el.type === "checkbox" || document.activeElement !== el) leave(el);
  }
  setUpUnsaved(pad);
  figures();
}
