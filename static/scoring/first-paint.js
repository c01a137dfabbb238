// The values this phone kept for this game and the server does not have yet (the outbox:
// store.js's Outbox, unsaved.js) put back in their fields as the page is first drawn, before the
// pad's modules run: a reload while typing never shows a field empty, or as the server had it,
// for a moment. pad.js then takes them over (unsaved.js: their state, their save, the focus).
//
// A classic script, written into the pad right after its fields and run there ({% inline_script %}:
// a module would run after the first paint, a fetched script hold it): it cannot import store.js,
// so it reads the outbox under the key store.js files it ("apiary:<tag>:<game>:outbox");
// tests/js/first-paint.test.js holds the two together.
(() => {
  const pad = document.querySelector("[data-pad]");
  const tag = document.body.dataset.sessionTag;
  if (!pad || !tag || "readonly" in pad.dataset) return;
  let outbox = {};
  try {
    outbox = JSON.parse(localStorage.getItem(`apiary:${tag}:${pad.dataset.game}:outbox`) || "{}");
  } catch {
    return; // (storage refused: nothing was kept)
  }
  for (const [name, entry] of Object.entries(outbox)) {
    const el = pad.querySelector(`[data-field][name="${CSS.escape(name)}"]`);
    if (!el || entry.apart) continue;
    if (el.type === "checkbox") el.checked = String(entry.value) === "1";
    else el.value = String(entry.value);
    el.dataset.kept = ""; // (not typed before the pad's script ran: unsaved.js puts it back as kept)
  }
})();
