// BibTeX export in the window: the answer's export menu offers "BibTeX
// (.bib)" beside the report formats (the papers it cites), the history the
// papers all answers cite, and the library the selected papers, else the
// listed ones, else all of them. The Go side writes the file
// (app/export.go, TestExportBibTeXThroughTheApp); these check what the
// menus offer, what they ask the Go side for and what they say after.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError, type Paper } from "../lib/api";
import { defaultQuery } from "../lib/papers";
import { fakeApi, xssAnswer, XSS } from "../test/fakeapi";
import { ANSWER_EXPORTS, createAskView } from "./ask";
import { bibScope, createLibrary, initialState, renderLibrary, type LibraryState } from "./library";

const flush = async (n = 4) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0));
};

beforeAll(() => {
  Element.prototype.scrollIntoView = function () {};
});
afterEach(() => document.body.replaceChildren());

function paper(over: Partial<Paper> = {}): Paper {
  return { id: "1", title: "Attention Is All You Need", authors: ["A. Vaswani"], year: 2017, pages: 15, file: "/p/attention.pdf", status: "ready", code: "", message: "", stale: false, ...over };
}

describe("the answer's export menu", () => {
  function setup(over: Parameters<typeof fakeApi>[0] = {}) {
    const view = createAskView(fakeApi(over), { onCite() {} });
    document.body.appendChild(view.el);
    view.showAnswer(xssAnswer());
    const menu = () => Array.from(view.el.querySelectorAll<HTMLButtonElement>(".answer-actions button"));
    const note = () => view.el.querySelector("[data-testid=export-note]")?.textContent ?? null;
    return { view, menu, note };
  }

  it("offers BibTeX (.bib) after the report formats", () => {
    const { menu } = setup();
    expect(menu().map((b) => b.textContent)).toEqual(["MD", "HTML", "PDF", "DOCX", "BibTeX (.bib)"]);
    expect(menu().map((b) => b.dataset.testid)).toEqual(ANSWER_EXPORTS.map((f) => `export-${f.format}`));
    expect(menu()[4].title).toContain("papers this answer cites");
  });

  it("asks the Go side for the cited papers as bib and says where they were saved", async () => {
    const exportAnswer = vi.fn(async () => `/home/r/${XSS}.bib`);
    const { view, note } = setup({ exportAnswer });
    view.el.querySelector<HTMLButtonElement>("[data-testid=export-bib]")!.click();
    await flush();
    expect(exportAnswer).toHaveBeenCalledWith("42", "bib");
    expect(note()).toBe(`Saved to /home/r/${XSS}.bib`);
    expect(view.el.querySelector("img")).toBeNull(); // the path is text
  });

  it("says nothing when the save dialog is cancelled, and the Go side's sentence when it fails", async () => {
    let result: () => Promise<string> = async () => "";
    const { view, note } = setup({ exportAnswer: () => result() });
    const bib = () => view.el.querySelector<HTMLButtonElement>("[data-testid=export-bib]")!;
    bib().click();
    await flush();
    expect(note()).toBeNull();
    result = async () => Promise.reject(new ApiError("not_found", "The answers cite no paper that is still in the library."));
    bib().click();
    await flush();
    expect(note()).toBe("The answers cite no paper that is still in the library.");
  });

  it("exports the papers the whole history cites", async () => {
    const exportHistory = vi.fn(async () => "/home/r/history.bib");
    const { view } = setup({ exportHistory, history: async () => [{ id: "42", question: "How many layers?", text: "", mode: "extractive", notFound: false, evidence: 2, createdAt: "2026-11-22T10:00:00Z" }] });
    await view.refreshHistory();
    const b = view.el.querySelector<HTMLButtonElement>("[data-testid=export-history-bib]")!;
    expect(b.textContent).toBe("Cited papers (BibTeX)");
    b.click();
    await flush();
    expect(exportHistory).toHaveBeenCalledWith("bib");
  });
});

describe("the library's BibTeX export", () => {
  const papers = [paper(), paper({ id: "2", title: "Bigtable", file: "/p/bigtable.pdf" }), paper({ id: "3", title: "", file: "/p/locked.pdf", status: "failed" })];
  const state = (over: Partial<LibraryState> = {}): LibraryState => ({ ...initialState(), phase: "ready", papers, ...over });

  it.each([
    { name: "nothing selected, nothing filtered: the whole library", over: {}, ids: [] as string[], label: "BibTeX of all papers" },
    { name: "selected papers, in the list's order", over: { selected: ["2", "1"] }, ids: ["1", "2"], label: "BibTeX of 2 selected" },
    { name: "a selected paper the filter hides is still exported", over: { selected: ["3", "2"], list: { ...defaultQuery(), status: "ready" } }, ids: ["2", "3"], label: "BibTeX of 2 selected" },
    { name: "the papers a filter lists", over: { list: { ...defaultQuery(), status: "ready" } }, ids: ["1", "2"], label: "BibTeX of 2 listed" },
  ])("$name", ({ over, ids, label }) => {
    const s = state(over);
    expect(bibScope(s).ids).toEqual(ids);
    const b = renderLibrary(s, { openFolder() {}, cancel() {}, retry() {}, dismiss() {}, exportBib() {} }).querySelector<HTMLButtonElement>("[data-testid=library-export-bib]");
    expect(b?.textContent).toBe(label);
    expect(b?.disabled).toBe(false);
  });

  it("is not offered by a build without it", () => {
    const el = renderLibrary(state(), { openFolder() {}, cancel() {}, retry() {}, dismiss() {} });
    expect(el.querySelector("[data-testid=library-export-bib]")).toBeNull();
  });

  it("exports what the button names and says where it was saved, or why not", async () => {
    const exportPapersBibTeX = vi.fn(async (ids: string[]): Promise<string> => (ids.length ? "/home/r/selected.bib" : "/home/r/library.bib"));
    const root = document.createElement("div");
    document.body.appendChild(root);
    const lib = createLibrary(root, fakeApi({ listPapers: async () => papers, exportPapersBibTeX }));
    await lib.refresh();
    const bib = () => root.querySelector<HTMLButtonElement>("[data-testid=library-export-bib]")!;
    bib().click();
    await flush();
    expect(exportPapersBibTeX).toHaveBeenLastCalledWith([]);
    expect(root.querySelector(".notice-ok")?.textContent).toContain("Saved all papers as BibTeX to /home/r/library.bib.");

    root.querySelectorAll<HTMLInputElement>("[data-testid=paper-select]")[1].click();
    expect(bib().textContent).toBe("BibTeX of 1 selected");
    bib().click();
    await flush();
    expect(exportPapersBibTeX).toHaveBeenLastCalledWith(["2"]);
    expect(root.querySelector(".notice-ok")?.textContent).toContain("Saved 1 selected paper as BibTeX to /home/r/selected.bib.");

    exportPapersBibTeX.mockImplementationOnce(async () => Promise.reject(new ApiError("invalid", "/home/r/refs.bib is a folder, not a regular file.")));
    bib().click();
    await flush();
    expect(root.querySelector(".notice-error")?.textContent).toContain("/home/r/refs.bib is a folder, not a regular file.");
  });
});
