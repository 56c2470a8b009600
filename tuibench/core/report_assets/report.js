// tuibench HTML report: sort and filter the table of every comparison, in the page.
"use strict";
(function () {
  const table = document.getElementById("rows");
  if (!table) return;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const heads = Array.from(table.tHead.rows[0].cells);
  const filter = document.getElementById("filter");
  const verdict = document.getElementById("verdict-filter");
  const shown = document.getElementById("shown");
  const order = ["worse", "changed", "inconclusive", "better", "same", "equivalent", "na",
    "reference"];
  const texts = rows.map((row) => row.textContent.toLowerCase());
  rows.forEach((row, i) => { row.dataset.i = String(i); });

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
    const keyed = rows.map((row) => [key(row, col, type), Number(row.dataset.i), row]);
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
    const fragment = document.createDocumentFragment();
    keyed.forEach((k) => fragment.appendChild(k[2]));
    body.appendChild(fragment);
    heads.forEach((h) => h.setAttribute("aria-sort", "none"));
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  heads.forEach((th) => {
    const button = th.querySelector("button");
    if (!button) return;
    button.addEventListener("click", () => {
      sortBy(Number(button.dataset.col), button.dataset.type, th);
    });
  });

  let pending = 0;
  function applyFilter() {
    pending = 0;
    const words = filter.value.toLowerCase().split(/\s+/).filter((w) => w);
    const wanted = verdict.value;
    let n = 0;
    rows.forEach((row, i) => {
      const ok = (!wanted || row.className === wanted) &&
        words.every((w) => texts[i].includes(w));
      row.hidden = !ok;
      if (ok) n += 1;
    });
    shown.textContent = n === rows.length ? n + " rows" : n + " of " + rows.length + " rows";
  }
  function later() {
    if (pending) clearTimeout(pending);
    pending = setTimeout(applyFilter, rows.length > 2000 ? 150 : 0);
  }
  filter.addEventListener("input", later);
  verdict.addEventListener("change", applyFilter);
  if (filter.value || verdict.value) applyFilter();  // a browser may restore them
})();
