// The Compare view: choose papers (or the whole library) and aspects (or let
// PaperTree propose them from the papers' headings), and get a table with a
// row per paper and a column per aspect. Every cell quotes the paper's own
// sentence with its section path and page; a cell without evidence says so.
//
// Layout (issue 20): the paper picker is a vertical list (the mouse wheel
// scrolls it) with a filter box (title, authors, year, file name) and
// "select all shown" / "clear"; it folds away once a table is built. The
// table takes the full width while no cell is open; it scrolls sideways with
// its header row and paper column sticky. Opening a cell (click, Enter or
// Space; arrow keys move between cells) works like a citation: the paper's
// tree opens in a pane beside the table (over it in a narrow window) with the
// cell's root-to-leaf path highlighted, and its page opens with the passage
// marked. Esc or the pane's Close button gives the table the full width back.
// Cell text comes from PDFs and is inserted as text only (lib/dom.ts).

import { ApiError, type Api, type CompareCell, type CompareInput, type CompareTable, type Evidence, type Paper } from "../lib/api";
import { h, mount } from "../lib/dom";
import { fold, words } from "../lib/papers";
import { highlightOf, pageList } from "../lib/tree";
import { openPageView } from "./pdfview";
import { createTreeView } from "./tree";

export interface CompareView {
  el: HTMLElement;
  /** Preselects papers (e.g. those ticked in the library) and reloads the list. */
  open(selected: string[]): Promise<void>;
  table(): CompareTable | null;
}

export function parseAspects(s: string): string[] {
  return s
    .split(/[;\n]/)
    .map((a) => a.trim())
    .filter((a) => a !== "");
}

/** The picker's filter: every typed word must occur in the title, an author, the year or the file name. */
export function filterPickable(papers: Paper[], query: string): Paper[] {
  const want = words(query);
  if (want.length === 0) return papers;
  return papers.filter((p) => {
    const hay = fold([p.title, ...(p.authors ?? []), p.year ? String(p.year) : "", p.file.split("/").pop() ?? ""].join(" \u0001 "));
    return want.every((w) => hay.includes(w));
  });
}

/**
 * The cell a key moves to in a rows x cols grid, or null when the key is not
 * a move (or the grid is empty). Arrows stop at the edges; Home/End go to the
 * row's first/last cell, with Ctrl to the table's first/last cell.
 */
export function moveCell(key: string, ctrl: boolean, row: number, col: number, rows: number, cols: number): [number, number] | null {
  if (rows <= 0 || cols <= 0) return null;
  const clamp = (r: number, c: number): [number, number] => [Math.min(rows - 1, Math.max(0, r)), Math.min(cols - 1, Math.max(0, c))];
  switch (key) {
    case "ArrowUp":
      return clamp(row - 1, col);
    case "ArrowDown":
      return clamp(row + 1, col);
    case "ArrowLeft":
      return clamp(row, col - 1);
    case "ArrowRight":
      return clamp(row, col + 1);
    case "Home":
      return ctrl ? [0, 0] : clamp(row, 0);
    case "End":
      return ctrl ? [rows - 1, cols - 1] : clamp(row, cols - 1);
    default:
      return null;
  }
}

const keyOf = (paperId: string, aspect: string) => `${paperId}\u0000${aspect}`;

export function createCompareView(api: Api, opts: { openPage?: boolean } = {}): CompareView {
  let papers: Paper[] = [];
  let chosen = new Set<string>();
  let table: CompareTable | null = null;
  let input: CompareInput = { paperIds: [], aspects: [] };
  let running = false;
  let note = "";
  let active = "";
  let paneOpen = false;
  /** The table cell that takes Tab (roving tabindex): [row, col]. */
  let cur: [number, number] = [0, 0];

  const tree = createTreeView({ onEmptyHint: "Open a cell: its paper shows here with the quoted passage's path highlighted." });

  // --- the paper picker ---
  const filterBox = h("input", {
    type: "search",
    class: "cmp-filter",
    placeholder: "Filter by title, author or year…",
    "aria-label": "Filter papers by title, author or year",
    "data-testid": "compare-filter",
    on: { input: () => renderPicker() },
  });
  const pickCount = h("span", { class: "muted cmp-pick-count", "data-testid": "compare-pick-count", "aria-live": "polite" });
  const pickSummary = h("span", { class: "cmp-pick-summary", "data-testid": "compare-pick-summary" });
  const paperList = h("ul", { class: "cmp-paper-list", "data-testid": "compare-papers", "aria-label": "Papers to compare" });
  const shown = () => filterPickable(papers.filter((p) => p.status === "ready"), filterBox.value);
  const selectShown = h(
    "button",
    {
      type: "button",
      class: "btn btn-quiet btn-small",
      "data-testid": "compare-select-shown",
      on: {
        click: () => {
          for (const p of shown()) chosen.add(p.id);
          renderPicker();
        },
      },
    },
    "Select all shown",
  );
  const clearChosen = h(
    "button",
    {
      type: "button",
      class: "btn btn-quiet btn-small",
      "data-testid": "compare-clear",
      on: {
        click: () => {
          chosen.clear();
          renderPicker();
        },
      },
    },
    "Clear",
  );
  const picker = h(
    "details",
    { class: "cmp-picker", open: true, "data-testid": "compare-picker" },
    h("summary", null, h("span", { class: "cmp-pick-label" }, "Papers"), pickSummary),
    h("div", { class: "cmp-pick-bar" }, filterBox, selectShown, clearChosen, pickCount),
    paperList,
  );

  // --- aspects and the build button ---
  const aspects = h("input", {
    type: "text",
    class: "cmp-aspects",
    placeholder: "Aspects, separated by ; (empty: proposed from the headings, e.g. Dataset; Method; Metric; Results)",
    "aria-label": "Aspects",
    "data-testid": "compare-aspects",
    on: {
      keydown: (e) => {
        if ((e as KeyboardEvent).key === "Enter") void run();
      },
    },
  });
  const build = h("button", { type: "button", class: "btn btn-primary cmp-build", "data-testid": "compare-build", on: { click: () => void run() } }, "Compare");
  const status = h("p", { class: "muted cmp-status", role: "status", "data-testid": "compare-status" });
  const tools = h("div", { class: "cmp-tools" });
  const warnBox = h("div", { class: "cmp-warnbox" });
  const body = h("div", { class: "cmp-body", "data-testid": "compare-body" });

  // --- the paper pane ---
  const paneTitle = h("span", { class: "cmp-side-title" });
  const paneToggle = h("button", {
    type: "button",
    class: "btn btn-quiet btn-small cmp-pane-toggle",
    "data-testid": "compare-pane-toggle",
    "aria-controls": "cmp-side",
    on: { click: () => setPane(!paneOpen) },
  });
  const paneClose = h(
    "button",
    { type: "button", class: "btn btn-quiet btn-small", "data-testid": "compare-pane-close", title: "Close the paper pane (Esc)", on: { click: () => setPane(false) } },
    "Close ✕",
  );
  const side = h(
    "aside",
    { class: "cmp-side", id: "cmp-side", "aria-label": "Paper of the open cell", "data-testid": "compare-side", hidden: true },
    h("div", { class: "cmp-side-bar" }, paneTitle, h("span", { class: "spacer" }), paneClose),
    h("div", { class: "cmp-side-scroll" }, tree.el),
  );
  const layout = h(
    "div",
    { class: "cmp-layout", "data-testid": "compare-layout" },
    h(
      "section",
      { class: "cmp-main", "aria-label": "Comparison table" },
      h("div", { class: "cmp-head" }, h("h2", null, "Compare papers"), h("span", { class: "spacer" }), paneToggle),
      picker,
      h("div", { class: "cmp-controls" }, aspects, build),
      h("div", { class: "cmp-statusrow" }, status, tools),
      warnBox,
      body,
    ),
    side,
  );
  const el = h("div", { class: "compare", "data-testid": "compare-view" }, layout);

  function setPane(open: boolean) {
    if (open && !tree.paper()) open = false;
    const was = paneOpen;
    paneOpen = open;
    side.hidden = !open;
    layout.classList.toggle("cmp-open", open);
    el.dataset.pane = open ? "open" : "closed";
    paneToggle.disabled = !tree.paper();
    paneToggle.setAttribute("aria-expanded", String(open));
    mount(paneToggle, open ? "Full-width table" : "Show paper pane");
    if (was && !open) focusCell();
  }

  // Esc closes the pane, wherever the focus is in the window, except when a
  // dialog (the page view, settings) is open: its own Esc closes it first.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !paneOpen || !el.isConnected) return;
    const t = e.target as Element | null;
    if (t?.closest?.(".modal-back") || document.querySelector(".modal-back")) return;
    e.preventDefault();
    setPane(false);
  });

  async function run() {
    if (running) return;
    input = { paperIds: [...chosen], aspects: parseAspects(aspects.value) };
    running = true;
    note = "Building the table…";
    renderStatus();
    try {
      table = await api.compare(input);
      const found = table.cells.filter((c) => !c.notFound).length;
      note = `${found} of ${table.cells.length} cells with evidence · ${Math.round(table.millis)} ms${table.aspectsProposed ? " · aspects proposed from the headings" : ""}`;
      active = "";
      cur = [0, 0];
      picker.open = false; // the table gets the room; the summary says what was chosen
    } catch (e) {
      table = null;
      note = e instanceof ApiError ? e.message : String(e);
    }
    running = false;
    renderStatus();
    renderTable();
  }

  async function cite(c: CompareCell) {
    const ev = c.evidence[0];
    if (!ev || c.notFound) return;
    active = keyOf(c.paperId, c.aspect);
    markActive();
    if (tree.paper()?.id !== ev.paperId) {
      try {
        tree.show(await api.paper(ev.paperId));
      } catch (e) {
        note = e instanceof ApiError ? e.message : String(e);
        renderStatus();
        return;
      }
    }
    mount(paneTitle, tree.paper()?.title || ev.paperTitle);
    setPane(true);
    revealActive();
    tree.highlight(highlightOf(ev));
    if (opts.openPage !== false && (ev.pages?.length || ev.boxes?.length)) {
      openPageView(document.body, {
        evidence: [ev],
        index: 0,
        openExternal: (id) => void api.openPaperFile(id).catch(() => {}),
        onClose: () => focusCell(),
      });
    }
  }

  async function doExport(format: string) {
    try {
      const path = await api.exportCompare(input, format);
      note = path ? `Saved to ${path}` : note;
    } catch (e) {
      note = e instanceof ApiError ? e.message : String(e);
    }
    renderStatus();
  }

  // --- the table ---
  const cellAt = (r: number, c: number) => body.querySelector<HTMLElement>(`[data-testid=compare-cell][data-row="${r}"][data-col="${c}"]`);

  function focusCell() {
    const td = cellAt(cur[0], cur[1]);
    if (!td || !el.isConnected) return;
    td.focus({ preventScroll: true });
    td.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }

  /** Keeps the opened cell in sight when the pane narrows the table. */
  function revealActive() {
    const td = body.querySelector<HTMLElement>(".cmp-on");
    td?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }

  function moveTo(r: number, c: number) {
    cellAt(cur[0], cur[1])?.setAttribute("tabindex", "-1");
    cur = [r, c];
    const td = cellAt(r, c);
    if (!td) return;
    td.setAttribute("tabindex", "0");
    td.focus();
    td.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }

  function markActive() {
    for (const td of body.querySelectorAll<HTMLElement>("[data-testid=compare-cell]")) {
      td.classList.toggle("cmp-on", td.dataset.key === active);
    }
  }

  function cellEl(c: CompareCell | undefined, paperId: string, aspect: string, r: number, col: number) {
    const at = { "data-row": r, "data-col": col, tabindex: r === cur[0] && col === cur[1] ? 0 : -1, "data-testid": "compare-cell", "data-key": keyOf(paperId, aspect) };
    const keys = (k: Event) => {
      const e = k as KeyboardEvent;
      if ((e.key === "Enter" || e.key === " ") && c) {
        e.preventDefault();
        void cite(c);
        return;
      }
      const to = moveCell(e.key, e.ctrlKey || e.metaKey, r, col, table?.papers.length ?? 0, table?.aspects.length ?? 0);
      if (to) {
        e.preventDefault();
        moveTo(to[0], to[1]);
      }
    };
    const onFocus = () => {
      if (cur[0] === r && cur[1] === col) return;
      cellAt(cur[0], cur[1])?.setAttribute("tabindex", "-1");
      cur = [r, col];
      cellAt(r, col)?.setAttribute("tabindex", "0");
    };
    if (!c || c.notFound) {
      return h(
        "td",
        { ...at, class: "cmp-cell cmp-nf", "data-not-found": "true", on: { keydown: keys, focus: onFocus } },
        h("span", { class: "muted" }, "Not found in this paper"),
      );
    }
    const ev: Evidence | undefined = c.evidence[0];
    return h(
      "td",
      {
        ...at,
        class: `cmp-cell${at["data-key"] === active ? " cmp-on" : ""}`,
        "data-node-id": ev?.nodeId ?? "",
        title: "Show where this comes from (Enter)",
        on: { click: () => void cite(c), keydown: keys, focus: onFocus },
      },
      h("p", { class: "cmp-text" }, c.text),
      ev ? h("p", { class: "ev-path" }, `${ev.path.slice(1).join(" › ") || ev.paperTitle}${ev.pages.length ? ` · ${pageList(ev.pages)}` : ""}`) : null,
    );
  }

  function renderTable() {
    if (!table) {
      mount(tools);
      mount(warnBox);
      mount(body, h("p", { class: "muted cmp-hint" }, "Choose papers and aspects, then Compare."));
      return;
    }
    const t = table;
    const byKey = new Map(t.cells.map((c) => [keyOf(c.paperId, c.aspect), c]));
    mount(warnBox, t.warnings.length ? h("ul", { class: "cmp-warnings", "data-testid": "compare-warnings" }, t.warnings.map((w) => h("li", null, w))) : null);
    mount(
      tools,
      h("span", { class: "muted cmp-keys" }, "Arrows move · Enter opens · Esc closes the paper"),
      h(
        "span",
        { class: "answer-actions" },
        h("span", { class: "muted" }, "Export"),
        ["csv", "md", "html", "pdf", "docx"].map((f) =>
          h("button", { type: "button", class: "btn btn-quiet btn-small", "data-testid": `compare-export-${f}`, on: { click: () => void doExport(f) } }, f.toUpperCase()),
        ),
      ),
    );
    mount(
      body,
      h(
        "table",
        { class: "cmp-table", role: "grid", "aria-label": "Comparison: papers by aspects", "aria-rowcount": t.papers.length + 1, "data-testid": "compare-table" },
        h("thead", null, h("tr", null, h("th", { scope: "col", class: "cmp-corner" }, "Paper"), t.aspects.map((a) => h("th", { scope: "col" }, a)))),
        h(
          "tbody",
          null,
          t.papers.map((p, r) =>
            h("tr", null, h("th", { scope: "row", class: "cmp-paper" }, p.paperTitle), t.aspects.map((a, col) => cellEl(byKey.get(keyOf(p.paperId, a)), p.paperId, a, r, col))),
          ),
        ),
      ),
    );
    markShown(t);
  }

  /**
   * Records the table for the app log (lib/shown.ts) once it is laid out:
   * its size and where its first cell with evidence sits in the window, so
   * a test of the production binary can click it.
   */
  function markShown(t: CompareTable) {
    const tbl = body.querySelector<HTMLElement>("[data-testid=compare-table]");
    if (!tbl) return;
    requestAnimationFrame(() => {
      const cell = body.querySelector<HTMLElement>("[data-testid=compare-cell]:not([data-not-found])");
      const r = cell?.getBoundingClientRect();
      const at = r ? ` first cell at ${Math.round(r.left + Math.min(40, r.width / 2))},${Math.round(r.top + Math.min(30, r.height / 2))}` : "";
      tbl.setAttribute("data-shown", `compare table: ${t.papers.length} papers x ${t.aspects.length} aspects, ${t.cells.filter((c) => !c.notFound).length} cells with evidence;${at}`);
    });
  }

  // --- the picker ---
  function renderPicker() {
    const ready = papers.filter((p) => p.status === "ready");
    const list = filterPickable(ready, filterBox.value);
    mount(pickSummary, chosen.size ? `${chosen.size} of ${ready.length} chosen` : `none ticked: the whole library (${ready.length}${ready.length > 40 ? ", at most 40" : ""})`);
    mount(pickCount, filterBox.value.trim() ? `${list.length} of ${ready.length} shown` : "");
    selectShown.disabled = list.length === 0 || list.every((p) => chosen.has(p.id));
    clearChosen.disabled = chosen.size === 0;
    if (ready.length === 0) {
      mount(paperList, h("li", { class: "muted cmp-pick-empty" }, "No indexed papers yet: add a folder in the Library first."));
      return;
    }
    if (list.length === 0) {
      mount(paperList, h("li", { class: "muted cmp-pick-empty" }, "No paper matches the filter."));
      return;
    }
    // Rebuilt only when the list changes (not when a box is ticked): the
    // focused checkbox keeps the focus while the keyboard ticks boxes.
    mount(
      paperList,
      list.map((p) => {
        const meta = [p.authors?.length ? `${p.authors[0]}${p.authors.length > 1 ? " et al." : ""}` : "", p.year ? String(p.year) : ""].filter(Boolean).join(" · ");
        const box = h("input", {
          type: "checkbox",
          class: "paper-check",
          "data-testid": "compare-paper",
          "data-paper-id": p.id,
          on: {
            change: (e) => {
              if ((e.target as HTMLInputElement).checked) chosen.add(p.id);
              else chosen.delete(p.id);
              renderPickerCounts();
            },
          },
        });
        box.checked = chosen.has(p.id);
        return h(
          "li",
          null,
          h("label", { class: "cmp-pick", title: p.file }, box, h("span", { class: "cmp-pick-title" }, p.title || p.file.split("/").pop() || p.file), meta ? h("span", { class: "cmp-pick-meta" }, meta) : null),
        );
      }),
    );
  }

  function renderPickerCounts() {
    const ready = papers.filter((p) => p.status === "ready");
    const list = filterPickable(ready, filterBox.value);
    mount(pickSummary, chosen.size ? `${chosen.size} of ${ready.length} chosen` : `none ticked: the whole library (${ready.length}${ready.length > 40 ? ", at most 40" : ""})`);
    selectShown.disabled = list.length === 0 || list.every((p) => chosen.has(p.id));
    clearChosen.disabled = chosen.size === 0;
  }

  function renderStatus() {
    build.disabled = running;
    mount(status, note);
  }

  renderPicker();
  renderStatus();
  renderTable();
  setPane(false);

  return {
    el,
    async open(selected) {
      if (selected.length) chosen = new Set(selected);
      try {
        papers = await api.listPapers();
      } catch (e) {
        note = e instanceof ApiError ? e.message : String(e);
        renderStatus();
      }
      renderPicker();
    },
    table: () => table,
  };
}
