// A value typed into a score field, read as scoring/rules/sums.py reads it: a whole number, or a sum
// of whole numbers with + and − between them ("3+6+2"), spaces and typographic signs allowed.
// Both are checked against one table of cases (tests/data/sum-cases.json), so they cannot drift.

export const MAX_SUM_LENGTH = 60; // (scoring/rules/sums.py's; each field's maxlength says it too)

// Python's str.split() whitespace, exactly (JavaScript's \s differs: no \x1c-\x1f or \x85, and a \ufeff).
const SPACE = "\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";
const SPACES = new RegExp(`[${SPACE}]`, "g");
const ENDS_WITH_SPACE = new RegExp(`[${SPACE}]$`);
const SIGNS = { "\u2212": "-", "\u2013": "-", "\uff0b": "+", "\uff0d": "-" };
const SUM = /^[+-]?[0-9]+(?:[+-][0-9]+)*$/;

// The text as the pad keeps it: no spaces, plain ASCII signs.
export function normalize(text) {
  return text.replace(/[\u2212\u2013\uff0b\uff0d]/g, (sign) => SIGNS[sign]).replace(SPACES, "");
}

// What the text is worth, or null when it is not a number or a sum (an empty text included).
export function evaluate(text) {
  const compact = normalize(text);
  if (!compact || compact.length > MAX_SUM_LENGTH || !SUM.test(compact)) return null;
  return compact.match(/[+-]?[0-9]+/g).reduce((total, term) => total + parseInt(term, 10), 0);
}

// A text that cannot be complete yet: it ends with a sign or a space ("7+", "7 "), or is only
// signs. While it is typed it is neither saved nor flagged: the player is still adding up. (A
// blank text is complete: the field is left empty.)
export function isIncomplete(text) {
  const compact = normalize(text);
  return compact !== "" && (/[+-]$/.test(compact) || ENDS_WITH_SPACE.test(text));
}

// What a text being typed adds up to so far: an incomplete one ("7+6−") counts what comes before
// its last sign ("7+6"), so the player's own sums follow the typing.
export function soFar(text) {
  return isIncomplete(text) ? normalize(text).replace(/[+-]+$/, "") : text;
}
