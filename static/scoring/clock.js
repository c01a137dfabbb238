// A time of day as the server writes one (scoring/wording/numbers_and_dates.py's clock): the page
// gives the format in the letters of Django's date format (data-time-format: "H:i", in French
// "G\u202f\\h\u202fi", the typographers' "21 h 14"). Pure: no page needed (tests/js/clock.test.js).

const pad = (number) => String(number).padStart(2, "0");

// The letters a time of day needs; any other character is written as it is, and a backslash
// writes the next one as it is (Django's escape: "\h" is an "h").
const LETTERS = {
  G: (when) => String(when.getHours()),
  H: (when) => pad(when.getHours()),
  i: (when) => pad(when.getMinutes()),
};

// ``when`` (a Date, in the phone's time) written in ``format``.
export function clockText(when, format) {
  let text = "";
  for (let index = 0; index < format.length; index += 1) {
    const letter = format[index];
    if (letter === "\\" && index + 1 < format.length) {
      index += 1;
      text += format[index];
    } else {
      text += LETTERS[letter] ? LETTERS[letter](when) : letter;
    }
  }
  return text;
}
