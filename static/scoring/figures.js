// A player's own sums, worked out on this phone as values are typed (offline too), before the
// server has them: a category's VP are its value times its VP per unit (data-vp-each, from the
// category registry, written once on the row of its fields), summed per section. What needs every
// phone's values is left to the server: the comb's majorities (so the end-of-game subtotal and the
// totals, while a token waits) and the ranking; while values wait for the network those say they
// wait rather than show a wrong figure.
// The server's figures replace all of it as soon as it answers.

import { isPending, Phase, waitsForNetwork } from "./field-state.js";
import { kindOf } from "./fields.js";
import { evaluate, soFar } from "./sums.js";

const WAITING = "\u2026";

// What a field holds, as the server will read it (a sum being typed: what it adds up to so far);
// null when it is not a value the server takes.
export function fieldNumber({ checkbox, checked, text, min, max }) {
  if (checkbox) return checked ? 1 : 0;
  const typed = soFar(text);
  if (typed.trim() === "") return 0; // not entered: counts 0
  const value = evaluate(typed);
  return value === null || value < min || value > max ? null : value;
}

// A seat's VP per section from its fields ({ section, vpEach, number }); null when one cannot be read.
export function seatSums(fields) {
  const sums = { during: 0, end: 0 };
  for (const field of fields) {
    if (field.number === null) return null;
    sums[field.section] += field.number * field.vpEach;
  }
  return sums;
}

function number(el, kind) {
  return fieldNumber({
    checkbox: el.type === "checkbox",
    checked: el.checked,
    text: el.value,
    min: Number(kind.min),
    max: Number(kind.max),
  });
}

function figure(rowId, seat) {
  return document.querySelector(`#${rowId} .figure[data-seat="${seat}"]`);
}

// A figure as the server writes one (scoring/wording/numbers_and_dates.py's figure): a negative one
// with a true minus sign, "−3" (the sums stay whole numbers: no decimals to write in the page's
// language).
export function figureText(value) {
  return value < 0 ? `\u2212${-value}` : String(value);
}

// A cell's VP as the server wrote them ("8 VP", « 8 PV »), another figure put in their place: the
// unit stays the page's own words.
export function withFigure(text, value) {
  return text.replace(/^[\u2212-]?\d+/, figureText(value));
}

// The VP a count's or a yes/no's cell shows under its value, from the value on this phone.
function showCellVp(el, kind) {
  const vp = document.querySelector(`#status-${el.name} .vp:not(.award)`);
  const value = number(el, kind);
  if (!vp || value === null) return;
  const text = withFigure(vp.textContent, value * Number(kind.vpEach));
  if (vp.textContent !== text) vp.textContent = text;
}

function show(el, value, waiting, title) {
  if (!el) return;
  const text = waiting ? WAITING : figureText(value);
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("waiting", waiting);
  if (waiting) el.title = title;
  else el.removeAttribute("title");
}

// The phone's own sums, shown again over the server's figures as the fields' states stand
// (``fields``: fields.js's store; ``msg(key)``: the pad's words): once the page is set up, after
// each change of a field's state ("pad:field") and each answer of the server's applied
// ("pad:answered", live.js), once for all the changes of a moment. Once figures were marked as
// waiting and nothing of this phone's waits any more, the next poll brings the server's figures
// whole ("pad:poll-whole", live.js).
export function setUpFigures(root, { fields, msg }) {
  let waited = false;
  let due = false;
  function refresh() {
    due = false;
    if (refreshFigures(root, fields.all(), msg)) {
      waited = true;
    } else if (waited && !fields.all().some(({ state }) => isPending(state))) {
      waited = false;
      root.dispatchEvent(new Event("pad:poll-whole"));
    }
  }
  function soon() {
    if (due) return;
    due = true;
    queueMicrotask(refresh);
  }
  root.addEventListener("pad:field", soon);
  root.addEventListener("pad:answered", soon);
  soon();
}

// ``fields``: every field with its state ([{ el, state }]). Returns whether figures were marked
// as waiting.
function refreshFigures(root, fields, msg) {
  const pending = new Set();
  const held = new Set(); // a conflict or a refusal: the server's figures stand until the player chooses
  let combPending = false;
  let waiting = false;
  for (const { el, state: s } of fields) {
    const seat = el.dataset.seat;
    if (s.phase === Phase.CONFLICT || s.phase === Phase.REFUSED) held.add(seat);
    if (!isPending(s)) continue;
    pending.add(seat);
    if (el.type === "checkbox" ? el.checked : el.value.trim()) enteredHere(el);
    const kind = kindOf(el);
    if ("comb" in kind) combPending = true;
    else if (kind.vpEach) showCellVp(el, kind);
    if (waitsForNetwork(s)) waiting = true;
  }
  for (const seat of pending) {
    if (held.has(seat)) continue;
    const seatFields = [...root.querySelectorAll(`[data-section] [data-field][data-seat="${seat}"]`)];
    const sums = seatSums(
      seatFields.map((el) => {
        const kind = kindOf(el); // (its row's, read once a field)
        return { section: kind.section, vpEach: Number(kind.vpEach), number: number(el, kind) };
      }),
    );
    if (!sums) continue;
    show(figure("during-subtotal", seat), sums.during, false);
    if (combPending) continue; // the majorities follow every phone's tokens: the server's (or waiting)
    const majority = parseInt(figure("majority-row", seat)?.textContent ?? "", 10);
    if (Number.isNaN(majority)) continue;
    show(figure("end-subtotal", seat), sums.end + majority, false);
    const card = document.querySelector(`#totals .total-card[data-seat="${seat}"] .total`);
    show(card, sums.during + sums.end + majority, false);
  }
  if (combPending && waiting) {
    const needingEveryPhone = "#majority-row .figure, #end-subtotal .figure, #totals .total";
    for (const el of document.querySelectorAll(needingEveryPhone)) {
      show(el, 0, true, msg("msgFiguresWaiting"));
    }
  }
  markRanking(waiting, msg, waiting && !combPending ? ranksHere() : null);
  return waiting;
}

// The places as the server gives them (scoring/rules/engine.py's score_game): 1 + the number of
// players with more VP, or as many and more active workers; equal both, one place shared.
// ``players``: [{ total, workers }]. Returns each one's place, in the same order.
export function places(players) {
  const beats = (o, p) => o.total > p.total || (o.total === p.total && o.workers > p.workers);
  return players.map((p) => 1 + players.filter((o) => beats(o, p)).length);
}

// Every seat's place as this phone knows it: each total on the cards (its own sums, the server's
// for the others) and each player's active workers (their fields); null when one is not known
// here (a total waiting, one player's view without the others' workers).
function ranksHere() {
  const cards = [...document.querySelectorAll("#totals .total-card")];
  const players = cards.map((card) => {
    const total = card.querySelector(".total");
    const workers = document.getElementById(`f-s${card.dataset.seat}-active_workers`);
    const known = total && !total.classList.contains("waiting");
    return {
      seat: card.dataset.seat,
      total: known ? evaluate(total.textContent) : null, // (sums.js reads its true minus)
      workers: workers ? number(workers, kindOf(workers)) : null,
    };
  });
  if (!players.length || players.some((p) => p.total === null || p.workers === null)) return null;
  const placed = places(players);
  return new Map(players.map((p, i) => [p.seat, placed[i]]));
}

// A row this phone has typed a value in is no longer one "nobody" has entered, before the server
// says so (offline too): its heading loses "(not entered yet)" and the row its dimming (answers.js's
// data-entered). The server's heading, when it comes, says the same.
function enteredHere(el) {
  const label = el.closest(".row")?.querySelector(".row-label[data-entered='0']");
  if (!label) return;
  label.dataset.entered = "1";
  label.querySelector(".empty-mark")?.remove();
  label.closest(".row").classList.remove("not-entered");
}

// The ranking needs every phone's values: while this phone's wait for the network, it says so;
// the totals' cards show the places as this phone knows them (``here``: seat → place), else "…".
function markRanking(waiting, msg, here) {
  const ranking = document.getElementById("ranking");
  let note = document.getElementById("ranking-waiting");
  if (ranking && waiting && !note) {
    note = document.createElement("p");
    note.id = "ranking-waiting";
    note.className = "waiting-note";
    note.textContent = msg("msgRankingWaiting");
    ranking.querySelector("h2").after(note);
  } else if (note && !waiting) {
    note.remove();
  }
  ranking?.classList.toggle("waiting", waiting);
  document.querySelectorAll("#totals .total-rank").forEach((rank) => {
    // (the rank shown is kept aside while it waits: "" too, before anybody has scored)
    if (waiting) {
      if (!("rank" in rank.dataset)) rank.dataset.rank = rank.textContent;
      const place = here?.get(rank.closest(".total-card")?.dataset.seat);
      rank.textContent = place ? msg(`msgRank${place}`) : WAITING;
    } else if ("rank" in rank.dataset) {
      rank.textContent = rank.dataset.rank;
      delete rank.dataset.rank;
    }
  });
}
