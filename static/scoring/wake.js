// The screen stays awake while a pad, or the table's view, is in front of the player (the Screen
// Wake Lock API, where the browser has it; nothing breaks where it does not), and may sleep again
// once the page is hidden or the game is finished: the page says when it wants the screen awake
// ([data-keep-awake], which a finished game's page, or its standings once swapped in, lack).

let lock = null; // the lock held, or a promise of it while it is asked for

const wanted = () =>
  document.visibilityState === "visible" && document.querySelector("[data-keep-awake]") !== null;

async function follow() {
  if (typeof navigator.wakeLock?.request !== "function") return;
  if (wanted() && lock === null) {
    lock = navigator.wakeLock.request("screen");
    try {
      lock = await lock;
      lock.addEventListener("release", () => {
        lock = null;
      }); // (the browser lets it go when the page is hidden)
    } catch {
      lock = null; // refused (a battery saver, a page not in front): the screen may sleep
      return;
    }
  }
  if (!wanted() && lock !== null && typeof lock.release === "function") {
    const held = lock;
    lock = null;
    held.release().catch(() => {});
  }
}

document.addEventListener("visibilitychange", follow);
document.addEventListener("htmx:afterSwap", follow);
follow();
