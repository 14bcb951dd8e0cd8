// The PDF page view: the cited pages rendered in the app with pdf.js (bundled
// and served by the app itself; nothing is loaded from the network) and the
// evidence's stored text boxes highlighted. Boxes are PDF points with the
// origin at the page's top-left, so a box maps to the canvas by the render
// scale alone. When an evidence item has no boxes the page is shown with a
// note. pdf.js is loaded on first use (a separate chunk), so it costs
// nothing at start-up.
//
// Pages are shown one under the other and read by scrolling: opening a
// passage shows its first page (scrolled to its first box) and every other
// page its boxes or pages name (a passage that runs from page N onto N+1 is
// highlighted on both); scrolling to the end of the last page shown, the
// Page buttons, or PageDown/PageUp bring the next or previous page, and the
// arrow keys scroll.

import type { Evidence } from "../lib/api";
import { h, mount } from "../lib/dom";
import { pageList } from "../lib/tree";

type PdfJs = typeof import("pdfjs-dist");
let pdfjs: Promise<PdfJs> | null = null;

function loadPdfJs(): Promise<PdfJs> {
  if (!pdfjs) {
    pdfjs = Promise.all([import("pdfjs-dist"), import("pdfjs-dist/build/pdf.worker.min.mjs?url")]).then(([lib, worker]) => {
      lib.GlobalWorkerOptions.workerSrc = worker.default;
      return lib;
    });
  }
  return pdfjs;
}

/** URL of a library paper's PDF, served by app.PDFHandler. */
export const pdfUrl = (paperId: string) => `/pdf/${encodeURIComponent(paperId)}`;

/**
 * The pages a passage is on, in order: its boxes' pages and its stored
 * pages (either may be missing). The view opens at the first and shows
 * every page up to the last, so each box is on a page shown.
 */
export function evidencePages(ev: Evidence): { first: number; last: number; all: number[] } {
  const all = [...new Set([...(ev.boxes ?? []).map((b) => b.page), ...(ev.pages ?? [])].filter((p) => p > 0))].sort((a, b) => a - b);
  return { first: all[0] ?? 1, last: all[all.length - 1] ?? 1, all };
}

export interface PageViewOptions {
  evidence: Evidence[];
  /** 0-based index of the evidence to show first. */
  index: number;
  /** Opens the paper in the system's PDF viewer. */
  openExternal?(paperId: string): void;
  /** Called once when the view closes (e.g. to give the focus back). */
  onClose?(): void;
}

/** Opens the page view over host; Escape or Close removes it. */
export function openPageView(host: HTMLElement, opts: PageViewOptions): { close(): void } {
  let index = opts.index;
  let zoom = 1.3;
  /** Pages shown: lo..hi (1-based, inclusive); 0 before the first render. */
  let lo = 0;
  let hi = 0;
  /** The page in view (the label, PageDown/PageUp). */
  let cur = 0;
  let numPages = 0;
  /** Bumped by every render: an older render's pages are dropped. */
  let gen = 0;
  /** Pages are being added (a render, a page turn, reading on): one thing at a time, so they stay in order. */
  let busy = false;
  const docs = new Map<string, Promise<import("pdfjs-dist").PDFDocumentProxy>>();

  const canvasWrap = h("div", { class: "pdf-pages", "data-testid": "pdf-pages" });
  const info = h("div", { class: "pdf-info" });
  const pageLabel = h("span", { class: "pdf-page-label muted", "data-testid": "pdf-page-label", "aria-live": "polite" });
  const scroller = h("div", { class: "pdf-scroll", on: { scroll: () => onScroll() } }, canvasWrap);
  const back = h("div", { class: "modal-back pdf-back", "data-testid": "pdf-view", tabindex: -1 });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    gen++;
    back.remove();
    opts.onClose?.();
    for (const d of docs.values()) void d.then((x) => x.destroy()).catch(() => {});
  };
  const btn = (label: string, testid: string, fn: () => void, title = "") =>
    h("button", { type: "button", class: "btn btn-quiet btn-small", "data-testid": testid, title: title || null, on: { click: fn } }, label);
  const bar = h(
    "div",
    { class: "pdf-bar" },
    btn("‹ Previous", "pdf-prev", () => go(index - 1), "Previous evidence (←)"),
    btn("Next ›", "pdf-next", () => go(index + 1), "Next evidence (→)"),
    h("span", { class: "spacer" }),
    btn("▲ Page", "pdf-page-up", () => void goPage(cur - 1), "Previous page (PageUp)"),
    pageLabel,
    btn("Page ▼", "pdf-page-down", () => void goPage(cur + 1), "Next page (PageDown)"),
    h("span", { class: "spacer" }),
    btn("−", "pdf-zoom-out", () => setZoom(zoom / 1.2), "Zoom out"),
    btn("+", "pdf-zoom-in", () => setZoom(zoom * 1.2), "Zoom in"),
    opts.openExternal ? btn("Open in system viewer", "pdf-external", () => opts.openExternal?.(opts.evidence[index].paperId)) : null,
    btn("Close", "pdf-close", close),
  );
  back.appendChild(h("div", { class: "modal pdf-modal", role: "dialog", "aria-modal": "true", "aria-label": "PDF page" }, bar, info, scroller));
  back.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === "Escape") close();
    if (k === "ArrowRight") go(index + 1);
    if (k === "ArrowLeft") go(index - 1);
    if (k === "ArrowDown" || k === "ArrowUp") {
      // The dialog holds the focus, not the pages: read on line by line.
      e.preventDefault();
      scroller.scrollBy?.({ top: k === "ArrowDown" ? 60 : -60 });
    }
    if (k === "PageDown" || k === "PageUp") {
      e.preventDefault();
      void goPage(cur + (k === "PageDown" ? 1 : -1));
    }
  });
  host.appendChild(back);
  back.focus();

  function go(i: number) {
    if (i < 0 || i >= opts.evidence.length) return;
    index = i;
    lo = hi = 0;
    void render();
  }
  function setZoom(z: number) {
    zoom = Math.min(4, Math.max(0.5, z));
    void render();
  }

  function label() {
    mount(pageLabel, numPages ? `Page ${cur} of ${numPages}` : "");
  }

  const pageEl = (p: number) => canvasWrap.querySelector<HTMLElement>(`[data-testid="pdf-page"][data-page="${p}"]`);

  async function doc() {
    const ev = opts.evidence[index];
    const lib = await loadPdfJs();
    let d = docs.get(ev.paperId);
    if (!d) {
      d = lib.getDocument({ url: pdfUrl(ev.paperId), disableFontFace: true, enableXfa: false }).promise;
      docs.set(ev.paperId, d);
    }
    return d;
  }

  /** Draws page p with the passage's boxes on it, before or after the pages shown. */
  async function addPage(p: number, at: "start" | "end", my: number): Promise<HTMLElement | null> {
    const ev = opts.evidence[index];
    if (my !== gen) return null;
    const slot = h("div", { class: "pdf-page", "data-testid": "pdf-page", "data-page": p }, h("p", { class: "muted" }, `Rendering page ${p}…`));
    if (at === "start") canvasWrap.prepend(slot);
    else canvasWrap.append(slot);
    const stale = () => {
      if (my === gen) return false;
      slot.remove(); // a newer render owns the pages now
      return true;
    };
    const pdf = await doc();
    const pg = await pdf.getPage(p);
    if (stale()) return null;
    const viewport = pg.getViewport({ scale: zoom });
    const canvas = h("canvas", { class: "pdf-canvas", width: Math.floor(viewport.width), height: Math.floor(viewport.height) });
    canvas.style.width = `${Math.floor(viewport.width)}px`;
    canvas.style.height = `${Math.floor(viewport.height)}px`;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no canvas");
    await pg.render({ canvasContext: ctx, viewport, canvas }).promise;
    if (stale()) return null;
    const marks = (ev.boxes ?? [])
      .filter((b) => b.page === p)
      .map((b) => {
        const m = h("div", { class: "pdf-hl", "data-testid": "pdf-highlight", "data-page": b.page, "data-x0": b.x0, "data-y0": b.y0, "data-x1": b.x1, "data-y1": b.y1 });
        m.style.left = `${b.x0 * zoom}px`;
        m.style.top = `${b.y0 * zoom}px`;
        m.style.width = `${Math.max(2, (b.x1 - b.x0) * zoom)}px`;
        m.style.height = `${Math.max(2, (b.y1 - b.y0) * zoom)}px`;
        return m;
      });
    const layer = h("div", { class: "pdf-layer" }, canvas, marks);
    layer.style.width = canvas.style.width;
    layer.style.height = canvas.style.height;
    mount(slot, h("div", { class: "pdf-page-no muted" }, `Page ${p}`), layer);
    return slot;
  }

  async function render() {
    const my = ++gen;
    const ev = opts.evidence[index];
    const boxes = ev.boxes ?? [];
    const span = evidencePages(ev);
    if (!lo) {
      lo = span.first;
      hi = span.last;
    }
    const several = span.all.length > 1;
    mount(
      info,
      h("p", { class: "pdf-path" }, `${index + 1}/${opts.evidence.length} · `, ev.path.join(" › ") || ev.paperTitle),
      h(
        "p",
        { class: "muted" },
        [pageList(span.all), boxes.length ? "" : "No stored positions for this passage: the page is shown without a highlight."].filter(Boolean).join(" · "),
      ),
      several
        ? h("p", { class: "muted", "data-testid": "pdf-span-note" }, `The passage runs over ${pageList(span.all)}: each page is shown below the other, highlighted. Scroll or press PageDown to read on.`)
        : null,
    );
    mount(canvasWrap);
    busy = true;
    try {
      const pdf = await doc();
      if (my !== gen) return;
      numPages = pdf.numPages;
      lo = Math.min(Math.max(lo, 1), numPages);
      hi = Math.min(Math.max(hi, lo), numPages);
      cur = lo;
      label();
      for (let p = lo; p <= hi; p++) {
        if (!(await addPage(p, "end", my))) return;
        if (p === lo) {
          const first = canvasWrap.querySelector<HTMLElement>('[data-testid="pdf-highlight"]');
          (first ?? pageEl(lo))?.scrollIntoView({ block: first ? "center" : "start" });
        }
      }
      const shownMarks = canvasWrap.querySelectorAll(`[data-testid="pdf-highlight"][data-page="${lo}"]`).length;
      // With the pages drawn below it: which, and the highlights on each.
      const perPage = [];
      for (let p = lo; p <= hi; p++) perPage.push(`${p}:${canvasWrap.querySelectorAll(`[data-testid="pdf-highlight"][data-page="${p}"]`).length}`);
      canvasWrap.setAttribute("data-shown", `page view: page ${lo} of ${ev.paperTitle || ev.paperId}, ${shownMarks} highlights; pages shown ${lo}-${hi}; highlights by page ${perPage.join(" ")}`);
    } catch (e) {
      if (my !== gen) return;
      mount(canvasWrap, h("p", { class: "bad", role: "alert" }, `The page could not be shown: ${e instanceof Error ? e.message : String(e)}`));
    } finally {
      if (my === gen) busy = false;
    }
  }

  /** Shows page p (adding the pages up to it) and scrolls to its top. */
  async function goPage(p: number) {
    if (busy || !numPages || p < 1 || p > numPages) return;
    const my = gen;
    busy = true;
    try {
      while (p > hi) {
        if (!(await addPage(hi + 1, "end", my))) return;
        hi++;
      }
      while (p < lo) {
        if (!(await addPage(lo - 1, "start", my))) return;
        lo--;
      }
    } catch {
      return;
    } finally {
      if (my === gen) busy = false;
    }
    cur = p;
    label();
    pageEl(p)?.scrollIntoView({ block: "start" });
  }

  /** Continuous reading: the label follows the scroll; near the end of the last page the next one is added. */
  function onScroll() {
    if (!numPages) return;
    const top = scroller.getBoundingClientRect().top;
    for (const el of Array.from(canvasWrap.querySelectorAll<HTMLElement>('[data-testid="pdf-page"]'))) {
      const r = el.getBoundingClientRect();
      if (r.bottom > top + 40) {
        const p = Number(el.dataset.page);
        if (p && p !== cur) {
          cur = p;
          label();
        }
        break;
      }
    }
    if (!busy && hi < numPages && scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 80) {
      const my = gen;
      busy = true;
      void addPage(hi + 1, "end", my)
        .then((el) => {
          if (el) hi++;
        })
        .catch(() => {})
        .finally(() => {
          if (my === gen) busy = false;
        });
    }
  }

  void render();
  return { close };
}
