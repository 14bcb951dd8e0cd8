// Table leaves: the tree builder stores a table as text in a plain form
// (backend/papertree/table.go):
//
//   Table 1: Summary statistics.   <- caption, if any: a first line with no cell separator
//   | Data | c | N                <- header row, if any: a leading "| "
//   MR | 2 | 10662                <- one row per line, cells split by " | " ("\|" is a literal bar)
//
// parseTable reads it back; renderTable builds a <table> with lib/dom.ts,
// so every cell is inserted as text (PDF text is untrusted).

import { h } from "./dom";

export interface ParsedTable {
  caption: string;
  header: string[] | null;
  rows: string[][];
}

function splitCells(line: string): string[] {
  const cells: string[] = [];
  let cur = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\\" && line[i + 1] === "|") {
      cur += "|";
      i++;
    } else if (c === "|") {
      cells.push(cur.trim());
      cur = "";
    } else {
      cur += c;
    }
  }
  cells.push(cur.trim());
  return cells;
}

/** Reads a table leaf's text (see the file comment). */
export function parseTable(text: string): ParsedTable {
  const t: ParsedTable = { caption: "", header: null, rows: [] };
  text
    .replace(/\n+$/, "")
    .split("\n")
    .forEach((line, i) => {
      const cells = splitCells(line);
      if (i === 0 && cells.length === 1) t.caption = cells[0];
      else if (t.rows.length === 0 && t.header === null && line.startsWith("| ")) t.header = splitCells(line.slice(2));
      else t.rows.push(cells);
    });
  return t;
}

/** A row read with its headers, as the extractive answer quotes it ("ViT-L: Layers 24, Params 307M"). */
export function rowSentence(t: ParsedTable, row: string[]): string {
  const parts: string[] = [];
  for (let j = 1; j < row.length; j++) {
    if (row[j].replace(/[-−–— ]/g, "") === "") continue;
    const hd = t.header?.[j] ?? "";
    parts.push(hd ? `${hd} ${row[j]}` : row[j]);
  }
  const s = parts.join(", ");
  return row[0] && s ? `${row[0]}: ${s}` : row[0] || s;
}

/** A table element for a table leaf; rows whose sentence the answer quotes get class "quoted". */
export function renderTable(text: string, quoted = ""): HTMLElement {
  const t = parseTable(text);
  const width = Math.max(t.header?.length ?? 0, ...t.rows.map((r) => r.length));
  const pad = (r: string[]) => Array.from({ length: width }, (_, i) => r[i] ?? "");
  return h(
    "table",
    { class: "leaf-table", "data-testid": "leaf-table" },
    t.caption ? h("caption", {}, t.caption) : null,
    t.header ? h("thead", {}, h("tr", {}, pad(t.header).map((c) => h("th", { scope: "col" }, c)))) : null,
    h(
      "tbody",
      {},
      t.rows.map((r) => {
        const on = quoted !== "" && quoted.includes(rowSentence(t, r));
        return h("tr", on ? { class: "quoted", "data-testid": "quoted-row" } : {}, pad(r).map((c) => h("td", {}, c)));
      }),
    ),
  ) as HTMLElement;
}
