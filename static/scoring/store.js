// What this phone keeps for one session, in localStorage: filed under the session's tag (the
// page's data-session-tag, scoring/access.session_tag) and the game, so that a session's unsaved
// values and kept answers are never another session's. Whatever ended the last session (signing
// out, expiry, a password changed elsewhere), the next page of another session forgets them all.
//
// Keys: "apiary:<tag>:<game>:<kind>", a JSON value each. The phone's own preferences (where Next
// goes) are not a session's, and are kept apart ("apiary-move-order").

const PREFIX = "apiary:";
const LEGACY = "apiary-unsaved-"; // the outbox before sessions had tags: whose it was is unknown

// Forget everything a session other than ``tag`` kept on this phone ("" forgets every session's).
export function forgetOtherSessions(storage, tag) {
  const own = `${PREFIX}${tag}:`;
  const keys = [];
  try {
    for (let i = 0; i < storage.length; i += 1) keys.push(storage.key(i));
    for (const key of keys) {
      const another = key.startsWith(PREFIX) && (!tag || !key.startsWith(own));
      if (another || key.startsWith(LEGACY)) storage.removeItem(key);
    }
  } catch {
    // storage refused (a private window): nothing was kept
  }
}

// The answers kept for the pads' offline copies (live.js), for the ``keep`` games this session
// opened last; the others' are forgotten (the service worker's copy of their pad is as old).
export function forgetOldAnswers(storage, tag, keep) {
  const own = `${PREFIX}${tag}:`;
  const games = [];
  try {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (!key.startsWith(own) || !key.includes(":answers:")) continue;
      const answers = JSON.parse(storage.getItem(key) || "[]");
      games.push({ key, at: Math.max(0, ...answers.map((answer) => answer.at || 0)) });
    }
    for (const { key } of games.sort((a, b) => b.at - a.at).slice(keep)) storage.removeItem(key);
  } catch {
    // storage refused: nothing was kept
  }
}

// One kind of value kept for one game in one session: read() and write() a JSON value.
export function kept(storage, tag, game, kind) {
  const key = `${PREFIX}${tag}:${game}:${kind}`;
  return {
    key,
    read(empty) {
      try {
        const text = tag ? storage.getItem(key) : null;
        return text ? JSON.parse(text) : empty;
      } catch {
        return empty;
      }
    },
    write(value, isEmpty) {
      if (!tag) return; // a page of no session keeps nothing
      try {
        if (isEmpty) storage.removeItem(key);
        else storage.setItem(key, JSON.stringify(value));
      } catch {
        // storage refused or full: the page still holds the value, and the leave-page warning covers it
      }
    },
  };
}

// The outbox: each value typed on this phone and not yet acknowledged by the server, as typed,
// with the version it was typed over (what its save is based on), when (the order they are sent
// in), the field's words (to name it if it can no longer be saved), and whether the player was
// still typing it. An entry set apart (``apart``: why) can no longer be saved; it stays, shown
// with what it was, until the player dismisses it.
export class Outbox {
  constructor(storage, tag, game, now = () => Date.now()) {
    this.store = kept(storage, tag, game, "outbox");
    this.now = now;
  }

  all() {
    return this.store.read({});
  }

  // Whether a storage event's key is this outbox's (another tab of the game changed it).
  isKey(key) {
    return key === this.store.key;
  }

  // The key of something a tab keeps beside this outbox (``what``: its field in focus, say).
  keyFor(what) {
    return `${this.store.key}:${what}`;
  }

  // The entries in the order they were typed.
  entries() {
    const data = this.all();
    return Object.keys(data)
      .map((name) => ({ name, ...data[name] }))
      .sort((a, b) => a.at - b.at || (a.name < b.name ? -1 : 1));
  }

  get(name) {
    return this.all()[name] || null;
  }

  put(name, { value, base, label = "", typing = false }) {
    const data = this.all();
    data[name] = { value, base, at: this.now(), label, typing };
    this.store.write(data, false);
  }

  setApart(name, why) {
    const data = this.all();
    if (!data[name]) return;
    data[name].apart = why;
    this.store.write(data, false);
  }

  drop(name) {
    const data = this.all();
    if (!(name in data)) return;
    delete data[name];
    this.store.write(data, Object.keys(data).length === 0);
  }
}
