// The PDF page view: the cited page rendered in the app with pdf.js (bundled
// and served by the app itself; nothing is loaded from the network) and the
// evidence's stored text boxes highlighted. Boxes are PDF points with the
// origin at the page's top-left, so a box maps to the canvas by the render
// scale alone. When an evidence item has no boxes the page is shown with a
// note. pdf.js is loaded on first use (a separate chunk), so it costs
// nothing at start-up.

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
  let page = 0;
  const docs = new Map<string, Promise<import("pdfjs-dist").PDFDocumentProxy>>();

  const canvasWrap = h("div", { class: "pdf-page", "data-testid": "pdf-page" });
  const info = h("div", { class: "pdf-info" });
  const back = h("div", { class: "modal-back pdf-back", "data-testid": "pdf-view", tabindex: -1 });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    back.remove();
    opts.onClose?.();
    for (const d of docs.values()) void d.then((x) => x.destroy()).catch(() => {});
  };
  const btn = (label: string, testid: string, fn: () => void, title = "") =>
    h("button", { type: "button", class: "btn btn-quiet btn-small", "data-testid": testid, title: title || null, on: { click: fn } }, label);
  const bar = h(
    "div",
    { class: "pdf-bar" },
    btn("‹ Previous", "pdf-prev", () => go(index - 1), "Previous evidence"),
    btn("Next ›", "pdf-next", () => go(index + 1), "Next evidence"),
    h("span", { class: "spacer" }),
    btn("−", "pdf-zoom-out", () => setZoom(zoom / 1.2), "Zoom out"),
    btn("+", "pdf-zoom-in", () => setZoom(zoom * 1.2), "Zoom in"),
    opts.openExternal ? btn("Open in system viewer", "pdf-external", () => opts.openExternal?.(opts.evidence[index].paperId)) : null,
    btn("Close", "pdf-close", close),
  );
  back.appendChild(h("div", { class: "modal pdf-modal", role: "dialog", "aria-modal": "true", "aria-label": "PDF page" }, bar, info, h("div", { class: "pdf-scroll" }, canvasWrap)));
  back.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === "Escape") close();
    if (k === "ArrowRight") go(index + 1);
    if (k === "ArrowLeft") go(index - 1);
  });
  host.appendChild(back);
  back.focus();

  function go(i: number) {
    if (i < 0 || i >= opts.evidence.length) return;
    index = i;
    page = 0;
    void render();
  }
  function setZoom(z: number) {
    zoom = Math.min(4, Math.max(0.5, z));
    void render();
  }

  async function render() {
    const ev = opts.evidence[index];
    const boxes = ev.boxes ?? [];
    if (!page) page = boxes[0]?.page || ev.pages?.[0] || 1;
    mount(
      info,
      h("p", { class: "pdf-path" }, `${index + 1}/${opts.evidence.length} · `, ev.path.join(" › ") || ev.paperTitle),
      h("p", { class: "muted" }, [pageList(ev.pages), boxes.length ? "" : "No stored positions for this passage: the page is shown without a highlight."].filter(Boolean).join(" · ")),
    );
    mount(canvasWrap, h("p", { class: "muted" }, "Rendering the page…"));
    try {
      const lib = await loadPdfJs();
      let doc = docs.get(ev.paperId);
      if (!doc) {
        doc = lib.getDocument({ url: pdfUrl(ev.paperId), disableFontFace: true, enableXfa: false }).promise;
        docs.set(ev.paperId, doc);
      }
      const pdf = await doc;
      const pg = await pdf.getPage(Math.min(Math.max(page, 1), pdf.numPages));
      const viewport = pg.getViewport({ scale: zoom });
      const canvas = h("canvas", { class: "pdf-canvas", width: Math.floor(viewport.width), height: Math.floor(viewport.height) });
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const ctx = canvas.getContext("2d");
      if (!ctx) throw new Error("no canvas");
      await pg.render({ canvasContext: ctx, viewport, canvas }).promise;
      const marks = boxes
        .filter((b) => b.page === pg.pageNumber)
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
      mount(canvasWrap, layer);
      marks[0]?.scrollIntoView({ block: "center" });
      canvasWrap.setAttribute("data-shown", `page view: page ${pg.pageNumber} of ${ev.paperTitle || ev.paperId}, ${marks.length} highlights`);
    } catch (e) {
      mount(canvasWrap, h("p", { class: "bad", role: "alert" }, `The page could not be shown: ${e instanceof Error ? e.message : String(e)}`));
    }
  }
  void render();
  return { close };
}
