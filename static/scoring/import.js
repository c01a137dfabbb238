// Adding a game file's games: htmx asks for each step as the last one arrives. A step that fails
// (an error answer, no connection, a time-out) is said where the progress stands; its Continue
// button goes on from there (the games added so far are kept).

for (const name of ["htmx:responseError", "htmx:sendError", "htmx:timeout"]) {
  document.addEventListener(name, (event) => {
    const form = event.detail.elt;
    if (!form?.matches?.("form[data-import-step]")) return;
    const said = form.querySelector("[data-step-failed]");
    if (said) said.hidden = false;
  });
}
