// The table's view follows the game: htmx polls its standings (declared on #standings in
// templates/scoring/table.html, swapped whole); poll.js adds the ETag it last got, so that a poll
// that finds nothing new is a 304 with no body, and holds the poll while the page is hidden,
// asking at once when it is shown again.

import { followPoll } from "./poll.js";

followPoll("standings");
