// The Compare view: choose papers (or the whole library) and aspects (or let
// PaperTree propose them from the papers' headings), and get a table with a
// row per paper and a column per aspect. Every cell quotes the paper's own
// sentence with its section path and page; a cell without evidence says so.
// Clicking a cell works like a citation: the paper's tree opens beside the
// table with the cell's root-to-leaf path highlighted, and its page opens
// with the passage marked. The table exports to CSV, Markdown, HTML, PDF and
// DOCX. Cell text comes from PDFs and is inserted as text only (lib/dom.ts).

import { ApiError, type Api, type CompareCell, type CompareInput, type CompareTable, type Evidence, type Paper } from "../lib/api";
import { h, mount } from "../lib/dom";
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

export function createCompareView(api: Api, opts: { openPage?: boolean } = {}): CompareView {
  let papers: Paper[] = [];
  let chosen = new Set<string>();
  let table: CompareTable | null = null;
  let input: CompareInput = { paperIds: [], aspects: [] };
  let running = false;
  let note = "";
  let active = "";

  const tree = createTreeView({ onEmptyHint: "Click a cell: its paper opens here with the quoted passage's path highlighted." });
  const aspects = h("input", {
    type: "text",
    class: "cmp-aspects",
    placeholder: "Aspects, separated by ; (empty: proposed from the headings, e.g. Dataset; Method; Metric; Results)",
    "aria-label": "Aspects",
    "data-testid": "compare-aspects",
  });
  const build = h("button", { type: "button", class: "btn", "data-testid": "compare-build", on: { click: () => void run() } }, "Compare");
  const paperBox = h("div", { class: "cmp-papers", "data-testid": "compare-papers" });
  const body = h("div", { class: "cmp-body" });
  const status = h("p", { class: "muted cmp-status", role: "status", "data-testid": "compare-status" });

  async function run() {
    input = { paperIds: [...chosen], aspects: parseAspects(aspects.value) };
    running = true;
    note = "Building the table…";
    render();
    try {
      table = await api.compare(input);
      const found = table.cells.filter((c) => !c.notFound).length;
      note = `${found} of ${table.cells.length} cells with evidence · ${Math.round(table.millis)} ms${table.aspectsProposed ? " · aspects proposed from the headings" : ""}`;
    } catch (e) {
      table = null;
      note = e instanceof ApiError ? e.message : String(e);
    }
    running = false;
    render();
  }

  async function cite(c: CompareCell) {
    const ev = c.evidence[0];
    if (!ev) return;
    active = `${c.paperId}\u0000${c.aspect}`;
    render();
    if (tree.paper()?.id !== ev.paperId) {
      try {
        tree.show(await api.paper(ev.paperId));
      } catch (e) {
        note = e instanceof ApiError ? e.message : String(e);
        render();
        return;
      }
    }
    tree.highlight(highlightOf(ev));
    if (opts.openPage !== false && (ev.pages?.length || ev.boxes?.length)) {
      openPageView(document.body, {
        evidence: [ev],
        index: 0,
        openExternal: (id) => void api.openPaperFile(id).catch(() => {}),
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
    render();
  }

  function cellEl(c: CompareCell | undefined) {
    if (!c || c.notFound) {
      return h("td", { class: "cmp-cell cmp-nf", "data-testid": "compare-cell", "data-not-found": "true" }, h("span", { class: "muted" }, "Not found in this paper"));
    }
    const ev: Evidence | undefined = c.evidence[0];
    const key = `${c.paperId}\u0000${c.aspect}`;
    return h(
      "td",
      {
        class: `cmp-cell${key === active ? " cmp-on" : ""}`,
        "data-testid": "compare-cell",
        "data-node-id": ev?.nodeId ?? "",
        tabindex: 0,
        title: "Show where this comes from",
        on: {
          click: () => void cite(c),
          keydown: (k) => {
            if ((k as KeyboardEvent).key === "Enter") void cite(c);
          },
        },
      },
      h("p", { class: "cmp-text" }, c.text),
      ev ? h("p", { class: "ev-path" }, `${ev.path.slice(1).join(" › ") || ev.paperTitle}${ev.pages.length ? ` · ${pageList(ev.pages)}` : ""}`) : null,
    );
  }

  function tableEl(t: CompareTable) {
    const byKey = new Map(t.cells.map((c) => [`${c.paperId}\u0000${c.aspect}`, c]));
    return h(
      "div",
      { class: "cmp-scroll" },
      t.warnings.length ? h("ul", { class: "cmp-warnings", "data-testid": "compare-warnings" }, t.warnings.map((w) => h("li", null, w))) : null,
      h(
        "table",
        { class: "cmp-table", "data-testid": "compare-table" },
        h("thead", null, h("tr", null, h("th", { scope: "col" }, "Paper"), t.aspects.map((a) => h("th", { scope: "col" }, a)))),
        h(
          "tbody",
          null,
          t.papers.map((p) => h("tr", null, h("th", { scope: "row", class: "cmp-paper" }, p.paperTitle), t.aspects.map((a) => cellEl(byKey.get(`${p.paperId}\u0000${a}`))))),
        ),
      ),
      h(
        "div",
        { class: "answer-actions" },
        h("span", { class: "muted" }, "Export"),
        ["csv", "md", "html", "pdf", "docx"].map((f) =>
          h("button", { type: "button", class: "btn btn-quiet btn-small", "data-testid": `compare-export-${f}`, on: { click: () => void doExport(f) } }, f.toUpperCase()),
        ),
      ),
    );
  }

  function papersEl() {
    const ready = papers.filter((p) => p.status === "ready");
    if (ready.length === 0) return h("p", { class: "muted" }, "No indexed papers yet: add a folder in the Library first.");
    return h(
      "div",
      null,
      h("p", { class: "muted" }, chosen.size ? `${chosen.size} paper${chosen.size === 1 ? "" : "s"} chosen` : "No paper ticked: the whole library is compared (at most 40 papers)."),
      h(
        "ul",
        { class: "cmp-paper-list" },
        ready.map((p) =>
          h(
            "li",
            null,
            h(
              "label",
              null,
              h("input", {
                type: "checkbox",
                checked: chosen.has(p.id),
                "data-testid": "compare-paper",
                "data-paper-id": p.id,
                on: {
                  change: (e) => {
                    if ((e.target as HTMLInputElement).checked) chosen.add(p.id);
                    else chosen.delete(p.id);
                    render();
                  },
                },
              }),
              " ",
              p.title || p.file,
            ),
          ),
        ),
      ),
    );
  }

  function render() {
    build.disabled = running;
    mount(paperBox, papersEl());
    mount(status, note);
    mount(body, table ? tableEl(table) : h("p", { class: "muted" }, "Choose papers and aspects, then Compare."));
  }

  const el = h(
    "div",
    { class: "compare", "data-testid": "compare-view" },
    h(
      "div",
      { class: "ws-split" },
      h("div", { class: "ws-ask cmp-main" }, h("h2", null, "Compare papers"), paperBox, h("div", { class: "cmp-controls" }, aspects, build), status, body),
      h("div", { class: "ws-tree" }, tree.el),
    ),
  );
  render();

  return {
    el,
    async open(selected) {
      if (selected.length) chosen = new Set(selected);
      try {
        papers = await api.listPapers();
      } catch (e) {
        note = e instanceof ApiError ? e.message : String(e);
      }
      render();
    },
    table: () => table,
  };
}
