// Apiary Scorepad: what the pages need beyond plain forms. No inline script, no eval (CSP).
//
// The pad's promises, and where this script keeps them:
// - what was typed is what is stored: focusing a field selects it, so typing replaces it;
// - nothing acknowledged is undone: each save names the field's version this page saw, a page id
//   and a rising sequence number (the server refuses stale and out-of-order saves), and a stepper
//   sends its change (+1, -1) rather than a value computed from what this page shows;
// - every failure is visible: any answer but success or a refusal in words keeps the value on
//   screen, marks the field and says in a banner what happened and what to do;
// - nothing typed is lost: every value not yet acknowledged is kept in localStorage, per game,
//   until the server has it (the outbox: it outlasts the tab and the browser; re-applied and sent
//   in the order typed when the pad opens again, online or offline), sent at once when the page
//   is hidden or left, and covered by the leave-page warning;
// - every page is fresh: other phones' saves arrive by polling (htmx, declared on #live in the
//   template; this script adds the ETag, so a poll that finds nothing costs one cheap query and no
//   body, and applies the values to the fields nobody is typing in), and a page restored from the
//   back/forward cache is reloaded.
//
// A save is this script's own request (the outbox: versions, sequence, retries, keepalive when
// the page is left), a plain fetch that says what it is: it prefers a refusal in plain words
// (Accept), and the server answers it with the pad's partials. Undo, the recent changes and the
// poll are htmx's (hx-* attributes in the template).
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var SAVE_TIMEOUT_MS = 15000; // longer than the server ever works on a save (see settings)
  var TYPING_DELAY_MS = 500;
  var MAX_RETRY_MS = 8000;

  var pad = null; // the pad's root element, when this page is a pad
  var readonly = false; // a view-only link: the pad follows the game but saves nothing
  var pageId = randomId();
  var seq = 0;
  var state = {}; // field name -> {base, dirty, inflight, queued, delta, timer, problem, attempt, retryTimer}
  var stopped = false; // the game is gone or the session expired: no more saves from this page
  var etag = null; // the last poll's ETag: sent back, so that a poll that finds nothing new is a 304

  function randomId() {
    var bytes = new Uint8Array(8);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function msg(key, fallback) {
    return (pad && pad.dataset[key]) || fallback;
  }

  function csrfToken() {
    var input = document.querySelector("#pad input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // -- fields -------------------------------------------------------------------------------

  function fieldEl(name) {
    return document.querySelector('#pad [data-field][name="' + name + '"]');
  }

  function allFields() {
    return Array.prototype.slice.call(document.querySelectorAll("#pad [data-field]"));
  }

  function valueOf(el) {
    if (el.type === "checkbox") return el.checked ? "1" : "";
    return el.value;
  }

  function setValue(el, stored) {
    if (el.type === "checkbox") el.checked = stored === "True";
    else el.value = stored;
  }

  // A value as the outbox keeps it (as valueOf reads it: "1" or "" for a yes/no), back in its field.
  function putTyped(el, typedValue) {
    if (el.type === "checkbox") el.checked = typedValue === "1";
    else el.value = typedValue;
  }

  function storedMatches(el, stored) {
    if (el.type === "checkbox") return el.checked === (stored === "True");
    return el.value.replace(/\s+/g, "") === stored;
  }

  function fieldState(name) {
    if (!state[name]) {
      var el = fieldEl(name);
      state[name] = { base: el ? el.dataset.version : "0", dirty: false, inflight: false, queued: false, delta: 0,
                      attempt: 0, problem: "" };
    }
    return state[name];
  }

  function statusEl(name) { return document.getElementById("status-" + name); }
  function errorEl(name) { return document.getElementById("error-" + name); }

  function setStatus(name, state, text) {
    var status = statusEl(name);
    if (!status) return;
    status.dataset.state = state;
    if (text !== undefined) status.textContent = text;
  }

  // -- the outbox: what is not saved yet outlasts the tab (localStorage, per game) -------------
  // Each entry is a field's value as last typed, the version it was typed over, and when (the
  // order they are sent in when the pad opens again). Every tab of the game shares it: a tab
  // whose entry another tab got saved (or replaced) follows it (the "storage" event, below).

  function storeKey() { return "apiary-unsaved-" + pad.dataset.game; }

  function readStore() {
    try { return JSON.parse(localStorage.getItem(storeKey()) || "{}"); } catch (e) { return {}; }
  }

  function writeStore(data) {
    try {
      if (Object.keys(data).length) localStorage.setItem(storeKey(), JSON.stringify(data));
      else localStorage.removeItem(storeKey());
    } catch (e) { /* storage refused (private mode, full): the leave-page warning still covers it */ }
  }

  function remember(name, value, base) {
    var data = readStore();
    data[name] = { value: value, base: base, at: Date.now() };
    writeStore(data);
  }

  function forget(name) {
    var data = readStore();
    if (name in data) { delete data[name]; writeStore(data); }
  }

  function unsavedCount() {
    var count = 0;
    Object.keys(state).forEach(function (name) {
      var s = state[name];
      if (s.dirty || s.inflight || s.delta || s.problem) count += 1;
    });
    return count;
  }

  // -- the banner ------------------------------------------------------------------------------

  function showBanner(text, offerReload) {
    var banner = document.getElementById("banner");
    if (!banner) return;
    document.getElementById("banner-text").textContent = text;
    document.getElementById("banner-reload").hidden = !offerReload;
    banner.hidden = false;
  }

  function hideBanner() {
    var banner = document.getElementById("banner");
    if (banner && !stopped) banner.hidden = true;
  }

  function waitingText() {
    var n = 0;
    Object.keys(state).forEach(function (name) { if (state[name].problem) n += 1; });
    return n === 1 ? msg("msgWaitingOne", "1 value is not saved yet.")
      : msg("msgWaitingMany", "%(count)s values are not saved yet.").replace("%(count)s", String(n));
  }

  function refreshBanner() {
    if (stopped) return;
    var kinds = Object.keys(state).map(function (name) { return state[name].problem; }).filter(Boolean);
    if (!kinds.length) { hideBanner(); return; }
    if (kinds.indexOf("busy") >= 0) showBanner((busySentence || msg("msgBusy", "Too many saves at once.")) + " " + waitingText(), false);
    else if (navigator.onLine === false) showBanner(msg("msgOffline", "You are offline.") + " " + waitingText(), false);
    else if (kinds.indexOf("server") >= 0 && serverFault) showBanner(serverFault, false);
    else showBanner(msg("msgProblem", "The server is not answering.") + " " + waitingText(), false);
  }

  function stop(text) {
    stopped = true;
    showBanner(text, true);
  }

  // -- saving ------------------------------------------------------------------------------------

  function markUnsaved(name) {
    var el = fieldEl(name);
    if (el) el.classList.add("unsaved");
    setStatus(name, "unsaved", msg("msgUnsaved", "Not saved yet"));
  }

  function typed(el) {
    var s = fieldState(el.name);
    s.dirty = true;
    s.delta = 0; // a typed value replaces any step not sent yet
    remember(el.name, valueOf(el), s.base);
    markUnsaved(el.name);
    refreshFigures();
    clearTimeout(s.timer);
    s.timer = setTimeout(function () { send(el.name); }, TYPING_DELAY_MS);
  }

  function stepped(el, delta) {
    var s = fieldState(el.name);
    var min = parseInt(el.dataset.min || "0", 10);
    var max = parseInt(el.dataset.max || "999", 10);
    var current = parseInt(el.value, 10);
    if (isNaN(current)) current = 0;
    var next = Math.max(min, Math.min(max, current + delta));
    if (next === current && el.value !== "") return;
    el.value = String(next);
    if (s.dirty) { typed(el); return; } // a typed value not saved yet: step it and save it as typed
    s.delta += next - current;
    markUnsaved(el.name);
    refreshFigures();
    send(el.name);
  }

  function send(name, options) {
    var s = fieldState(name);
    var el = fieldEl(name);
    clearTimeout(s.timer);
    clearTimeout(s.retryTimer);
    if (!el || stopped) return;
    if (s.inflight) { s.queued = true; return; }
    if (!s.dirty && !s.delta) return;
    var body = new URLSearchParams(); // urlencoded: a save is a few dozen bytes (multipart would triple it)
    body.append("field", name);
    var delta = 0;
    var sentValue = null;
    if (s.dirty) {
      sentValue = valueOf(el);
      body.append("value", sentValue);
    } else {
      delta = s.delta;
      body.append("step", String(delta));
    }
    body.append("version", s.base); // what this save is based on (a step checks only the page's order)
    seq += 1;
    body.append("page", pageId);
    body.append("seq", String(seq));
    if (pad.dataset.player) body.append("player", pad.dataset.player);
    if (changesShown()) body.append("changes", "1"); // the recent changes come back only while shown
    s.inflight = true;
    s.queued = false;
    if (!s.problem) setStatus(name, "saving", msg("msgSaving", "Saving…"));
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, SAVE_TIMEOUT_MS) : null;
    fetch(pad.dataset.saveUrl, {
      method: "POST", body: body, credentials: "same-origin", cache: "no-store",
      keepalive: !!(options && options.keepalive),
      headers: { "Accept": "text/plain, text/html;q=0.9", "X-CSRFToken": csrfToken() },
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      return response.text().then(function (html) { return { response: response, html: html }; });
    }).then(function (answer) {
      clearTimeout(timer);
      // Outside the promise chain, so that a mistake in this script shows as an error.
      setTimeout(function () { answered(name, answer.response, answer.html, sentValue, delta); }, 0);
    }, function () {
      clearTimeout(timer);
      failed(name, "network", delta);
    });
  }

  // The game's revision that the figures on screen show. Answers can arrive out of order (two
  // fields saved at once, a poll overtaken by a save): figures older than those shown are dropped.
  function newerRevision(header) {
    var revision = parseInt(header("X-Pad-Revision") || "", 10);
    var shown = parseInt(pad.dataset.revision || "0", 10);
    if (isNaN(revision)) return true;
    if (revision < shown) return false;
    pad.dataset.revision = String(revision);
    return true;
  }

  function swap(html, response) {
    // The field's status is the first element; the rest carry hx-swap-oob (figures, the error),
    // and a comb step's answer the other cells of its sector ([data-live], as a poll's values).
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var status = holder.querySelector("[data-status]");
    if (status) {
      status.remove();
      var current = document.getElementById(status.id);
      if (current) current.replaceWith(status);
    }
    var cells = holder.querySelector("[data-live]");
    if (cells) cells.remove();
    var newer = newerRevision(function (name) { return response.headers.get(name); });
    if (!newer) {
      // Older figures than those on screen: keep only this field's own error message.
      Array.prototype.forEach.call(holder.querySelectorAll("[hx-swap-oob]:not(.field-error)"), function (el) { el.remove(); });
    }
    htmx.swap(document.getElementById("live"), holder.innerHTML, { swapStyle: "none" });
    if (cells && newer) applyItems(cells.querySelectorAll("[data-name]"));
    dimRows();
    return status;
  }

  // A row nobody has entered yet is dimmed: its heading (brought by saves and polls) says so.
  function dimRows() {
    Array.prototype.forEach.call(pad.querySelectorAll(".row-label[data-entered]"), function (label) {
      var row = label.closest(".row");
      if (row) row.classList.toggle("not-entered", label.dataset.entered !== "1");
    });
  }

  function answered(name, response, html, sentValue, delta) {
    var s = fieldState(name);
    var el = fieldEl(name);
    s.inflight = false;
    var code = response.status;
    if (code === 200 || code === 409 || code === 422) {
      var status = swap(html, response);
      s.problem = "";
      s.attempt = 0;
      if (code === 200) {
        s.base = status ? status.dataset.version : s.base;
        if (delta) {
          s.delta -= delta;
          // Show the stored count, plus the taps not sent yet.
          if (!s.dirty && status && s.delta) el.value = String(parseInt(status.dataset.stored || "0", 10) + s.delta);
        } else if (sentValue !== null && valueOf(el) === sentValue) {
          s.dirty = false;
          forget(name);
        }
        el.removeAttribute("aria-invalid");
        el.classList.remove("conflict");
        // Still unsaved when taps or typing came while this save was on its way (sent next).
        if (!s.dirty && !s.delta) el.classList.remove("unsaved");
        if (status && status.dataset.stored !== undefined && !s.dirty && !s.delta && !storedMatches(el, status.dataset.stored)) {
          setValue(el, status.dataset.stored); // a newer save of this page's own already stood
        }
      } else if (code === 409 && sentValue !== null && valueOf(el) === sentValue && status &&
                 status.dataset.stored !== undefined && storedMatches(el, status.dataset.stored)) {
        // The stored value is already the one sent (this tab's own save, sent as the page was
        // left just before a reload, landed first): nothing to choose between. Save it again
        // against the version now known, for the server's word (and "Saved"); no conflict shown.
        s.base = status.dataset.version;
        var sameError = errorEl(name);
        if (sameError) { sameError.hidden = true; sameError.textContent = ""; }
      } else if (code === 409) {
        // Changed on another phone since this page saw it: nothing was written. Keep what was
        // typed, show what is stored, and let the player choose.
        s.base = status ? status.dataset.version : s.base;
        s.conflictStored = status ? status.dataset.stored : "";
        s.dirty = false;
        s.delta = 0;
        s.conflict = true;
        el.classList.add("conflict");
        el.setAttribute("aria-invalid", "true");
      } else {
        // Refused in words: the message is under the field; the value stays to be corrected.
        s.dirty = false;
        s.delta = 0;
        s.refused = true;
        el.setAttribute("aria-invalid", "true");
        el.classList.remove("unsaved");
      }
      refreshBanner();
    } else if (code === 404) {
      failed(name, "gone", delta, 0, serverSentence(response, html));
    } else if (code === 403) {
      failed(name, "expired", delta, 0, serverSentence(response, html));
    } else if (code === 429) {
      failed(name, "busy", delta, parseInt(response.headers.get("Retry-After") || "0", 10),
             serverSentence(response, html));
    } else if (code >= 500) {
      // A 503 says in words that the database refuses to write: kept, and sent again after Retry-After.
      failed(name, "server", delta, parseInt(response.headers.get("Retry-After") || "0", 10),
             serverSentence(response, html));
    } else {
      failed(name, "refused " + code, delta);
    }
    if (s.queued || (!s.inflight && !s.problem && (s.dirty || s.delta))) send(name);
    refreshFigures(); // the server's figures came, or its answer left values waiting: this page's own on top
  }

  // The server's own sentence for a refusal (a short plain text: "the link was revoked…").
  function serverSentence(response, text) {
    var type = response.headers.get("Content-Type") || "";
    return type.indexOf("text/plain") === 0 && text && text.length < 400 ? text : "";
  }

  var busySentence = ""; // the server's own words for its last 429
  var serverFault = ""; // the server's own words for its last 5xx (a database refusing to write)

  function failed(name, kind, delta, retryAfter, sentence) {
    var s = fieldState(name);
    if (kind === "busy") busySentence = sentence || "";
    if (kind === "server") serverFault = sentence || "";
    var el = fieldEl(name);
    s.inflight = false;
    s.problem = kind;
    if (el) {
      el.classList.add("unsaved");
      // Keep what is on screen, as a value to save: a step that may not have landed is saved as
      // the value it made, against the version this page saw (a conflict says if it did land).
      if (delta) { s.delta = 0; s.dirty = true; remember(name, valueOf(el), s.base); }
    }
    setStatus(name, "failed", msg("msgUnsaved", "Not saved yet"));
    var keep = " " + msg("msgKept", "Your unsaved values stay on screen.");
    if (kind === "gone") { stop(sentence ? sentence + keep : msg("msgGone", "This game is no longer here.")); return; }
    if (kind === "expired") { stop(sentence ? sentence + keep : msg("msgExpired", "Your session expired: reload the page.")); return; }
    if (kind.indexOf("refused") === 0) {
      stop(msg("msgRefused", "The server refused this save (%(status)s): reload the page.").replace("%(status)s", kind.slice(8)));
      return;
    }
    s.attempt += 1;
    var wait = retryAfter ? retryAfter * 1000 : Math.min(MAX_RETRY_MS, 500 * Math.pow(2, s.attempt - 1));
    clearTimeout(s.retryTimer);
    s.retryTimer = setTimeout(function () { send(name); }, wait);
    setStatus(name, "retrying", msg("msgRetrying", "Not saved: retrying…"));
    refreshBanner();
    refreshFigures();
  }

  function flushAll(keepalive) {
    // Offline, a page being left sends nothing (it could not arrive): its values wait in the
    // outbox, sent the next time the pad opens.
    if (keepalive && navigator.onLine === false) return;
    Object.keys(state).forEach(function (name) {
      var s = state[name];
      if ((s.dirty || s.delta) && !s.inflight) send(name, { keepalive: keepalive });
    });
  }

  function resolveConflict(name, choice) {
    var s = fieldState(name);
    var el = fieldEl(name);
    if (!el) return;
    s.conflict = false;
    el.classList.remove("conflict");
    var error = errorEl(name);
    if (choice === "theirs") {
      setValue(el, s.conflictStored || "");
      s.dirty = false;
      forget(name);
      el.removeAttribute("aria-invalid");
      el.classList.remove("unsaved");
      if (error) { error.hidden = true; error.textContent = ""; }
      setStatus(name, "", "");
    } else {
      if (error) { error.hidden = true; error.textContent = ""; }
      s.dirty = true;
      remember(name, valueOf(el), s.base);
      send(name);
    }
    refreshFigures();
    el.focus();
  }

  // -- other phones' saves (htmx polls #live; the recent changes' fold asks too when opened) -------

  function isPoll(elt) { return elt && elt.id === "live"; }
  function poll() { var live = document.getElementById("live"); if (live && window.htmx) htmx.trigger(live, "poll-now"); }

  // The recent changes (a fold): polled only while it is open.
  function changesShown() {
    var box = document.getElementById("changes-box");
    return !!(box && box.open);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    if (!pad || !isPoll(event.detail.elt)) return;
    if (document.visibilityState === "hidden" || stopped) { event.preventDefault(); return; }
    if (etag) event.detail.headers["If-None-Match"] = etag;
    if (changesShown()) event.detail.parameters.changes = "1";
  });

  // What a poll (or the fold) brought: nothing new (304), the game gone (404), or figures older
  // than those on screen (overtaken by a save of this page) are not swapped.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!pad || !event.detail.target || event.detail.target.id !== "live") return;
    var xhr = event.detail.xhr;
    if (xhr.status === 404) stop(msg("msgGone", "This game is no longer here."));
    if (xhr.status !== 200) { event.detail.shouldSwap = false; return; }
    if (isPoll(event.detail.requestConfig && event.detail.requestConfig.elt)) etag = xhr.getResponseHeader("ETag") || etag;
    if (!newerRevision(function (name) { return xhr.getResponseHeader(name); })) event.detail.shouldSwap = false;
    else if (duringChanged(xhr.responseText)) event.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!pad || !event.detail.target || event.detail.target.id !== "live") return;
    var live = event.detail.target;
    applyItems(live.querySelectorAll("[data-name]"));
    live.innerHTML = "";
    dimRows();
    refreshFigures();
    // A poll answered: a page opened from the phone's copy (offline) now shows the game as it stands.
    var copy = document.getElementById("offline-copy");
    if (copy && navigator.onLine !== false) copy.hidden = true;
  });

  // Another phone counted the during-the-game points the other way (the VP track or the
  // breakdown): the fields and rows the answer brings are no longer this page's, so nothing of it
  // is swapped. The page reloads when nothing typed here waits to be saved; otherwise it says so,
  // and its unsaved values stay on screen.
  function duringChanged(answer) {
    var found = /<div id="live-values" data-during="(\w+)"/.exec(answer || "");
    if (!found || found[1] === pad.dataset.during) return false;
    if (!unsavedCount()) window.location.reload();
    else stop(msg("msgDuring", "Another phone changed how this game counts its points: reload the page."));
    return true;
  }

  // Undo (htmx posts it; its answer is the recent changes and every figure): the values follow by a poll.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!pad || !form.matches || !form.matches("form[data-undo]")) return;
    var xhr = event.detail.xhr;
    if (xhr.status === 200 || xhr.status === 409) { poll(); return; }
    var type = xhr.getResponseHeader("Content-Type") || "";
    var sentence = type.indexOf("text/plain") === 0 && xhr.responseText.length < 400 ? xhr.responseText : "";
    showBanner(sentence || msg("msgRefused", "The server refused (%(status)s): reload the page.")
      .replace("%(status)s", String(xhr.status)), true);
  });

  // A sector's award ("+9") follows every player's tokens there, not the field's own version:
  // it is brought up to date whatever the version.
  function syncAward(status, item) {
    var fresh = item.querySelector(".award");
    var shown = status.querySelector(".award");
    if (fresh && shown) {
      if (shown.textContent !== fresh.textContent) shown.textContent = fresh.textContent;
    } else if (fresh) {
      status.appendChild(fresh.cloneNode(true));
    } else if (shown) {
      shown.remove();
    }
  }

  // The stored values and statuses that the server sent (a poll's, or the other cells of a comb
  // step's sector), on the fields this page is not working on.
  function applyItems(items) {
    Array.prototype.forEach.call(items, function (item) {
      var name = item.dataset.name;
      var el = fieldEl(name);
      if (!el) return;
      var s = fieldState(name);
      if (s.dirty || s.inflight || s.delta || s.problem || s.conflict || s.refused) return;
      // Versions only go up: an older or equal one is what this page already shows (but for its award).
      if (document.activeElement === el || parseInt(item.dataset.version, 10) <= parseInt(s.base, 10)) {
        var shown = statusEl(name);
        if (shown && !shown.dataset.state) syncAward(shown, item);
        return;
      }
      s.base = item.dataset.version;
      el.dataset.version = s.base;
      var changed = !storedMatches(el, item.dataset.stored);
      setValue(el, item.dataset.stored);
      var status = statusEl(name);
      if (status) { status.innerHTML = item.innerHTML; status.dataset.version = s.base; status.dataset.state = ""; }
      if (changed) {
        var cell = el.closest(".cell");
        if (cell) {
          cell.classList.add("changed-elsewhere");
          setTimeout(function () { cell.classList.remove("changed-elsewhere"); }, 2500);
        }
      }
    });
  }

  // -- the player's own sums, worked out on this phone -------------------------------------------
  // A value typed here changes its player's subtotals and total at once, before the server has it
  // (and while offline): a category's VP are its value times its VP per unit (data-vp-each, from
  // the category registry), summed per section. What needs every phone's values is left to the
  // server: the comb's majorities (and so the end-of-game subtotal and the totals while a token
  // waits to be sent) and the ranking. While values wait for the network those are marked as
  // waiting, not shown wrong; the server's figures replace all of it as soon as it answers.
  var SUM_TEXT = /^[+-]?[0-9]+(?:[+-][0-9]+)*$/;

  // What a field's text is worth, as scoring/sums.py reads it; null when it is not a sum the
  // server would take (the server's message then says why).
  function typedNumber(el) {
    if (el.type === "checkbox") return el.checked ? 1 : 0;
    var text = el.value.replace(/[\u2212\u2013\uff0d]/g, "-").replace(/\uff0b/g, "+").replace(/\s+/g, "");
    if (text === "") return 0; // not entered: counts 0
    if (text.length > el.maxLength || !SUM_TEXT.test(text)) return null; // (maxlength: scoring/sums.py's MAX_SUM_LENGTH)
    var value = (text.match(/[+-]?[0-9]+/g) || []).reduce(function (total, term) { return total + parseInt(term, 10); }, 0);
    if (value < parseInt(el.dataset.min, 10) || value > parseInt(el.dataset.max, 10)) return null;
    return value;
  }

  function isPending(s) { return s.dirty || s.inflight || s.delta || s.problem; }
  function isOffline(s) { return s.problem === "network" || s.problem === "server" || s.problem === "busy"; }

  function figureEl(rowId, seat) { return document.querySelector("#" + rowId + ' .figure[data-seat="' + seat + '"]'); }
  function shownNumber(el) { var n = el ? parseInt(el.textContent, 10) : NaN; return isNaN(n) ? null : n; }

  function showFigure(el, value, waiting) {
    if (!el) return;
    var text = waiting ? "\u2026" : String(value);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("waiting", !!waiting);
    if (waiting) el.title = msg("msgFiguresWaiting", "Waiting for the network."); else el.removeAttribute("title");
  }

  // The VP of a seat's entries on this page, per section; null when one of them cannot be read.
  function ownSums(seat) {
    var sums = { during: 0, end: 0 };
    var fields = document.querySelectorAll('#pad [data-field][data-section][data-seat="' + seat + '"]');
    for (var i = 0; i < fields.length; i += 1) {
      var value = typedNumber(fields[i]);
      if (value === null) return null;
      sums[fields[i].dataset.section] += value * parseInt(fields[i].dataset.vpEach, 10);
    }
    return sums;
  }

  var figuresMarked = false; // this page marked figures as waiting: the server's come back with the next poll

  function refreshFigures() {
    if (!pad) return;
    var pendingSeats = {};
    var heldSeats = {}; // a conflict or a refusal: the server's figures stand until the player chooses
    var combPending = false;
    var waiting = false;
    Object.keys(state).forEach(function (name) {
      var s = state[name];
      var el = fieldEl(name);
      if (!el) return;
      var seat = el.dataset.seat;
      if (s.conflict || s.refused) heldSeats[seat] = true;
      if (!isPending(s)) return;
      pendingSeats[seat] = true;
      if (el.hasAttribute("data-comb")) combPending = true;
      if (isOffline(s)) waiting = true;
    });
    var combWaiting = combPending && waiting;
    Object.keys(pendingSeats).forEach(function (seat) {
      if (heldSeats[seat]) return;
      var sums = ownSums(seat);
      if (!sums) return;
      showFigure(figureEl("during-subtotal", seat), sums.during, false);
      if (combPending) return; // the majorities follow the tokens: the server's (or waiting) below
      var majority = shownNumber(figureEl("majority-row", seat));
      if (majority === null) return;
      showFigure(figureEl("end-subtotal", seat), sums.end + majority, false);
      var card = document.querySelector('#totals .total-card[data-seat="' + seat + '"] .total');
      if (card) showFigure(card, sums.during + sums.end + majority, false);
    });
    if (combWaiting) {
      Array.prototype.forEach.call(document.querySelectorAll("#majority-row .figure, #end-subtotal .figure, #totals .total"),
                                   function (el) { showFigure(el, 0, true); });
    }
    markRanking(waiting);
    if (waiting || combWaiting) figuresMarked = true;
    else if (figuresMarked && !Object.keys(pendingSeats).length) {
      figuresMarked = false;
      etag = null; // every value is in: the next poll brings the server's figures whole
      poll();
    }
  }

  // The ranking needs every phone's values: while this phone's wait for the network, it says so.
  function markRanking(waiting) {
    var ranking = document.getElementById("ranking");
    var note = document.getElementById("ranking-waiting");
    if (ranking && waiting && !note) {
      note = document.createElement("p");
      note.id = "ranking-waiting";
      note.className = "waiting-note";
      note.textContent = msg("msgRankingWaiting", "Waiting for the network: the ranking is worked out when your values are sent.");
      ranking.querySelector("h2").insertAdjacentElement("afterend", note);
    } else if (note && !waiting) {
      note.remove();
    }
    if (ranking) ranking.classList.toggle("waiting", waiting);
    Array.prototype.forEach.call(document.querySelectorAll("#totals .total-rank"), function (rank) {
      if (waiting && !rank.dataset.rank) { rank.dataset.rank = rank.textContent; rank.textContent = "\u2026"; }
      else if (!waiting && rank.dataset.rank) { rank.textContent = rank.dataset.rank; delete rank.dataset.rank; }
    });
  }

  // -- moving from field to field --------------------------------------------------------------

  var ORDER_KEY = "apiary-move-order";

  function moveOrder() {
    try { return localStorage.getItem(ORDER_KEY) === "down" ? "down" : "across"; } catch (e) { return "across"; }
  }

  function orderedFields() {
    var fields = allFields();
    if (moveOrder() !== "down") return fields;
    return fields.map(function (el, i) { return { el: el, i: i }; }).sort(function (a, b) {
      return (parseInt(a.el.dataset.seat, 10) - parseInt(b.el.dataset.seat, 10)) || (a.i - b.i);
    }).map(function (item) { return item.el; });
  }

  function focusNext(from) {
    var fields = orderedFields();
    var next = fields[fields.indexOf(from) + 1];
    if (next) { next.focus(); next.scrollIntoView({ block: "center" }); } else { from.blur(); }
  }

  // -- set-up --------------------------------------------------------------------------------------

  function restoreUnsaved() {
    // Values this tab had not heard back about before a reload (or a crash): put them back and
    // save them, against the version they were typed over.
    var data = readStore();
    Object.keys(data).sort(function (a, b) { return (data[a].at || 0) - (data[b].at || 0); }).forEach(function (name) {
      var el = fieldEl(name);
      if (!el) { delete data[name]; return; }
      var status = statusEl(name);
      var stored = status ? status.dataset.stored : null;
      var item = data[name];
      if (stored !== null && ((el.type === "checkbox" && (stored === "True") === (item.value === "1")) ||
                              (el.type !== "checkbox" && stored === String(item.value).replace(/\s+/g, "")))) {
        delete data[name];
        return;
      }
      putTyped(el, item.value);
      var s = fieldState(name);
      s.base = item.base;
      s.dirty = true;
      markUnsaved(name);
      send(name);
    });
    writeStore(data);
    refreshFigures();
  }

  function setUpPad() {
    pad = document.querySelector("[data-pad]");
    if (!pad || !window.fetch || !window.htmx) return;
    pad.classList.add("live");
    readonly = pad.hasAttribute("data-readonly");
    if (readonly) return;

    document.querySelectorAll("[data-js-only]").forEach(function (el) { el.hidden = false; });
    var order = moveOrder();
    document.querySelectorAll('input[name="move-order"]').forEach(function (radio) {
      radio.checked = radio.value === order;
      radio.addEventListener("change", function () {
        try { localStorage.setItem(ORDER_KEY, radio.value); } catch (e) { /* not remembered */ }
      });
    });

    // Finish: with this script, post the empty finish form once every value is saved.
    var finish = document.getElementById("finish-button");
    if (finish) {
      finish.setAttribute("form", "finish-form");
      finish.removeAttribute("formaction");
      document.getElementById("finish-form").addEventListener("submit", function (event) {
        if (!unsavedCount()) return;
        event.preventDefault();
        var form = event.target;
        showBanner(msg("msgFinishing", "Saving what you typed before finishing…"), false);
        flushAll(false);
        var waited = 0;
        (function wait() {
          var busy = Object.keys(state).some(function (n) { return state[n].dirty || state[n].inflight || state[n].delta; });
          var blocked = Object.keys(state).some(function (n) { return state[n].problem || state[n].conflict || state[n].refused; });
          if (!busy && !blocked) { hideBanner(); form.submit(); return; }
          if (blocked || waited > SAVE_TIMEOUT_MS) { refreshBanner(); return; }
          waited += 100;
          setTimeout(wait, 100);
        })();
      });
    }

    var reload = document.getElementById("banner-reload");
    if (reload) reload.addEventListener("click", function () { window.location.reload(); });

    restoreUnsaved();
  }

  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!pad || readonly || !el.matches || !el.matches("#pad [data-field]") || el.type === "checkbox") return;
    var s = fieldState(el.name);
    s.refused = false;
    typed(el);
  });

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (!pad || readonly || !el.matches || !el.matches("#pad [data-field]")) return;
    var s = fieldState(el.name);
    if (el.type === "checkbox") { s.refused = false; typed(el); }
    if (s.dirty) send(el.name);
  });

  // A field's content is selected when it gets focus, so what is typed replaces it (no digit
  // lands in front of an old value); the tap that focused it does not undo the selection.
  var justFocused = null;
  document.addEventListener("focusin", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches("#pad input.number")) return;
    justFocused = el;
    el.select();
    var focusedValue = el.value;
    // Once more after the browser has placed its caret, unless typing has already begun.
    setTimeout(function () {
      if (document.activeElement === el && justFocused === el && el.value === focusedValue) el.select();
    }, 0);
  });
  ["mouseup", "pointerup", "touchend"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (justFocused && event.target === justFocused && justFocused.selectionStart === 0 &&
          justFocused.selectionEnd === justFocused.value.length) {
        event.preventDefault(); // the tap that focused the field does not undo its selection
      }
      justFocused = null;
    });
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) return;
    var step = target.closest("#pad button.step");
    if (step && pad && pad.classList.contains("live")) {
      event.preventDefault();
      var input = step.parentElement.querySelector("input.number");
      if (input) stepped(input, parseInt(step.dataset.step, 10));
      return;
    }
    var resolve = target.closest("[data-resolve]");
    if (resolve) { resolveConflict(resolve.dataset.field, resolve.dataset.resolve); }
  });

  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if (!pad || !el.matches || !el.matches("#pad [data-field]")) return;
    if (el.matches(".stepper input.number")) {
      if (event.key === "ArrowUp") { event.preventDefault(); stepped(el, 1); return; }
      if (event.key === "ArrowDown") { event.preventDefault(); stepped(el, -1); return; }
    }
    if (event.key === "Enter") {
      // Enter (the keyboard's Next) saves the field and moves on in the chosen order.
      event.preventDefault();
      if (fieldState(el.name).dirty) send(el.name);
      focusNext(el);
    }
  });

  // Leaving or hiding the page sends every value still inside the typing delay at once.
  window.addEventListener("pagehide", function () { if (pad) flushAll(true); });
  document.addEventListener("visibilitychange", function () {
    if (!pad) return;
    if (document.visibilityState === "hidden") flushAll(true);
    else poll();
  });
  window.addEventListener("beforeunload", function (event) {
    if (pad && unsavedCount()) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
  window.addEventListener("online", function () {
    if (!pad) return;
    Object.keys(state).forEach(function (name) { if (state[name].problem === "network" || state[name].problem === "server") send(name); });
    etag = null; // the page may be a copy from before: the next poll brings every value and figure
    poll();
  });

  // Another tab of this game saved (or typed over) a value this tab was still holding: this tab
  // follows the outbox rather than sending its own, older copy.
  window.addEventListener("storage", function (event) {
    if (!pad || readonly || event.key !== storeKey()) return;
    var data = readStore();
    Object.keys(state).forEach(function (name) {
      var s = state[name];
      var el = fieldEl(name);
      if (!el || !s.dirty || s.inflight) return;
      var entry = data[name];
      if (entry && entry.value === valueOf(el)) return;
      clearTimeout(s.timer);
      clearTimeout(s.retryTimer);
      if (entry) {
        putTyped(el, entry.value);
        s.base = entry.base;
        send(name);
        return;
      }
      s.dirty = false;
      s.problem = "";
      el.classList.remove("unsaved");
      setStatus(name, "", "");
      etag = null; // its value as saved comes with the next poll
      poll();
    });
    refreshBanner();
    refreshFigures();
  });
  // A page shown again from the back/forward cache may be stale: load it afresh.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });

  // -- the +/- keypad bar (the iPhone's numeric keypad has no + key) ------------------------------
  // It also shows what is being typed, whole: a sum reads in full even where the field is narrow.
  var bar = null;
  var lastInput = null;
  function showTyped(input) {
    var readout = document.getElementById("keypad-readout");
    if (readout) readout.textContent = input.value;
  }
  document.addEventListener("focusin", function (event) {
    bar = bar || document.getElementById("keypad-bar");
    if (!bar) return;
    if (event.target.matches && event.target.matches("#pad input.number")) {
      lastInput = event.target;
      bar.hidden = !event.target.classList.contains("sum");
      showTyped(event.target);
    }
  });
  document.addEventListener("input", function (event) {
    if (event.target === lastInput) showTyped(event.target);
  });
  document.addEventListener("focusout", function () {
    if (!bar) return;
    setTimeout(function () {
      if (!document.activeElement || !document.activeElement.matches("#pad input.number.sum")) bar.hidden = true;
    }, 150);
  });
  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest("#keypad-bar button")) event.preventDefault(); // keep the keyboard up
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#keypad-bar button");
    if (!button || !lastInput) return;
    var input = lastInput;
    if (button.dataset.insert) {
      var start = input.selectionStart != null ? input.selectionStart : input.value.length;
      var end = input.selectionEnd != null ? input.selectionEnd : input.value.length;
      input.value = input.value.slice(0, start) + button.dataset.insert + input.value.slice(end);
      input.focus();
      justFocused = null;
      input.setSelectionRange(start + 1, start + 1);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    } else if (button.hasAttribute("data-next")) {
      if (fieldState(input.name).dirty) send(input.name);
      focusNext(input);
    } else if (button.hasAttribute("data-done")) {
      input.blur();
      bar.hidden = true;
    }
  });

  // -- Score together: a share link copied, or handed to the phone's share sheet ----------------
  // Each button is shown only where the browser can do it (the Clipboard API; the Web Share
  // API, which most phones have and most desktop browsers do not); the link itself is always there.
  function setUpShare() {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      if (!navigator.clipboard || typeof navigator.clipboard.writeText !== "function") return;
      button.hidden = false;
      button.addEventListener("click", function () {
        var card = button.closest(".share-link");
        var said = card && card.querySelector("[data-share-status]");
        function say(text) { if (said) said.textContent = text; }
        navigator.clipboard.writeText(button.dataset.copy).then(function () { say(button.dataset.copied); },
                                                                 function () { say(button.dataset.copyFailed); });
      });
    });
    document.querySelectorAll("[data-share]").forEach(function (button) {
      if (typeof navigator.share !== "function") return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.share({ title: button.dataset.shareTitle, url: button.dataset.share })
          .catch(function () { /* the sheet was closed: nothing to say */ });
      });
    });
  }

  // -- the start form ----------------------------------------------------------------------------
  // The server shows the comb's rows up to the last one filled in (no empty row beyond them);
  // "Add a sector" shows the next row here at once (without this script it posts the form back
  // with one more row).
  function setUpStartForm() {
    var rows = Array.prototype.slice.call(document.querySelectorAll("[data-sector-row]"));
    var addButton = document.getElementById("add-sector");
    if (!rows.length || !addButton) return;
    var count = document.querySelector("[data-sector-rows]");
    addButton.addEventListener("click", function (event) {
      event.preventDefault();
      var next = rows.find(function (row) { return row.hidden; });
      if (next) { next.hidden = false; next.querySelector("input").focus(); }
      if (count) count.value = String(rows.filter(function (row) { return !row.hidden; }).length);
      addButton.hidden = rows.every(function (row) { return !row.hidden; });
    });
  }

  // A layout chosen on the start form: htmx brings the comb filled in from it, to set up again.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "comb-sectors") setUpStartForm();
  });

  // Adding a game file's games: htmx asks for each step as the last one arrives. A step that
  // fails (an error answer, no connection, a time-out) is said where the progress stands; its
  // Continue button goes on from there (the games added so far are kept).
  function importStepFailed(event) {
    var form = event.detail.elt;
    if (!form || !form.matches || !form.matches("form[data-import-step]")) return;
    var said = form.querySelector("[data-step-failed]");
    if (said) said.hidden = false;
  }
  ["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, importStepFailed);
  });

  // -- offline: the service worker, and the notes a page shows ----------------------------------
  // The service worker (templates/sw.js) keeps the static files and a copy of the pads and the
  // history; a page it shows from that copy, because the network cannot be reached, is marked
  // (data-offline-copy) and says so, with the time it was made. Once the network is back, the
  // copy's figures are brought up to date by the pad's next poll (sent at once, see "online").
  function note(id, time) {
    var el = document.getElementById(id);
    if (!el) return;
    var text = el.dataset.text || "";
    if (time) {
      var when = new Date(parseInt(time, 10) * 1000);
      text = text.replace("%(time)s", when.toLocaleTimeString(document.documentElement.lang || undefined,
                                                              { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }));
    }
    el.textContent = text;
    el.hidden = false;
  }

  function setUpOffline() {
    var root = document.body;
    if (root.hasAttribute("data-offline-copy")) {
      note("offline-copy", root.dataset.shownAt);
      window.addEventListener("online", function () {
        // A pad catches up by its poll; any other page is loaded afresh.
        if (!pad) window.location.reload();
      });
    }
    if (!("serviceWorker" in navigator) || !root.dataset.sw) return;
    var controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (controlled) note("app-updated"); // a newer version took over from the one this page had
      controlled = true;
    });
    navigator.serviceWorker.register(root.dataset.sw, { scope: "/", updateViaCache: "none" })
      .catch(function () { /* no service worker (a private window): the app works online as before */ });
  }

  function ready() {
    setUpOffline();
    setUpPad();
    setUpShare();
    setUpStartForm();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
