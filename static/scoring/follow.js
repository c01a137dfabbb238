// A page that follows the game as the table plays it: the table's view (its standings) and the
// results (everything but the form being typed in). htmx polls each element marked data-follow
// (its hx-get and hx-trigger="every …ms, poll-now" in the template, swapped whole); poll.js adds
// the ETag it last got, so that a poll that finds nothing new is a 304 with no body, and holds the
// poll while the page is hidden, asking at once when it is shown again.

import { followPoll } from "./poll.js";

// (data-poll-etag: the ETag of what the page shows, as a poll at its revision would bring it)
for (const element of document.querySelectorAll("[data-follow]")) {
  followPoll(element.id, { shown: element.dataset.pollEtag || null });
}
