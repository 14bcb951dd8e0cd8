// The library page: the empty state with its first step, indexing progress,
// the list of papers, and notices. renderLibrary is a pure function of the
// state (easy to test); createLibrary wires it to an Api.
//
// Everything shown here that came from a PDF (titles, authors, file names,
// error messages about files) goes through lib/dom.ts, which only ever
// inserts text nodes.

import { ApiError, type Api, type Paper, type Progress, type Summary } from "../lib/api";
import { h, mount } from "../lib/dom";
import { authorLine, baseName, duration, plural, progressText } from "../lib/format";
import { askIcon, docIcon, folderIcon, treeIcon } from "./icons";

export interface Notice {
  tone: "ok" | "warn" | "error";
  title: string;
  lines: string[];
}

export interface LibraryState {
  phase: "loading" | "ready" | "error";
  papers: Paper[];
  loadError: string;
  job: { folder: string; progress: Progress | null; cancelling: boolean } | null;
  notice: Notice | null;
}

export interface LibraryActions {
  openFolder(): void;
  cancel(): void;
  retry(): void;
  dismiss(): void;
}

export function initialState(): LibraryState {
  return { phase: "loading", papers: [], loadError: "", job: null, notice: null };
}

function button(label: string, onClick: () => void, opts: { kind?: "primary" | "secondary" | "quiet"; disabled?: boolean; icon?: SVGElement } = {}) {
  return h(
    "button",
    { type: "button", class: `btn btn-${opts.kind ?? "secondary"}`, disabled: opts.disabled ?? false, on: { click: () => onClick() } },
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

function paperRow(p: Paper) {
  const failed = p.status !== "ready";
  const meta = failed
    ? p.message || "This file could not be indexed."
    : [authorLine(p.authors), p.year > 0 ? String(p.year) : ""].filter(Boolean).join(" · ");
  return h(
    "li",
    { class: failed ? "paper paper-failed" : "paper", "data-id": p.id },
    h("span", { class: "paper-icon" }, docIcon(18)),
    h(
      "div",
      { class: "paper-main" },
      h("p", { class: "paper-title", title: p.file }, p.title.trim() || baseName(p.file) || "Untitled"),
      h("p", { class: "paper-meta" }, meta),
    ),
    failed
      ? h("span", { class: "tag tag-warn" }, "Not indexed")
      : h(
          "p",
          { class: "paper-stats" },
          p.stale ? h("span", { class: "tag", title: "Indexed with other settings; index the folder again to refresh." }, "Outdated") : null,
          p.pages > 0 ? plural(p.pages, "page") : null,
        ),
  );
}

function failedCount(papers: Paper[]): string {
  const n = papers.filter((p) => p.status !== "ready").length;
  return n > 0 ? ` · ${n} not indexed` : "";
}

function paperList(s: LibraryState, act: LibraryActions) {
  return h(
    "section",
    { class: "papers" },
    h(
      "div",
      { class: "papers-head" },
      h("h3", null, "Papers"),
      h("span", { class: "muted" }, plural(s.papers.length, "paper") + failedCount(s.papers)),
      h("span", { class: "spacer" }),
      button("Add a folder", act.openFolder, { disabled: s.job !== null, icon: folderIcon(16) }),
    ),
    h("ul", { class: "paper-list" }, s.papers.map(paperRow)),
  );
}

function jobPanel(job: NonNullable<LibraryState["job"]>, act: LibraryActions) {
  const p = job.progress ?? { stage: "scan", done: 0, total: 0, file: "", detail: "" };
  const { label, fraction } = progressText(p);
  const bar = h("div", { class: "bar-fill" });
  bar.style.width = `${Math.round(fraction * 100)}%`; // CSSOM, allowed by the CSP (no inline style attribute)
  return h(
    "section",
    { class: "job", role: "status", "aria-live": "polite" },
    h(
      "div",
      { class: "job-head" },
      h("p", { class: "job-title" }, `Indexing ${baseName(job.folder)}`),
      button(job.cancelling ? "Cancelling…" : "Cancel", act.cancel, { kind: "quiet", disabled: job.cancelling }),
    ),
    h("div", { class: "bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": Math.round(fraction * 100) }, bar),
    h(
      "p",
      { class: "job-label" },
      label,
      p.file ? h("span", { class: "muted" }, ` — ${baseName(p.file)}${p.detail ? ` (${p.detail})` : ""}`) : null,
    ),
  );
}

function noticeBox(n: Notice, act: LibraryActions) {
  return h(
    "section",
    { class: `notice notice-${n.tone}`, role: n.tone === "error" ? "alert" : "status" },
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
  return h("div", { class: "library" }, parts);
}

/** Turns an index summary into a notice. */
export function summaryNotice(sum: Summary): Notice {
  const failures = sum.failures ?? [];
  const lines = failures.slice(0, 8).map((f) => `${baseName(f.path)}: ${f.message}`);
  if (failures.length > 8) lines.push(`…and ${plural(failures.length - 8, "more file")}`);
  const parts = [`Added ${plural(sum.indexed, "paper")}`];
  if (sum.skipped > 0) parts.push(`${sum.skipped} already in the library`);
  if (failures.length > 0) parts.push(`${failures.length} could not be read`);
  return {
    tone: failures.length > 0 ? "warn" : "ok",
    title: `${parts.join(", ")} (${duration(sum.millis)}).`,
    lines,
  };
}

/** Mounts the library page into root and drives it with api. */
export function createLibrary(root: HTMLElement, api: Api) {
  let state = initialState();
  const set = (patch: Partial<LibraryState>) => {
    state = { ...state, ...patch };
    mount(root, renderLibrary(state, actions));
  };

  async function refresh() {
    try {
      const papers = await api.listPapers();
      set({ phase: "ready", papers, loadError: "" });
    } catch (e) {
      set({ phase: "error", loadError: e instanceof ApiError ? e.message : String(e) });
    }
  }

  async function openFolder() {
    if (state.job) return;
    let folder: string;
    try {
      folder = await api.chooseFolder();
    } catch (e) {
      set({ notice: { tone: "error", title: (e as ApiError).message, lines: [] } });
      return;
    }
    if (!folder) return; // cancelled
    set({ job: { folder, progress: null, cancelling: false }, notice: null });
    const off = api.onIndexProgress((p) => {
      if (state.job) set({ job: { ...state.job, progress: p } });
    });
    try {
      const sum = await api.indexFolder(folder);
      set({ job: null, notice: summaryNotice(sum) });
    } catch (e) {
      const err = e as ApiError;
      const cancelled = err.code === "canceled";
      set({ job: null, notice: { tone: cancelled ? "warn" : "error", title: err.message, lines: [] } });
    } finally {
      off();
    }
    await refresh();
  }

  const actions: LibraryActions = {
    openFolder: () => void openFolder(),
    cancel: () => {
      if (!state.job) return;
      set({ job: { ...state.job, cancelling: true } });
      void api.cancelIndex().catch(() => {});
    },
    retry: () => {
      set({ phase: "loading" });
      void refresh();
    },
    dismiss: () => set({ notice: null }),
  };

  mount(root, renderLibrary(state, actions));
  return { refresh, state: () => state };
}
