// Reading an answer with the keyboard and across pages: the page view shows
// a passage that runs over two pages on both, and PageDown/PageUp turn pages;
// the page chip opens with Enter and Space; Ask says why it did nothing; a
// reopened answer brings back the scope and strategy it was asked with.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Answer, AskInput, Evidence } from "../lib/api";
import { fakeApi, xssAnswer } from "../test/fakeapi";
import { createAskView } from "./ask";
import { evidencePages, openPageView } from "./pdfview";

// pdf.js draws on a canvas, which jsdom has not: a document of 6 US-letter
// pages stands in for it here (the real pdf.js draws in the production
// window: docs/screenshots/two-page-evidence.png).
const rendered: number[] = [];
vi.mock("pdfjs-dist", () => ({
  GlobalWorkerOptions: {},
  getDocument: () => ({
    promise: Promise.resolve({
      numPages: 6,
      destroy: async () => {},
      getPage: async (n: number) => ({
        pageNumber: n,
        getViewport: ({ scale }: { scale: number }) => ({ width: 612 * scale, height: 792 * scale }),
        render: () => {
          rendered.push(n);
          return { promise: Promise.resolve() };
        },
      }),
    }),
  }),
}));
vi.mock("pdfjs-dist/build/pdf.worker.min.mjs?url", () => ({ default: "/worker.js" }));

const flush = async (n = 6) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0));
};

beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() => ({})) as never;
  Element.prototype.scrollIntoView = function () {};
});
afterEach(() => {
  document.body.replaceChildren();
  rendered.length = 0;
});

const box = (page: number, y0: number) => ({ page, x0: 72, y0, x1: 540, y1: y0 + 12 });
function ev(over: Partial<Evidence>): Evidence {
  return { paperId: "7", paperTitle: "A Paper", nodeId: "105", kind: "segment", path: ["A Paper", "3 Method"], pathIds: ["100", "103"], text: "t", pages: [3], boxes: [], score: 1, tokens: 1, ...over };
}

describe("evidencePages", () => {
  it.each([
    ["boxes on one page", ev({ pages: [3], boxes: [box(3, 100)] }), { first: 3, last: 3, all: [3] }],
    ["boxes on two pages", ev({ pages: [3, 4], boxes: [box(3, 700), box(4, 80)] }), { first: 3, last: 4, all: [3, 4] }],
    ["pages only", ev({ pages: [5, 6], boxes: [] }), { first: 5, last: 6, all: [5, 6] }],
    ["nothing known", ev({ pages: [], boxes: [] }), { first: 1, last: 1, all: [] }],
    ["a box before the stored page", ev({ pages: [4], boxes: [box(4, 80), box(3, 700)] }), { first: 3, last: 4, all: [3, 4] }],
  ])("%s", (_n, e, want) => {
    expect(evidencePages(e)).toEqual(want);
  });
});

describe("page view", () => {
  const pagesShown = () => Array.from(document.querySelectorAll<HTMLElement>('[data-testid="pdf-page"]')).map((e) => Number(e.dataset.page));
  const marksOn = (p: number) => document.querySelectorAll(`[data-testid="pdf-page"][data-page="${p}"] [data-testid="pdf-highlight"]`).length;
  const key = (k: string) => document.querySelector('[data-testid="pdf-view"]')!.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
  const label = () => document.querySelector('[data-testid="pdf-page-label"]')?.textContent;

  it("shows a passage that runs over two pages on both, highlighted, opening at the first", async () => {
    openPageView(document.body, { evidence: [ev({ pages: [3, 4], boxes: [box(3, 690), box(3, 704), box(4, 72)] })], index: 0 });
    await flush();
    expect(pagesShown()).toEqual([3, 4]);
    expect([marksOn(3), marksOn(4)]).toEqual([2, 1]);
    expect(label()).toBe("Page 3 of 6");
    expect(document.querySelector('[data-testid="pdf-span-note"]')?.textContent).toContain("pp. 3, 4");
  });

  it("turns pages with PageDown and PageUp, adding the pages it reaches", async () => {
    openPageView(document.body, { evidence: [ev({ pages: [3], boxes: [box(3, 100)] })], index: 0 });
    await flush();
    expect(pagesShown()).toEqual([3]);
    expect(document.querySelector('[data-testid="pdf-span-note"]')).toBeNull();
    key("PageDown");
    await flush();
    expect(pagesShown()).toEqual([3, 4]);
    expect(label()).toBe("Page 4 of 6");
    key("PageUp");
    key("PageUp");
    await flush();
    expect(pagesShown()).toEqual([2, 3, 4]);
    expect(label()).toBe("Page 2 of 6");
    for (let i = 0; i < 8; i++) {
      key("PageDown");
      await flush();
    }
    expect(pagesShown()).toEqual([2, 3, 4, 5, 6]);
    expect(label()).toBe("Page 6 of 6");
    // The highlight stays on its page.
    expect([marksOn(3), marksOn(4), marksOn(6)]).toEqual([1, 0, 0]);
  });

  it("keeps the pages in order, once each, when zoom and scrolling race the rendering", async () => {
    openPageView(document.body, { evidence: [ev({ pages: [3, 4], boxes: [box(3, 700), box(4, 80)] })], index: 0 });
    const scroller = document.querySelector<HTMLElement>(".pdf-scroll")!;
    const zoomOut = document.querySelector<HTMLButtonElement>('[data-testid="pdf-zoom-out"]')!;
    for (let tick = 0; tick < 40; tick++) {
      if (tick % 7 === 1) zoomOut.click();
      scroller.dispatchEvent(new Event("scroll"));
      await (tick % 2 ? Promise.resolve() : new Promise((r) => setTimeout(r, 0)));
    }
    await flush(10);
    // jsdom has no layout: every scroll reads as "at the end", so reading on
    // may add the next page, but only after the passage's pages, in order.
    const shown = pagesShown();
    expect(shown.slice(0, 2)).toEqual([3, 4]);
    expect(shown).toEqual([...new Set(shown)].sort((a, b) => a - b));
    expect(shown.every((p, i) => i === 0 || p === shown[i - 1] + 1)).toBe(true);
    expect([marksOn(3), marksOn(4)]).toEqual([1, 1]);
  });

  it("moves to the next passage and shows its pages only", async () => {
    openPageView(document.body, { evidence: [ev({ pages: [3], boxes: [box(3, 100)] }), ev({ pages: [5, 6], boxes: [box(5, 700), box(6, 80)] })], index: 0 });
    await flush();
    key("ArrowRight");
    await flush();
    expect(pagesShown()).toEqual([5, 6]);
    expect([marksOn(5), marksOn(6)]).toEqual([1, 1]);
  });
});

describe("ask view keyboard and scope", () => {
  function setup(over: Parameters<typeof fakeApi>[0] = {}) {
    const asks: AskInput[] = [];
    const onPage = vi.fn();
    const onCite = vi.fn();
    const api = fakeApi({
      strategies: async () => ["auto", "pt-rag", "naive"],
      ask: async (input) => {
        asks.push(input);
        return { ...xssAnswer(), id: "43", question: input.question, paperIds: input.paperIds };
      },
      ...over,
    });
    const view = createAskView(api, { onCite, onPage });
    document.body.appendChild(view.el);
    const q = view.el.querySelector<HTMLTextAreaElement>('[data-testid="ask-input"]')!;
    return { view, q, asks, onPage, onCite };
  }
  const note = () => document.querySelector<HTMLElement>('[data-testid="ask-form-note"]')!;

  it("hints Ctrl+Enter and says why an empty question asks nothing", async () => {
    const { q, asks } = setup();
    await flush();
    expect(q.placeholder).toContain("Ctrl+Enter");
    expect(document.querySelector('[data-testid="ask-keyhint"]')?.textContent).toBe("Ctrl+Enter");
    expect(note().hidden).toBe(true);
    for (const blank of ["", "   \n "]) {
      q.value = blank;
      document.querySelector<HTMLButtonElement>('[data-testid="ask-submit"]')!.click();
      await flush();
      expect(note().hidden).toBe(false);
      expect(note().textContent).toContain("Type a question first");
    }
    expect(asks).toEqual([]);
    q.value = "How many layers?";
    q.dispatchEvent(new Event("input"));
    expect(note().hidden).toBe(true);
    q.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true, bubbles: true, cancelable: true }));
    await flush();
    expect(asks.map((a) => a.question)).toEqual(["How many layers?"]);
  });

  it.each(["Enter", " "])("opens the page of a passage with %j on its page chip, and only the page", async (k) => {
    const { view, onPage, onCite } = setup();
    view.showAnswer(xssAnswer());
    onCite.mockClear();
    const chip = document.querySelector<HTMLElement>('[data-evidence-index="2"] [data-testid="evidence-page"]')!;
    expect(chip.textContent).toBe("p. 1");
    chip.focus();
    const e = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
    chip.dispatchEvent(e);
    expect(onPage).toHaveBeenCalledTimes(1);
    expect(onPage.mock.calls[0][1]).toBe(2);
    expect(e.defaultPrevented).toBe(true);
    expect(onCite).not.toHaveBeenCalled();
  });

  const answer = (paperIds: string[], strategy: string, budget: number): Answer => {
    const a = xssAnswer();
    return { ...a, paperIds, strategy, diag: { ...a.diag, budget }, evidence: a.evidence.map((e, i) => ({ ...e, paperId: paperIds[i] ?? e.paperId, paperTitle: `Paper ${paperIds[i] ?? e.paperId}` })) };
  };
  it.each([
    { name: "whole library", ids: [] as string[], open: null as string | null, selected: [] as string[], scope: "library", label: "Whole library" },
    { name: "saved before scopes were kept (no papers)", ids: [], open: "7", selected: [], scope: "library", label: "Whole library" },
    { name: "the open paper", ids: ["7"], open: "7", selected: [], scope: "paper", label: "This paper: Open paper" },
    { name: "the ticked papers", ids: ["3", "5"], open: null, selected: ["5", "3"], scope: "selected", label: "Selected papers (2)" },
    { name: "a paper that is not open", ids: ["9"], open: "7", selected: [], scope: "asked", label: "As asked: Paper 9" },
    { name: "papers no longer ticked", ids: ["3", "5"], open: null, selected: [], scope: "asked", label: "As asked: 2 papers" },
  ])("reopening an answer asked of $name restores its scope and strategy", async ({ ids, open, selected, scope, label }) => {
    const saved = answer(ids, "naive", 320);
    const { view, q, asks } = setup({ history: async () => [{ id: "42", question: saved.question, text: "", mode: "extractive", notFound: false, evidence: 2, createdAt: saved.createdAt }], answer: async () => saved });
    view.setContext({ paperId: open, paperTitle: "Open paper", selected }, Boolean(open));
    await view.refreshHistory();
    await flush();
    // Something else is chosen before reopening, and Ask was pressed empty.
    view.el.querySelector<HTMLButtonElement>('[data-testid="ask-submit"]')!.click();
    await flush();
    expect(note().hidden).toBe(false);
    const stratSel = view.el.querySelector<HTMLSelectElement>('[data-testid="ask-strategy"]')!;
    stratSel.value = "pt-rag";
    view.el.querySelector<HTMLButtonElement>('[data-testid="history-row"] .hr-open')!.click();
    await flush();
    const scopeSel = view.el.querySelector<HTMLSelectElement>('[data-testid="ask-scope"]')!;
    expect(scopeSel.value).toBe(scope);
    expect(scopeSel.selectedOptions[0].textContent).toBe(label);
    expect(stratSel.value).toBe("naive");
    expect(view.el.querySelector<HTMLInputElement>('[data-testid="ask-budget"]')!.value).toBe("320");
    expect(q.value).toBe(saved.question);
    expect(note().hidden).toBe(true); // the question box is no longer empty
    // Asking again asks the same thing.
    view.el.querySelector<HTMLButtonElement>('[data-testid="ask-submit"]')!.click();
    await flush();
    expect(asks).toHaveLength(1);
    expect([...asks[0].paperIds].sort()).toEqual([...ids].sort());
    expect(asks[0].strategy).toBe("naive");
    expect(asks[0].budget).toBe(320);
  });
});

describe("the strategy named in the settings", () => {
  const settings = (strategy: string) => ({ settings: { retrieval: { strategy, budget: 160 } }, descriptions: {} }) as never;
  it.each([
    { name: "the settings load first", settingsFirst: true },
    { name: "the strategy list loads first", settingsFirst: false },
  ])("is chosen in the form when $name", async ({ settingsFirst }) => {
    // The two calls resolve in the order given: the form used to keep "auto"
    // when the settings came before the list that has their strategy.
    let listDone!: () => void;
    let settingsDone!: () => void;
    const list = new Promise<void>((r) => (listDone = r));
    const conf = new Promise<void>((r) => (settingsDone = r));
    const view = createAskView(
      fakeApi({
        strategies: async () => {
          await list;
          return ["auto", "pt-rag", "naive"];
        },
        getSettings: async () => {
          await conf;
          return settings("pt-rag");
        },
      }),
      { onCite: () => {} },
    );
    const stratSel = view.el.querySelector<HTMLSelectElement>('[data-testid="ask-strategy"]')!;
    if (settingsFirst) settingsDone();
    else listDone();
    await flush();
    if (settingsFirst) listDone();
    else settingsDone();
    await flush();
    expect(stratSel.value).toBe("pt-rag");
    expect(view.el.querySelector<HTMLInputElement>('[data-testid="ask-budget"]')!.value).toBe("160");
  });
});
