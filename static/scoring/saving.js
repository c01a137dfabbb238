// One value saved: the request (a plain fetch, urlencoded, which says what it is: it prefers a
// refusal in plain words, and may outlive the page being left), and what its answer means.
// The answer's HTML is the pad's partials (scoring/views/pad.py), applied by answers.js. The pad's
// own headers are read here alone (the server names them in scoring/views/protocol.py).

// Longer than the server ever works on a save (settings: a 5 s lock, a 10 s statement).
export const SAVE_TIMEOUT_MS = 15000;
const MAX_RETRY_MS = 8000;

// Post one save. Resolves with { status, headers, text } whatever the status; rejects when no
// answer came (no network, a time-out).
export async function post(url, fields, { csrf, keepalive = false }) {
  const body = new URLSearchParams(); // (a save is a few dozen bytes: multipart would triple it)
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body.append(key, value);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SAVE_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      method: "POST",
      body,
      credentials: "same-origin",
      cache: "no-store",
      keepalive,
      signal: controller.signal,
      headers: { Accept: "text/plain, text/html;q=0.9", "X-CSRFToken": csrf },
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } finally {
    clearTimeout(timer);
  }
}

// What an answer's status means for the field:
// - "saved", "conflict", "refused": its own answer (its status and error come with it);
// - "gone": the game cannot be reached any more (deleted, the link revoked);
// - "expired": the server refuses this page's requests (a form out of date: reload);
// - "busy", "server": kept, and sent again after Retry-After; "refused-<status>": anything else.
export function meaning(status) {
  if (status === 200) return "saved";
  if (status === 409) return "conflict";
  if (status === 422) return "refused";
  if (status === 404 || status === 286) return "gone";
  if (status === 403) return "expired";
  if (status === 429) return "busy";
  if (status >= 500) return "server";
  return `refused-${status}`;
}

// The game's revision that an answer (a save's or a poll's) shows (0 when it says none).
export function revisionOf(headers) {
  return Number(headers.get("X-Pad-Revision"));
}

// What an answer (a save's or a poll's) says of the page itself, or null: "session" when the
// session it was made in has ended (signed out, or another person signed in: its tag is not the
// page's), "during" when another phone changed how the game counts its points, "finished" when
// the game was finished (or reopened) since the page was made.
export function outdated(headers, page) {
  const tag = headers.get("X-Session-Tag");
  const during = headers.get("X-Pad-During");
  const finished = finishedMark(headers);
  if (tag !== null && tag !== page.tag) return "session";
  if (during !== null && during !== page.during) return "during";
  if (finished !== null && finished !== page.finished) return "finished";
  return null;
}

// When the game was finished, as an answer says it ("" in progress), or null when it does not say.
export function finishedMark(headers) {
  return headers.get("X-Pad-Finished");
}

// The server's own sentence for a refusal (a short plain text), or "".
export function sentence({ headers, text }) {
  const type = headers.get("Content-Type") || "";
  return type.startsWith("text/plain") && text && text.length < 400 ? text : "";
}

// How long to wait before trying again: what the server asked (Retry-After), else doubling from
// half a second up to 8 s.
export function retryDelay(attempt, retryAfter) {
  const asked = parseInt(retryAfter || "", 10);
  if (asked > 0) return asked * 1000;
  return Math.min(MAX_RETRY_MS, 500 * 2 ** Math.max(0, attempt - 1));
}

// What the next poll asks from ({ etag, revision }: the ETag it sends, and the revision it is
// for) once a save has answered. A save's answer brings everything its write changed
// (scoring/presenters/answers.py), so when that write is the only one since the revision polled last (the
// answer's ``revision`` is the next one), the page shows the game as a poll at that revision
// would: the poll goes on from there, and a phone scoring alone is not sent the whole game again
// after each of its saves. Otherwise (another phone's write came between, or nothing was polled
// yet) the poll stays as it was, and brings the game whole.
export function pollAfterSave(polled, { etag, revision }) {
  if (!etag || polled.etag === null || revision !== polled.revision + 1) return polled;
  return { etag, revision };
}
