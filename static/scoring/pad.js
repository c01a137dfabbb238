// Apiary Scorepad: the little the pages need beyond htmx. No inline script, no eval (CSP).
// - every pad field shows whether it is saved; a failed save is retried until it succeeds;
// - steppers and the +/- keypad bar (the iPhone's numeric keypad has no + key);
// - the start form fills the comb from a saved layout and shows one empty sector row at a time.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var pending = new Map(); // field name -> {elt, attempt, timer}
  var MAX_DELAY_MS = 8000;

  // The words come from the page (translated there); English when a page has none.
  function message(key, fallback) {
    var pad = document.getElementById("pad");
    return (pad && pad.dataset[key]) || fallback;
  }

  function statusOf(elt) {
    return document.getElementById("status-" + elt.name);
  }

  function setStatus(elt, state, text) {
    var status = statusOf(elt);
    if (!status) return;
    status.dataset.state = state;
    status.textContent = text;
  }

  function updateConnectionBanner() {
    var banner = document.getElementById("connection");
    if (!banner) return;
    var waiting = 0;
    pending.forEach(function (entry) { if (entry.failed) waiting += 1; });
    if (waiting === 0) {
      banner.textContent = "";
    } else {
      banner.textContent = (navigator.onLine === false ? message("msgOffline", "Offline.") : message("msgProblem", "Connection problem.")) +
        " " + (waiting === 1
          ? message("msgWaitingOne", "1 value is not saved yet: retrying…")
          : message("msgWaitingMany", "%(count)s values are not saved yet: retrying…").replace("%(count)s", String(waiting)));
    }
  }

  function isPadField(elt) {
    return elt && elt.name && elt.form && elt.form.id === "pad" && elt.hasAttribute("hx-post");
  }

  function scheduleRetry(elt) {
    var entry = pending.get(elt.name) || { elt: elt, attempt: 0 };
    entry.elt = elt;
    entry.failed = true;
    entry.attempt += 1;
    clearTimeout(entry.timer);
    var delay = Math.min(MAX_DELAY_MS, 500 * Math.pow(2, entry.attempt - 1));
    entry.timer = setTimeout(function () { retry(entry); }, delay);
    pending.set(elt.name, entry);
    setStatus(elt, "retrying", message("msgRetrying", "Not saved: retrying…"));
    updateConnectionBanner();
  }

  function retry(entry) {
    clearTimeout(entry.timer);
    // The element may have been replaced; find the live one by name.
    var live = document.querySelector('#pad [name="' + entry.elt.name + '"]:not([type="hidden"])') || entry.elt;
    entry.elt = live;
    htmx.trigger(live, "retry");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!isPadField(elt)) return;
    var entry = pending.get(elt.name) || { elt: elt, attempt: 0 };
    pending.set(elt.name, entry);
    if (!entry.failed) setStatus(elt, "saving", message("msgSaving", "Saving…"));
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (!isPadField(elt)) return;
    var xhr = event.detail.xhr;
    var answered = xhr && xhr.status > 0 && xhr.status < 500;
    if (answered && event.detail.successful !== false || (xhr && xhr.status === 422)) {
      var entry = pending.get(elt.name);
      if (entry) clearTimeout(entry.timer);
      pending.delete(elt.name);
      if (xhr.status === 422) {
        elt.setAttribute("aria-invalid", "true");
      } else if (xhr.status < 300) {
        elt.removeAttribute("aria-invalid");
      }
      updateConnectionBanner();
    } else if (!xhr || xhr.status === 0 || xhr.status >= 500) {
      scheduleRetry(elt);
    }
  });

  // Network failures and time-outs never reach afterRequest as "successful": retry them.
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (isPadField(event.detail.elt)) scheduleRetry(event.detail.elt);
    });
  });

  window.addEventListener("online", function () {
    pending.forEach(function (entry) { if (entry.failed) retry(entry); });
  });

  window.addEventListener("beforeunload", function (event) {
    var unsaved = false;
    pending.forEach(function (entry) { if (entry.failed) unsaved = true; });
    if (unsaved) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  // Steppers: with JavaScript, + and - change the field in place; it saves like a typed value.
  function step(input, delta) {
    var min = parseInt(input.dataset.min || "0", 10);
    var max = parseInt(input.dataset.max || "999", 10);
    var current = parseInt(input.value, 10);
    if (isNaN(current)) current = 0;
    var next = Math.max(min, Math.min(max, current + delta));
    if (next === current && input.value !== "") return;
    input.value = String(next);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.step");
    if (!button) return;
    event.preventDefault();
    var input = button.parentElement.querySelector("input.number");
    if (input) step(input, parseInt(button.dataset.step, 10));
  });

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches(".stepper input.number")) return;
    if (event.key === "ArrowUp") { event.preventDefault(); step(input, 1); }
    if (event.key === "ArrowDown") { event.preventDefault(); step(input, -1); }
  });

  // The keypad bar: + and - for sums (and negative carvings), Next, Done.
  var bar = null;
  var lastInput = null;
  function fields() {
    return Array.prototype.slice.call(document.querySelectorAll("#pad input.number"));
  }
  document.addEventListener("focusin", function (event) {
    bar = bar || document.getElementById("keypad-bar");
    if (!bar) return;
    if (event.target.matches && event.target.matches("#pad input.number")) {
      lastInput = event.target;
      bar.hidden = !event.target.classList.contains("sum");
    }
  });
  document.addEventListener("focusout", function (event) {
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
      input.setSelectionRange(start + 1, start + 1);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    } else if (button.hasAttribute("data-next")) {
      var all = fields();
      var next = all[all.indexOf(input) + 1];
      if (next) next.focus();
    } else if (button.hasAttribute("data-done")) {
      input.blur();
      bar.hidden = true;
    }
  });

  // Enter moves to the next field instead of posting the whole form.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.matches || !event.target.matches("#pad input.number")) return;
    event.preventDefault();
    event.target.dispatchEvent(new Event("change", { bubbles: true }));
    var all = fields();
    var next = all[all.indexOf(event.target) + 1];
    if (next) next.focus();
  });

  // The start form.
  function setUpStartForm() {
    var rows = Array.prototype.slice.call(document.querySelectorAll("[data-sector-row]"));
    if (!rows.length) return;
    var addButton = document.getElementById("add-sector");
    function filled(row) { return row.querySelector("input").value !== ""; }
    function refresh() {
      var lastFilled = -1;
      rows.forEach(function (row, i) { if (filled(row)) lastFilled = i; });
      rows.forEach(function (row, i) { row.hidden = i > lastFilled + 1 && !row.dataset.shown; });
      if (addButton) addButton.hidden = rows.every(function (row) { return !row.hidden; });
    }
    if (addButton) {
      addButton.addEventListener("click", function () {
        var next = rows.find(function (row) { return row.hidden; });
        if (next) { next.hidden = false; next.dataset.shown = "1"; next.querySelector("input").focus(); }
        refresh();
      });
    }
    rows.forEach(function (row) { row.addEventListener("input", refresh); });

    var data = document.getElementById("layouts-data");
    var select = document.getElementById("id_layout");
    var nameInput = document.getElementById("id_layout_name");
    if (data && select) {
      var layouts = JSON.parse(data.textContent);
      select.addEventListener("change", function () {
        var layout = layouts.find(function (item) { return String(item.id) === select.value; });
        rows.forEach(function (row, i) {
          var inputs = row.querySelectorAll("input");
          var sector = layout && layout.sectors[i];
          inputs[0].value = sector ? sector[0] : "";
          inputs[1].value = sector ? sector[1] : "";
          delete row.dataset.shown;
        });
        if (nameInput) nameInput.value = layout ? layout.name : "";
        refresh();
      });
    }
    refresh();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpStartForm);
  } else {
    setUpStartForm();
  }
})();
