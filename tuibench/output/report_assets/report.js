// tuibench HTML report: sort and filter the table of every comparison, in the page.
// With many rows only the first LIMIT matching rows (in the current order) are laid out;
// "Show all" lifts the limit. Laying out tens of thousands of table rows takes seconds.
"use strict";
(function () {
  const LIMIT = 1000;
  const table = document.getElementById("rows");
  if (!table) return;
  const body = table.tBodies[0];
  const heads = Array.from(table.tHead.rows[0].cells);
  const filter = document.getElementById("filter");
  const verdict = document.getElementById("verdict-filter");
  const shown = document.getElementById("shown");
  const showAll = document.getElementById("show-all");
  const order = ["worse", "changed", "inconclusive", "better", "single", "same", "equivalent",
    "na", "reference"];
  const rows = Array.from(body.rows);
  const position = new Map(rows.map((row, i) => [row, i]));
  const texts = new Map(rows.map((row) => [row, row.textContent.toLowerCase()]));
  let current = rows.slice();
  let limit = LIMIT;

  function key(row, col, type) {
    const cell = row.cells[col];
    if (type === "num") {
      const v = cell.dataset.v;
      return v === undefined || v === "" ? null : Number(v);
    }
    if (type === "verdict") {
      const i = order.indexOf(row.className);
      return i < 0 ? order.length : i;
    }
    return cell.textContent;
  }

  function sortBy(col, type, th) {
    const descending = th.getAttribute("aria-sort") === "ascending";
    const sign = descending ? -1 : 1;
    const keyed = rows.map((row) => [key(row, col, type), position.get(row), row]);
    keyed.sort((a, b) => {
      if (a[0] === null || b[0] === null) {  // empty cells last, whatever the direction
        if (a[0] === b[0]) return a[1] - b[1];
        return a[0] === null ? 1 : -1;
      }
      let c;
      if (typeof a[0] === "number") c = a[0] - b[0];
      else c = a[0].localeCompare(b[0], undefined, { numeric: true });
      return c !== 0 ? sign * c : a[1] - b[1];
    });
    current = keyed.map((k) => k[2]);
    // Reorder with the body out of the document: moving rows inside a live table makes the
    // browser restyle every later row (:nth-child) on each move, quadratic in the rows.
    const next = body.nextSibling;
    table.removeChild(body);
    current.forEach((row) => body.appendChild(row));
    apply();
    table.insertBefore(body, next);
    heads.forEach((h) => h.setAttribute("aria-sort", "none"));
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  // Show the rows that match, the first `limit` of them in the current order.
  function apply() {
    const words = filter.value.toLowerCase().split(/\s+/).filter((w) => w);
    const wanted = verdict.value;
    let n = 0;
    current.forEach((row) => {
      const ok = (!wanted || row.className === wanted) &&
        words.every((w) => texts.get(row).includes(w));
      if (ok) n += 1;
      const hide = !ok || n > limit;
      if (row.hidden !== hide) row.hidden = hide;
    });
    const all = n === rows.length ? n + " rows" : n + " of " + rows.length + " rows";
    shown.textContent = n > limit ? "first " + limit + " of " + all + " shown" : all;
    showAll.hidden = n <= limit;
  }

  heads.forEach((th) => {
    const button = th.querySelector("button");
    if (!button) return;
    button.addEventListener("click", () => {
      sortBy(Number(button.dataset.col), button.dataset.type, th);
    });
  });
  let pending = 0;
  filter.addEventListener("input", () => {
    if (pending) clearTimeout(pending);
    pending = setTimeout(() => { pending = 0; apply(); }, rows.length > 2000 ? 150 : 0);
  });
  verdict.addEventListener("change", apply);
  showAll.addEventListener("click", () => { limit = Infinity; apply(); });
  apply();
})();
