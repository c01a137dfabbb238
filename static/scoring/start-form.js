// The start form's comb: the server shows the sector rows up to the last one filled in (no empty
// row beyond them); "Add a sector" shows the next row here at once (without this script it posts
// the form back with one more row). A saved layout chosen from the list is brought by htmx, the
// comb filled in from it: its rows are set up again.

function setUpSectors() {
  const rows = [...document.querySelectorAll("[data-sector-row]")];
  const add = document.getElementById("add-sector");
  if (!rows.length || !add) return;
  const count = document.querySelector("[data-sector-rows]");
  add.addEventListener("click", (event) => {
    event.preventDefault();
    const next = rows.find((row) => row.hidden);
    if (next) {
      next.hidden = false;
      next.querySelector("input").focus();
    }
    if (count) count.value = String(rows.filter((row) => !row.hidden).length);
    add.hidden = rows.every((row) => !row.hidden);
  });
}

setUpSectors();
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target?.id === "comb-sectors") setUpSectors();
});
