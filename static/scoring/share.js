// Score together: a share link copied, or handed to the phone's share sheet. Each button is
// shown only where the browser can do it (the Clipboard API; the Web Share API, which most
// phones have and most desktop browsers do not); the link itself is always there.

for (const button of document.querySelectorAll("[data-copy]")) {
  if (typeof navigator.clipboard?.writeText !== "function") continue;
  button.hidden = false;
  button.addEventListener("click", () => {
    const said = button.closest(".share-link")?.querySelector("[data-share-status]");
    const say = (text) => {
      if (said) said.textContent = text;
    };
    navigator.clipboard.writeText(button.dataset.copy).then(
      () => say(button.dataset.copied),
      () => say(button.dataset.copyFailed),
    );
  });
}

for (const button of document.querySelectorAll("[data-share]")) {
  if (typeof navigator.share !== "function") continue;
  button.hidden = false;
  button.addEventListener("click", () => {
    navigator.share({ title: button.dataset.shareTitle, url: button.dataset.share }).catch(() => {
      /* the sheet was closed: nothing to say */
    });
  });
}
