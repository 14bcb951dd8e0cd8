// The library page: the empty state with its first step, indexing progress,
// the list of papers, and notices. renderLibrary is a pure function of the
// state (easy to test); createLibrary wires it to an Api.
//
// Everything shown here that came from a PDF (titles, authors, file names,
// error messages about files) goes through lib/dom.ts, which only ever
// inserts text nodes.

import { ApiError, mergeFiles, toApiError, type Api, type FileState, type ImportResult, type Paper, type Progress, type RemovedPaper, type SearchHit, type Summary } from "../lib/api";
import { collectionsOf, defaultQuery, selectPapers, type ListQuery, type SortKey } from "../lib/papers";
import { h, mount } from "../lib/dom";
import { markAt } from "../lib/shown";
import { authorLine, baseName, duration, paperName, plural, progressText, shortPath } from "../lib/format";
import { askIcon, docIcon, folderIcon, treeIcon } from "./icons";
import { chooseZoteroLibrary } from "./zoteropick";

export interface Notice {
  tone: "ok" | "warn" | "error";
  title: string;
  lines: string[];
}

export interface LibraryState {
  phase: "loading" | "ready" | "error";
  papers: Paper[];
  loadError: string;
  job: { folder: string; progress: Progress | null; cancelling: boolean; background?: boolean } | null;
  notice: Notice | null;
  /** Remembered (and watched) library folders. */
  folders?: string[];
  /** Ids of papers ticked for "selected papers" questions. */
  selected?: string[];
  /** Search, sort and filters of the list. */
  list?: ListQuery;
  /** Ids the Go side's full-text search found for list.query (null: none yet). */
  textHits?: Set<string> | null;
  /** Rows shown; the rest behind "Show all" (keeps typing smooth with thousands). */
  limit?: number;
  /** Papers ranked for list.query by the Go side, best first (null: none yet). */
  ranked?: SearchHit[] | null;
  /** A removal that can still be undone (the undo notice). */
  removing?: { token: string; titles: string[] } | null;
  /** Files removed from the library, for "Add back". */
  removed?: RemovedPaper[];
  /** The removed list is open (kept across re-renders). */
  removedOpen?: boolean;
}

/** Ranked search results shown above the list. */
export const RANKED_LIMIT = 10;

/** Rows rendered before "Show all". */
export const ROW_LIMIT = 200;

export interface LibraryActions {
  openFolder(): void;
  cancel(): void;
  retry(): void;
  dismiss(): void;
  openPaper?(id: string): void;
  toggleSelect?(id: string): void;
  ask?(): void;
  forgetFolder?(dir: string): void;
  /** Search, sort and filter changes. */
  setList?(patch: Partial<ListQuery>): void;
  showAll?(): void;
  importZotero?(): void;
  importBibTeX?(): void;
  /** Opens a paper with one of its nodes highlighted (a search result). */
  openPaperAt?(id: string, nodeId: string): void;
  /** Removes a paper from the library (its file stays), with undo. */
  remove?(id: string): void;
  undoRemove?(): void;
  addBack?(file: string): void;
  /** The removed list was opened or closed (no re-render). */
  removedOpen?(open: boolean): void;
  /** Saves the selected papers (else the listed ones) as BibTeX. */
  exportBib?(): void;
}

export function initialState(): LibraryState {
  return { phase: "loading", papers: [], loadError: "", job: null, notice: null, folders: [], selected: [], list: defaultQuery(), textHits: null, limit: ROW_LIMIT, ranked: null, removing: null, removed: [] };
}

function button(label: string, onClick: () => void, opts: { kind?: "primary" | "secondary" | "quiet"; disabled?: boolean; icon?: SVGElement; title?: string; testid?: string } = {}) {
  return h(
    "button",
    {
      type: "button",
      class: `btn btn-${opts.kind ?? "secondary"}`,
      disabled: opts.disabled ?? false,
      title: opts.title,
      "data-testid": opts.testid,
      on: { click: () => onClick() },
    },
    opts.icon ?? null,
    h("span", null, label),
  );
}

function step(n: number, icon: SVGElement, title: string, text: string) {
  return h(
    "li",
    { class: "step" },
    h("span", { class: "step-icon" }, icon),
    h("div", null, h("p", { class: "step-title" }, `${n}. ${title}`), h("p", { class: "step-text" }, text)),
  );
}

function emptyState(s: LibraryState, act: LibraryActions) {
  return h(
    "section",
    { class: "empty", "aria-labelledby": "empty-title" },
    h("h2", { id: "empty-title", class: "empty-title" }, "Your library is empty"),
    h(
      "p",
      { class: "empty-lead" },
      "PaperTree turns each paper into a tree of its own sections, so you can ask questions and see exactly where every answer comes from.",
    ),
    button("Open a folder of PDFs", act.openFolder, { kind: "primary", disabled: s.job !== null, icon: folderIcon(18) }),
    importButtons(s, act),
    h("p", { class: "empty-hint" }, "Your files stay on this computer. Nothing is uploaded."),
    h(
      "ol",
      { class: "steps" },
      step(1, folderIcon(20), "Open a folder", "Choose the folder that holds your paper PDFs."),
      step(2, treeIcon(20), "Read the structure", "Each paper becomes title › sections › passages."),
      step(3, askIcon(20), "Ask with evidence", "Answers cite paths like “4 Experiments › 4.2 Ablation”."),
    ),
  );
}

/** Faded rows that show where papers will appear before there are any. */
function placeholderList() {
  const row = (w: number) =>
    h(
      "li",
      { class: "paper paper-ghost", "aria-hidden": "true" },
      h("span", { class: "paper-icon" }, docIcon(18)),
      h("div", { class: "paper-main" }, h("span", { class: `ghost-bar w${w}` }), h("span", { class: "ghost-bar ghost-thin w30" })),
      h("span", { class: "ghost-bar ghost-thin w10" }),
    );
  return h(
    "section",
    { class: "papers papers-placeholder" },
    h("div", { class: "papers-head" }, h("h3", null, "Papers"), h("span", { class: "muted" }, "Your papers will be listed here")),
    h("ul", { class: "paper-list" }, row(70), row(55), row(62)),
  );
}

function paperRow(p: Paper, act: LibraryActions, selected: boolean, busy: FileState | undefined) {
  const failed = p.status !== "ready";
  const meta = failed
    ? p.message || "This file could not be indexed."
    : [authorLine(p.authors), p.year > 0 ? String(p.year) : "", p.venue ?? "", p.arxivId ? `arXiv:${p.arxivId}` : ""].filter(Boolean).join(" · ");
  const title = paperName(p.title, p.file) || "Untitled";
  return h(
    "li",
    { class: failed ? "paper paper-failed" : "paper", "data-id": p.id, "data-testid": "paper-row", "data-paper-id": p.id, "data-status": p.status },
    !failed && act.toggleSelect
      ? h("input", { type: "checkbox", class: "paper-check", checked: selected, "aria-label": "Select for questions", "data-testid": "paper-select", on: { change: () => act.toggleSelect?.(p.id) } })
      : h("span", { class: "paper-icon" }, docIcon(18)),
    h(
      "div",
      { class: "paper-main" },
      !failed && act.openPaper
        ? h("button", { type: "button", class: "paper-title paper-open", title: p.file, "data-testid": "paper-open", on: { click: () => act.openPaper?.(p.id) } }, title)
        : h("p", { class: "paper-title", title: p.file }, title),
      h("p", { class: "paper-meta" }, meta),
    ),
    busy ? h("span", { class: `tag tag-busy st-${busy.status.replace(/\s+/g, "-")}` }, busy.status) : null,
    act.remove
      ? h(
          "button",
          { type: "button", class: "btn btn-quiet paper-remove", title: "Remove from the library (the file is kept)", "aria-label": `Remove ${title}`, "data-testid": "paper-remove", on: { click: () => act.remove?.(p.id) } },
          "Remove",
        )
      : null,
    failed && act.addBack
      ? h(
          "button",
          {
            type: "button",
            class: "btn btn-quiet paper-retry",
            title: "Read this file again (a folder's re-index does not retry a file that failed while it is unchanged)",
            "aria-label": `Try ${title} again`,
            "data-testid": "paper-retry",
            on: { click: () => act.addBack?.(p.file) },
          },
          "Try again",
        )
      : null,
    failed
      ? h("span", { class: "tag tag-warn" }, "Not indexed")
      : h(
          "p",
          { class: "paper-stats" },
          p.citationKey
            ? h("span", { class: "tag tag-key", title: (p.edited ?? []).includes("key") ? "Citation key (your correction)" : `Citation key (from ${p.source === "zotero" ? "Zotero" : "your BibTeX file"})` }, p.citationKey)
            : null,
          (p.collections ?? []).slice(0, 2).map((c) => h("span", { class: "tag tag-coll", title: "Collection" }, c)),
          p.stale ? h("span", { class: "tag", title: "Indexed with other settings; index the folder again to refresh." }, "Outdated") : null,
          editedTag(p),
          (p.ocrPages ?? 0) > 0
            ? h("span", { class: "tag tag-ocr", "data-testid": "paper-ocr", title: `Text of ${plural(p.ocrPages ?? 0, "page")} read by OCR from the page images; it may hold recognition errors.` }, "OCR")
            : null,
          p.pages > 0 ? plural(p.pages, "page") : null,
        ),
  );
}

/** The "edited" mark of a paper the researcher corrected (views/corrections.ts). */
function editedTag(p: Paper) {
  const fields = p.edited ?? [];
  const heads = p.headingEdits ?? 0;
  if (fields.length === 0 && heads === 0) return null;
  const missed = p.unmatchedEdits ?? 0;
  const what = [fields.length ? `corrected ${fields.join(", ")}` : "", heads ? plural(heads, "heading correction") : ""].filter(Boolean).join("; ");
  return h(
    "span",
    { class: missed ? "tag tag-warn" : "tag tag-edited", "data-testid": "paper-edited", title: missed ? `${what}; ${missed} not applied: the file changed` : what },
    missed ? `edited · ${missed} not applied` : "edited",
  );
}

function failedCount(papers: Paper[]): string {
  const n = papers.filter((p) => p.status !== "ready").length;
  return n > 0 ? ` · ${n} not indexed` : "";
}

function folderLine(s: LibraryState, act: LibraryActions) {
  const folders = s.folders ?? [];
  if (folders.length === 0) return null;
  return h(
    "div",
    { class: "folders", "data-testid": "folders" },
    h("span", { class: "muted" }, folders.length === 1 ? "Watching folder" : "Watching folders"),
    folders.map((f) =>
      h(
        "span",
        { class: "folder-chip", title: f },
        folderIcon(14),
        h("span", null, shortPath(f, 48)),
        act.forgetFolder ? h("button", { type: "button", class: "chip-x", "aria-label": `Stop watching ${baseName(f)}`, title: "Stop watching", on: { click: () => act.forgetFolder?.(f) } }, "×") : null,
      ),
    ),
  );
}

function importButtons(s: LibraryState, act: LibraryActions) {
  if (!act.importZotero && !act.importBibTeX) return null;
  return h(
    "div",
    { class: "import-actions" },
    act.importZotero ? button("Import from Zotero", act.importZotero, { kind: "quiet", disabled: s.job !== null }) : null,
    act.importBibTeX ? button("Import a BibTeX file", act.importBibTeX, { kind: "quiet", disabled: s.job !== null }) : null,
  );
}

function select(label: string, value: string, options: [string, string][], onChange: (v: string) => void, testid: string) {
  return h(
    "label",
    { class: "list-select" },
    h("span", { class: "muted" }, label),
    h(
      "select",
      { "data-testid": testid, on: { change: (e: Event) => onChange((e.target as HTMLSelectElement).value) } },
      options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)),
    ),
  );
}

/** Search box, sort and filters. */
function listTools(s: LibraryState, act: LibraryActions) {
  const q = s.list ?? defaultQuery();
  const set = act.setList ?? (() => {});
  const folders = s.folders ?? [];
  const colls = collectionsOf(s.papers);
  return h(
    "div",
    { class: "list-tools" },
    h("input", {
      type: "search",
      class: "list-search",
      placeholder: "Search titles, authors, years, venues and text  ( / )",
      "aria-label": "Search the library",
      "data-testid": "library-search",
      value: q.query,
      on: { input: (e: Event) => set({ query: (e.target as HTMLInputElement).value }) },
    }),
    h(
      "div",
      { class: "list-sort", role: "group", "aria-label": "Sort by", "data-testid": "library-sort" },
      h("span", { class: "muted" }, "Sort"),
      ([["added", "Date added"], ["title", "Title"], ["year", "Year"]] as [SortKey, string][]).map(([k, label]) =>
        h(
          "button",
          { type: "button", class: q.sort === k ? "seg seg-on" : "seg", "aria-pressed": q.sort === k ? "true" : "false", "data-testid": `sort-${k}`, on: { click: () => set({ sort: k }) } },
          label,
        ),
      ),
    ),
    folders.length > 1 ? select("Folder", q.folder, [["", "All folders"], ...folders.map((f): [string, string] => [f, shortPath(f, 32)])], (v) => set({ folder: v }), "library-folder") : null,
    colls.length > 0 ? select("Collection", q.collection, [["", "All collections"], ...colls.map((c): [string, string] => [c, c])], (v) => set({ collection: v }), "library-collection") : null,
    select("Status", q.status, [["", "Any status"], ["ready", "Indexed"], ["failed", "Not indexed"], ["stale", "Outdated"]], (v) => set({ status: v }), "library-status"),
  );
}

/** A snippet as text nodes, matched words in <mark>: PDF text is never parsed as HTML. */
export function snippetNodes(hit: SearchHit) {
  return hit.snippet.map((part) => (part.mark ? h("mark", { class: "hit-mark" }, part.text) : part.text));
}

function hitRow(hit: SearchHit, paper: Paper | undefined, act: LibraryActions) {
  const title = paperName(hit.title, paper?.file ?? "") || "Untitled";
  // Where the snippet comes from: its section path; text before the first
  // section; or, with no matching passage, the title or the authors.
  const where = hit.path.length > 0 ? hit.path.join(" › ") : hit.nodeId ? "Before the first section" : hit.match === "author" ? "In the authors" : "In the title";
  const open = () => (hit.nodeId && act.openPaperAt ? act.openPaperAt(hit.paperId, hit.nodeId) : act.openPaper?.(hit.paperId));
  return h(
    "li",
    { class: "hit", "data-testid": "search-hit", "data-paper-id": hit.paperId, "data-node-id": hit.nodeId },
    h(
      "div",
      { class: "paper-main" },
      h("button", { type: "button", class: "paper-title paper-open", title: paper?.file ?? "", "data-testid": "hit-open", on: { click: open } }, title),
      h("p", { class: "hit-path", "data-testid": "hit-path" }, where, hit.page > 0 ? h("span", { class: "muted" }, ` · p. ${hit.page}`) : null),
      h("p", { class: "hit-snippet", "data-testid": "hit-snippet" }, snippetNodes(hit)),
    ),
  );
}

function rankedList(s: LibraryState, act: LibraryActions) {
  const q = s.list ?? defaultQuery();
  if (!s.ranked || q.query.trim() === "") return null;
  const byId = new Map(s.papers.map((p) => [p.id, p]));
  const hits = s.ranked.filter((hit) => byId.has(hit.paperId)).slice(0, RANKED_LIMIT);
  // The app log records the ranked results (lib/shown.ts): how many, and the first.
  const first = hits[0] ? paperName(hits[0].title, byId.get(hits[0].paperId)?.file ?? "") : "";
  const shown = `search results: ${hits.length} papers for ${q.query.trim()}${first ? `; first: ${first}` : ""}`;
  const sec = h(
    "section",
    { class: "hits", "data-testid": "search-ranked", "aria-label": "Best matches" },
    h("h4", { class: "hits-head" }, hits.length ? `Best matches for “${q.query.trim()}”` : `No passage matches “${q.query.trim()}”`),
    hits.length ? h("ol", { class: "hit-list" }, hits.map((hit) => hitRow(hit, byId.get(hit.paperId), act))) : null,
  );
  // Once laid out, the record adds where the first listed paper's Remove sits.
  // and where the first result's title (opens the paper there) sits.
  markAt(sec, shown, [
    ["first remove", () => document.querySelector<HTMLElement>("[data-testid=paper-remove]")],
    ["first open", () => document.querySelector<HTMLElement>("[data-testid=hit-open]")],
  ]);
  return sec;
}

function removedList(s: LibraryState, act: LibraryActions) {
  const removed = s.removed ?? [];
  if (removed.length === 0 || !act.addBack) return null;
  return h(
    "details",
    { class: "removed", "data-testid": "removed-papers", open: s.removedOpen ?? false, on: { toggle: (e: Event) => act.removedOpen?.((e.target as HTMLDetailsElement).open) } },
    h("summary", null, `Removed from the library (${removed.length}): re-indexing their folders leaves them out`),
    h(
      "ul",
      { class: "removed-list" },
      removed.slice(0, 100).map((r) =>
        h(
          "li",
          { class: "removed-item", "data-testid": "removed-item" },
          h("span", { class: "removed-title", title: r.file }, paperName(r.title, r.file)),
          h("span", { class: "muted" }, ` ${shortPath(r.file, 48)} `),
          button("Add back", () => act.addBack?.(r.file), { kind: "quiet", disabled: s.job !== null }),
        ),
      ),
    ),
  );
}

function undoBar(s: LibraryState, act: LibraryActions) {
  if (!s.removing || !act.undoRemove) return null;
  const t = s.removing.titles;
  const what = t.length === 1 ? `“${t[0]}”` : `${t.length} papers`;
  const undo = button("Undo", act.undoRemove, { kind: "primary" });
  const bar = h(
    "div",
    { class: "undo-bar", role: "status", "data-testid": "undo-remove" },
    h("span", null, `Removed ${what} from the library. The file stays where it is.`),
    undo,
  );
  // The app log records the offer and where Undo sits once laid out
  // (lib/shown.ts), so a test of the production binary can click it.
  markAt(bar, `undo offered: ${t.length} papers`, [["undo", () => undo]]);
  return bar;
}

/**
 * The list of paper rows. The app log records it (lib/shown.ts): how many
 * papers, the first one and the corrected ones as the list shows them (title,
 * year, "edited"), and where the first title (opens the paper) and the
 * BibTeX export button sit.
 */
function listed(rows: HTMLElement[], shown: Paper[]) {
  const ul = h("ul", { class: "paper-list" }, rows);
  const line = (p: Paper) => `${paperName(p.title, p.file)}${p.year > 0 ? ` (${p.year})` : ""}`;
  const edited = shown.filter((p) => (p.edited ?? []).length > 0 || (p.headingEdits ?? 0) > 0);
  const what = [
    `library list: ${shown.length} papers`,
    shown.length ? `first: ${line(shown[0])}` : "",
    edited.length ? `edited: ${edited.slice(0, 3).map(line).join(" | ")}` : "",
  ].filter(Boolean);
  markAt(ul, what.join("; "), [
    ["first open", () => ul.querySelector<HTMLElement>("[data-testid=paper-open]")],
    ["bibtex export", () => ul.closest(".papers")?.querySelector<HTMLElement>("[data-testid=library-export-bib]") ?? null],
    ["first retry", () => ul.querySelector<HTMLElement>("[data-testid=paper-retry]")],
  ]);
  return ul;
}

/**
 * Which papers the library's BibTeX export writes: the selected ones (in
 * the list's order), else those the search and filters list, else (ids
 * empty) the whole library; and the button's words for it.
 */
export function bibScope(s: LibraryState): { ids: string[]; label: string; what: string } {
  const shown = selectPapers(s.papers, s.list ?? defaultQuery(), s.folders ?? [], s.textHits ?? null);
  const sel = new Set(s.selected ?? []);
  if (sel.size > 0) {
    const listed = shown.filter((p) => sel.has(p.id)).map((p) => p.id);
    const ids = [...listed, ...(s.selected ?? []).filter((id) => !listed.includes(id))];
    return { ids, label: `BibTeX of ${sel.size} selected`, what: plural(sel.size, "selected paper") };
  }
  if (shown.length !== s.papers.length) {
    return { ids: shown.map((p) => p.id), label: `BibTeX of ${shown.length} listed`, what: plural(shown.length, "listed paper") };
  }
  return { ids: [], label: "BibTeX of all papers", what: "all papers" };
}

function paperList(s: LibraryState, act: LibraryActions) {
  // A paper already in the library keeps answering from its indexed version
  // while a job only queues its file (the folder watcher re-checks every
  // file; most come out unchanged), so "queued" is shown only for files not
  // yet in the library; an indexed paper is tagged once work on it starts.
  const indexed = new Set(s.papers.filter((p) => p.status === "ready").map((p) => p.file));
  const busy = new Map<string, FileState>();
  for (const f of s.job?.progress?.files ?? []) {
    if (f.status === "ready" || f.status === "unchanged" || (f.status === "queued" && indexed.has(f.file))) continue;
    busy.set(f.file, f);
  }
  const selected = new Set(s.selected ?? []);
  const q = s.list ?? defaultQuery();
  const shown = selectPapers(s.papers, q, s.folders ?? [], s.textHits ?? null);
  const limit = s.limit ?? ROW_LIMIT;
  const filtered = shown.length !== s.papers.length;
  return h(
    "section",
    { class: "papers" },
    h(
      "div",
      { class: "papers-head" },
      h("h3", null, "Papers"),
      h("span", { class: "muted", "data-testid": "paper-count" }, (filtered ? `${shown.length} of ` : "") + plural(s.papers.length, "paper") + failedCount(s.papers)),
      h("span", { class: "spacer" }),
      act.ask ? button(selected.size ? `Ask ${plural(selected.size, "selected paper")}` : "Ask the library", act.ask, { icon: askIcon(16) }) : null,
      act.exportBib
        ? button(bibScope(s).label, act.exportBib, {
            kind: "quiet",
            disabled: shown.length === 0 && selected.size === 0,
            title: `Save ${bibScope(s).what} as BibTeX (.bib), with your corrections`,
            testid: "library-export-bib",
          })
        : null,
      button("Add a folder", act.openFolder, { disabled: s.job !== null, icon: folderIcon(16) }),
    ),
    folderLine(s, act),
    h("div", { class: "list-bar" }, listTools(s, act)),
    rankedList(s, act),
    shown.length === 0 ? h("p", { class: "list-empty muted", "data-testid": "no-match" }, "No paper matches. Clear the search or the filters.") : null,
    listed(shown.slice(0, limit).map((p) => paperRow(p, act, selected.has(p.id), busy.get(p.file))), shown),
    shown.length > limit && act.showAll ? h("div", { class: "list-more" }, button(`Show all ${shown.length}`, act.showAll, { kind: "quiet" })) : null,
    h("div", { class: "list-foot" }, importButtons(s, act)),
  );
}

const STATUS_ORDER = ["failed", "parsing", "building tree", "summarizing", "embedding", "saving", "queued", "ready", "unchanged", "duplicate"];

function fileList(files: FileState[]) {
  if (files.length === 0) return null;
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
  const summary = STATUS_ORDER.filter((st) => counts.has(st)).map((st) => `${counts.get(st)} ${st}`);
  // Working and failed files first, so what matters is visible without scrolling.
  const rank = (st: string) => {
    const i = STATUS_ORDER.indexOf(st.startsWith("OCR") ? "parsing" : st);
    return i < 0 ? 99 : i;
  };
  const sorted = [...files].sort((a, b) => rank(a.status) - rank(b.status));
  return h(
    "details",
    { class: "job-files", open: files.length <= 60 },
    h("summary", null, summary.join(" · ")),
    h(
      "ul",
      { class: "file-list", "data-testid": "index-files" },
      sorted.slice(0, 300).map((f) =>
        h(
          "li",
          { class: `file st-${f.status.replace(/\s+/g, "-")}`, "data-testid": "index-file", "data-status": f.status },
          h("span", { class: "file-name", title: f.file }, baseName(f.file)),
          h("span", { class: "file-status" }, f.status),
          (f.status === "failed" || f.status === "duplicate") && f.message ? h("span", { class: "file-msg" }, f.message.charAt(0).toUpperCase() + f.message.slice(1)) : null,
        ),
      ),
    ),
  );
}

function jobPanel(job: NonNullable<LibraryState["job"]>, act: LibraryActions) {
  const p = job.progress ?? { stage: "scan", done: 0, total: 0, file: "", detail: "" };
  const { label, fraction } = progressText(p);
  const eta = p.remaining && p.remaining > 0 && p.stage === "index" ? `about ${duration(p.remaining)} left` : "";
  const bar = h("div", { class: "bar-fill" });
  bar.style.width = `${Math.round(fraction * 100)}%`; // CSSOM, allowed by the CSP (no inline style attribute)
  return h(
    "section",
    { class: "job", role: "status", "aria-live": "polite", "data-testid": "index-progress", "data-stage": p.stage, "data-done": p.done, "data-total": p.total },
    h(
      "div",
      { class: "job-head" },
      h("p", { class: "job-title" }, job.background ? "Updating the library from its folders" : `Indexing ${baseName(job.folder)}`),
      button(job.cancelling ? "Cancelling…" : "Cancel", act.cancel, { kind: "quiet", disabled: job.cancelling }),
    ),
    h("div", { class: "bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": Math.round(fraction * 100) }, bar),
    h(
      "p",
      { class: "job-label" },
      label,
      p.file ? h("span", { class: "muted" }, ` — ${baseName(p.file)}${p.detail ? ` (${p.detail})` : ""}`) : null,
      eta ? h("span", { class: "muted job-eta" }, ` · ${eta}`) : null,
    ),
    fileList(p.files ?? []),
  );
}

function noticeBox(n: Notice, act: LibraryActions) {
  return h(
    "section",
    // data-shown: the app log records what the notice said (lib/shown.ts).
    { class: `notice notice-${n.tone}`, role: n.tone === "error" ? "alert" : "status", "data-shown": `notice: ${[n.title, ...n.lines].join(" | ")}` },
    h("div", { class: "notice-body" }, h("p", { class: "notice-title" }, n.title), n.lines.length ? h("ul", null, n.lines.map((l) => h("li", null, l))) : null),
    button("Dismiss", act.dismiss, { kind: "quiet" }),
  );
}

/** Renders the whole library page for a state. Pure: same state, same DOM. */
export function renderLibrary(s: LibraryState, act: LibraryActions): HTMLElement {
  const parts: HTMLElement[] = [];
  if (s.notice) parts.push(noticeBox(s.notice, act));
  if (s.job) parts.push(jobPanel(s.job, act));
  if (s.phase === "loading") {
    parts.push(h("p", { class: "loading muted" }, "Opening your library…"));
  } else if (s.phase === "error") {
    parts.push(
      h(
        "section",
        { class: "notice notice-error", role: "alert" },
        h("div", { class: "notice-body" }, h("p", { class: "notice-title" }, "The library could not be opened"), h("p", null, s.loadError)),
        button("Try again", act.retry),
      ),
    );
  } else if (s.papers.length === 0) {
    parts.push(emptyState(s, act), placeholderList());
  } else {
    parts.push(paperList(s, act));
  }
  if (s.phase === "ready") {
    const removed = removedList(s, act);
    if (removed) parts.push(removed);
  }
  const undo = undoBar(s, act);
  if (undo) parts.push(undo);
  return h("div", { class: "library" }, parts);
}

/** Turns an import result into a notice: counts, then what was skipped and why. */
export function importNotice(r: ImportResult): Notice {
  const from = r.source === "zotero" ? "Zotero" : "the BibTeX file";
  const parts = [`Imported ${plural(r.imported, "paper")} from ${from}`];
  if (r.unchanged > 0) parts.push(`${r.unchanged} unchanged`);
  if ((r.collections ?? []).length > 0) parts.push(plural(r.collections.length, "collection"));
  const skipped = r.skipped ?? [];
  if (skipped.length > 0) parts.push(`${skipped.length} skipped`);
  const lines = skipped.slice(0, 8).map((s) => `${s.item}: ${s.reason}`);
  if (skipped.length > 8) lines.push(`…and ${skipped.length - 8} more`);
  return { tone: skipped.length > 0 ? "warn" : "ok", title: `${parts.join(", ")} (${duration(r.millis)}).`, lines };
}

/** Turns an index summary into a notice. */
export function summaryNotice(sum: Summary): Notice {
  const failures = sum.failures ?? [];
  const dups = sum.duplicates ?? [];
  const moved = sum.moved ?? [];
  const lines = failures.slice(0, 8).map((f) => `${baseName(f.path)}: ${f.message}`);
  if (failures.length > 8) lines.push(`…and ${plural(failures.length - 8, "more file")}`);
  lines.push(...dups.slice(0, 4).map((d) => `${baseName(d.path)}: the same PDF as ${d.of}, not added twice`));
  if (dups.length > 4) lines.push(`…and ${plural(dups.length - 4, "more copy", "more copies")}`);
  lines.push(...moved.slice(0, 4).map((m) => `${baseName(m.path)}: moved from ${m.of}, kept with its corrections`));
  if (moved.length > 4) lines.push(`…and ${moved.length - 4} more moved`);
  const parts = [`Added ${plural(sum.indexed, "paper")}`];
  if (sum.skipped > 0) parts.push(`${sum.skipped} already in the library`);
  if (dups.length > 0) parts.push(`${plural(dups.length, "copy of a paper", "copies of papers")} already in it`);
  if (failures.length > 0) parts.push(`${failures.length} could not be read`);
  return {
    tone: failures.length > 0 ? "warn" : "ok",
    title: `${parts.join(", ")} (${duration(sum.millis)}).`,
    lines,
  };
}

export interface LibraryHooks {
  openPaper?(id: string): void;
  /** Opens a paper with a node highlighted (a search result). */
  openPaperAt?(id: string, nodeId: string): void;
  ask?(selected: string[]): void;
}

/** Mounts the library page into root and drives it with api. */
export function createLibrary(root: HTMLElement, api: Api, hooks: LibraryHooks = {}) {
  let state = initialState();
  const set = (patch: Partial<LibraryState>) => {
    state = { ...state, ...patch };
    // The page is re-rendered whole: keep the search box's focus and caret.
    const active = document.activeElement as HTMLInputElement | null;
    const testid = active && root.contains(active) ? active.getAttribute("data-testid") : null;
    const caret = testid && active?.selectionStart != null ? [active.selectionStart, active.selectionEnd ?? active.selectionStart] : null;
    mount(root, renderLibrary(state, actions));
    if (testid) {
      const el = root.querySelector<HTMLInputElement>(`[data-testid="${testid}"]`);
      el?.focus();
      if (el && caret && el.setSelectionRange && el.type !== "checkbox") el.setSelectionRange(caret[0], caret[1]);
    }
  };

  // Full-text search on the Go side, debounced; the newest query wins.
  let searchTimer: ReturnType<typeof setTimeout> | null = null;
  let searchSeq = 0;
  function searchText(query: string) {
    if (searchTimer) clearTimeout(searchTimer);
    if (!api.searchPapers || query.trim() === "") {
      searchSeq++;
      return;
    }
    const seq = ++searchSeq;
    searchTimer = setTimeout(() => {
      searchTimer = null;
      const current = () => seq === searchSeq && (state.list?.query ?? "") === query;
      api.searchPapers!(query).then(
        (ids) => {
          if (current()) set({ textHits: new Set(ids) });
        },
        () => {}, // metadata search still works
      );
      api.searchLibrary?.(query).then(
        (ranked) => {
          if (current()) set({ ranked });
        },
        () => {}, // the list still filters
      );
    }, 200);
  }

  async function runImport(kind: "zotero" | "bibtex", given = "") {
    if (state.job) return;
    let path = given;
    try {
      if (!path) path = (kind === "zotero" ? await api.chooseZoteroFolder?.() : await api.chooseBibFile?.()) ?? "";
    } catch (e) {
      set({ notice: { tone: "error", title: toApiError(e).message, lines: [] } });
      return;
    }
    if (!path || !(kind === "zotero" ? api.importZotero : api.importBibTeX)) return;
    // A data directory with group libraries: ask which (views/zoteropick.ts).
    let which = "";
    if (kind === "zotero" && !given && api.zoteroLibraries && api.importZoteroLibrary) {
      const libs = await api.zoteroLibraries(path).catch(() => []); // the import itself says what is wrong
      if (libs.length > 1) {
        const c = await chooseZoteroLibrary(document.body, libs);
        if (c === null) return;
        which = c;
      }
    }
    ownJob = true;
    readyCount = 0;
    if (clearTimer) clearTimeout(clearTimer);
    set({ job: { folder: path, progress: null, cancelling: false }, notice: null });
    try {
      const res = await (kind === "zotero" ? (which ? api.importZoteroLibrary!(path, which) : api.importZotero!(path)) : api.importBibTeX!(path));
      set({ job: null, notice: importNotice(res) });
    } catch (e) {
      const err = toApiError(e);
      set({ job: null, notice: { tone: err.code === "canceled" ? "warn" : "error", title: err.message, lines: [] } });
    } finally {
      ownJob = false;
      lastEnded = Math.max(lastEnded, latestJob);
    }
    await refresh();
  }
  // Progress events only redraw the job panel (and the per-paper tags
  // through the next list refresh): a big library list is not rebuilt
  // several times a second while indexing.
  const setJob = (job: LibraryState["job"]) => {
    const had = state.job !== null;
    state = { ...state, job };
    const old = root.querySelector(".job");
    if (job && had && old) old.replaceWith(jobPanel(job, actions));
    else mount(root, renderLibrary(state, actions));
  };

  let refreshing: Promise<void> | null = null;
  async function refresh() {
    try {
      const [papers, folders, removed] = await Promise.all([
        api.listPapers(),
        api.folders ? api.folders().catch(() => state.folders ?? []) : Promise.resolve(state.folders ?? []),
        api.removedFiles ? api.removedFiles().catch(() => state.removed ?? []) : Promise.resolve(state.removed ?? []),
      ]);
      const ids = new Set(papers.map((p) => p.id));
      set({ phase: "ready", papers, folders, removed, loadError: "", selected: (state.selected ?? []).filter((id) => ids.has(id)) });
    } catch (e) {
      set({ phase: "error", loadError: e instanceof ApiError ? e.message : String(e) });
    }
  }
  // While a job runs, papers that became ready are listed (and can be
  // opened) at most every 1.5 s.
  let readyCount = 0;
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  function refreshSoon(ms = 1500) {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      refreshing = refresh().finally(() => (refreshing = null));
    }, ms);
  }

  let ownJob = false;
  // Events carry only the files that changed: the job's full list is merged
  // here. Jobs that ended (a "done" event, or the call returned) are
  // remembered so that a late event cannot bring back their panel.
  let lastEnded = 0;
  let latestJob = 0;
  let clearTimer: ReturnType<typeof setTimeout> | null = null;
  const clearJobSoon = (ms: number) => {
    if (clearTimer) clearTimeout(clearTimer);
    clearTimer = setTimeout(() => {
      clearTimer = null;
      if (!ownJob && state.job) setJob(null);
    }, ms);
  };
  api.onIndexProgress((p) => {
    const job = p.job ?? 0;
    if (job > 0 && job <= lastEnded) return;
    latestJob = Math.max(latestJob, job);
    const files = mergeFiles(state.job?.progress?.files ?? [], p.files);
    const merged: Progress = { ...p, files };
    const ready = files.filter((f) => f.status === "ready").length;
    if (ready > readyCount) refreshSoon();
    readyCount = ready;
    if (p.stage === "done") lastEnded = Math.max(lastEnded, job);
    if (state.job) setJob({ ...state.job, progress: merged });
    else if (!ownJob && p.stage !== "done") setJob({ folder: "", progress: merged, cancelling: false, background: p.background ?? true });
    // A background job's "Finished" line stays a moment, then goes.
    if (p.stage === "done" && !ownJob) clearJobSoon(1500);
  });
  api.onLibraryChanged?.(() => {
    if (!ownJob && state.job && state.job.progress?.stage === "done") clearJobSoon(1500);
    readyCount = 0;
    refreshSoon(200);
  });

  // Errors are shown with role="alert"; main.ts logs what is displayed (lib/shown.ts).
  const showNotice = (n: Notice) => set({ notice: n });

  async function exportBib() {
    if (!api.exportPapersBibTeX) return;
    const { ids, what } = bibScope(state);
    try {
      const path = await api.exportPapersBibTeX(ids);
      if (path) showNotice({ tone: "ok", title: `Saved ${what} as BibTeX to ${path}.`, lines: [] });
    } catch (e) {
      showNotice({ tone: "error", title: toApiError(e).message, lines: [] });
    }
  }

  async function openFolder() {
    if (state.job) return;
    let folder: string;
    try {
      folder = await api.chooseFolder();
    } catch (e) {
      showNotice({ tone: "error", title: (e as ApiError).message, lines: [] });
      return;
    }
    if (!folder) return; // cancelled
    await indexFolder(folder);
  }

  async function indexFolder(folder: string) {
    ownJob = true;
    readyCount = 0;
    if (clearTimer) clearTimeout(clearTimer);
    set({ job: { folder, progress: null, cancelling: false }, notice: null });
    try {
      const sum = await api.indexFolder(folder);
      set({ job: null });
      showNotice(summaryNotice(sum));
    } catch (e) {
      const err = toApiError(e);
      const cancelled = err.code === "canceled";
      set({ job: null });
      showNotice({ tone: cancelled ? "warn" : "error", title: err.message, lines: [] });
    } finally {
      ownJob = false;
      lastEnded = Math.max(lastEnded, latestJob);
    }
    await refresh();
  }

  /** Opens what was named on the command line, one after the other. */
  async function openStartFolders() {
    let items: { path: string; kind: string; error?: string }[] = [];
    try {
      items = (await api.startFolders?.()) ?? [];
    } catch (e) {
      showNotice({ tone: "error", title: toApiError(e).message, lines: [] });
    }
    // Arguments that could not be opened are said first; the valid ones open.
    const bad = items.filter((it) => it.kind === "error").map((it) => it.error ?? it.path);
    const badNotice = (opened: number): Notice => ({
      tone: "error",
      title: bad.length === 1 ? `Could not open ${bad[0]}` : `Could not open ${bad.length} of the folders named on the command line`,
      lines: [...(bad.length === 1 ? [] : bad), ...(opened > 0 ? [`The other ${opened === 1 ? "one was" : `${opened} were`} opened.`] : [])],
    });
    if (bad.length > 0) showNotice(badNotice(0));
    const good = items.filter((it) => it.kind !== "error");
    for (const it of good) {
      if (it.kind === "zotero" || it.kind === "bibtex") await runImport(it.kind, it.path);
      else await indexFolder(it.path);
    }
    // Indexing replaced the notice with its summary: the bad argument is
    // said again, so it is not missed.
    if (bad.length > 0 && good.length > 0) showNotice(badNotice(good.length));
  }

  // Removal with undo: the Go side keeps the removal pending for the undo
  // time (app/remove.go); the notice offers Undo as long.
  let undoTimer: ReturnType<typeof setTimeout> | null = null;
  async function removePaper(id: string) {
    if (!api.removePapers) return;
    try {
      const res = await api.removePapers([id]);
      const gone = new Set(res.papers.map((p) => p.id));
      if (undoTimer) clearTimeout(undoTimer);
      set({
        papers: state.papers.filter((p) => !gone.has(p.id)),
        selected: (state.selected ?? []).filter((x) => !gone.has(x)),
        ranked: state.ranked ? state.ranked.filter((hit) => !gone.has(hit.paperId)) : state.ranked,
        removing: { token: res.token, titles: res.papers.map((p) => p.title.trim() || baseName(p.file)) },
      });
      undoTimer = setTimeout(() => {
        undoTimer = null;
        if (state.removing?.token === res.token) set({ removing: null });
        refreshSoon(2500); // after the Go side has written it: "Removed" lists it
      }, res.undoSeconds * 1000);
    } catch (e) {
      showNotice({ tone: "error", title: toApiError(e).message, lines: [] });
    }
  }
  async function undoRemove() {
    const r = state.removing;
    if (!r || !api.undoRemove) return;
    if (undoTimer) clearTimeout(undoTimer);
    undoTimer = null;
    set({ removing: null });
    try {
      const res = await api.undoRemove(r.token);
      if (res.restored === 0) showNotice(summaryNotice(res.reindexed));
    } catch (e) {
      showNotice({ tone: "error", title: toApiError(e).message, lines: [] });
    }
    await refresh();
  }
  async function addBack(file: string) {
    if (state.job || !api.addBack) return;
    ownJob = true;
    readyCount = 0;
    if (clearTimer) clearTimeout(clearTimer);
    set({ job: { folder: file, progress: null, cancelling: false }, notice: null });
    try {
      const sum = await api.addBack([file]);
      set({ job: null });
      showNotice(summaryNotice(sum));
    } catch (e) {
      set({ job: null });
      showNotice({ tone: "error", title: toApiError(e).message, lines: [] });
    } finally {
      ownJob = false;
      lastEnded = Math.max(lastEnded, latestJob);
    }
    await refresh();
  }

  const actions: LibraryActions = {
    openFolder: () => void openFolder(),
    cancel: () => {
      if (!state.job) return;
      setJob({ ...state.job, cancelling: true });
      void api.cancelIndex().catch(() => {});
    },
    retry: () => {
      set({ phase: "loading" });
      // A library that could not be opened (e.g. the embedding server was
      // down) is opened again; an open one is just listed again.
      void (api.reopenLibrary ? api.reopenLibrary().catch(() => {}) : Promise.resolve()).then(refresh);
    },
    dismiss: () => set({ notice: null }),
    openPaper: hooks.openPaper ? (id) => hooks.openPaper?.(id) : undefined,
    openPaperAt: hooks.openPaperAt ? (id, nodeId) => hooks.openPaperAt?.(id, nodeId) : undefined,
    remove: api.removePapers ? (id) => void removePaper(id) : undefined,
    undoRemove: api.undoRemove ? () => void undoRemove() : undefined,
    addBack: api.addBack ? (file) => void addBack(file) : undefined,
    exportBib: api.exportPapersBibTeX ? () => void exportBib() : undefined,
    removedOpen: (open) => {
      state = { ...state, removedOpen: open };
    },
    setList: (patch) => {
      const list = { ...(state.list ?? defaultQuery()), ...patch };
      const queryChanged = patch.query !== undefined && patch.query !== state.list?.query;
      set({ list, limit: ROW_LIMIT, textHits: queryChanged ? null : state.textHits, ranked: queryChanged ? null : state.ranked });
      if (queryChanged) searchText(list.query);
    },
    showAll: () => set({ limit: Number.MAX_SAFE_INTEGER }),
    importZotero: api.importZotero && api.chooseZoteroFolder ? () => void runImport("zotero") : undefined,
    importBibTeX: api.importBibTeX && api.chooseBibFile ? () => void runImport("bibtex") : undefined,
    ask: hooks.ask ? () => hooks.ask?.(state.selected ?? []) : undefined,
    toggleSelect: (id) => {
      const sel = new Set(state.selected ?? []);
      if (sel.has(id)) sel.delete(id);
      else sel.add(id);
      set({ selected: [...sel] });
    },
    forgetFolder: api.forgetFolder
      ? (dir) =>
          void api
            .forgetFolder(dir)
            .then((folders) => set({ folders }))
            .catch((e) => showNotice({ tone: "error", title: toApiError(e).message, lines: [] }))
      : undefined,
  };

  mount(root, renderLibrary(state, actions));
  // "/" focuses the search box (unless typing somewhere already).
  document.addEventListener("keydown", (e) => {
    const t = e.target as HTMLElement | null;
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || !root.isConnected) return;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const box = root.querySelector<HTMLInputElement>("[data-testid=library-search]");
    if (box) {
      e.preventDefault();
      box.focus();
    }
  });
  void openStartFolders();
  return { refresh, state: () => state, selected: () => state.selected ?? [], pending: () => refreshing };
}
