import { describe, expect, it, vi } from "vitest";
import type { CompareTable } from "../lib/api";
import { fakeApi, xssAnswer, xssPaper, XSS, SCRIPT } from "../test/fakeapi";
import type { Paper } from "../lib/api";
import { createCompareView, filterPickable, moveCell, parseAspects } from "./compare";
import { selectionPanel } from "./selection";

const flush = () => new Promise((r) => setTimeout(r, 0));

function paper(id: string, title: string, authors: string[], year: number, status = "ready"): Paper {
  return { id, title, authors, year, pages: 3, file: `/papers/${id}-file.pdf`, status, code: "", message: "", stale: false };
}

const library = (): Paper[] => [
  paper("1", "BERT: Pre-training of Deep Bidirectional Transformers", ["Jacob Devlin", "Ming-Wei Chang"], 2019),
  paper("2", "Convolutional Neural Networks for Sentence Classification", ["Yoon Kim"], 2014),
  paper("3", "Recurrent Convolutional Neural Networks for Text Classification", ["Siwei Lai"], 2015),
  paper("4", "GloVe: Global Vectors for Word Representation", ["Jeffrey Pennington", "Richard Socher"], 2014),
  paper("5", `${XSS} Müller's paper`, ["Jörg Müller"], 2020),
  paper("6", "Broken", [], 0, "failed"),
];

const key = (el: Element, k: string, init: KeyboardEventInit = {}) => el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...init }));

function table(): CompareTable {
  const ev = xssAnswer().evidence[0];
  return {
    papers: [
      { paperId: "7", paperTitle: `${XSS} Title` },
      { paperId: "8", paperTitle: "Other paper" },
    ],
    aspects: ["Model", "Dataset"],
    cells: [
      { paperId: "7", aspect: "Model", text: `The encoder has six layers. ${SCRIPT}`, notFound: false, evidence: [ev] },
      { paperId: "7", aspect: "Dataset", text: "Not found: no passage of this paper mentions this aspect.", notFound: true, evidence: [] },
      { paperId: "8", aspect: "Model", text: "A transformer.", notFound: false, evidence: [{ ...ev, paperId: "8", nodeId: "205" }] },
      { paperId: "8", aspect: "Dataset", text: "SQuAD.", notFound: false, evidence: [{ ...ev, paperId: "8", nodeId: "206" }] },
    ],
    aspectsProposed: false,
    warnings: ["Repeated aspect(s) merged: model."],
    millis: 12,
  };
}

describe("compare view", () => {
  it("parses aspects", () => {
    expect(parseAspects(" Dataset; Model ;;\nMetric ")).toEqual(["Dataset", "Model", "Metric"]);
  });

  it("builds the table, keeps PDF text as text, and opens a cell like a citation", async () => {
    const compare = vi.fn(async () => table());
    const paper = vi.fn(async () => xssPaper());
    const exportCompare = vi.fn(async () => "/tmp/cmp.csv");
    const api = fakeApi({
      listPapers: async () => [
        { id: "7", title: "Seven", authors: [], year: 0, pages: 3, file: "/7.pdf", status: "ready", code: "", message: "", stale: false },
        { id: "9", title: "Broken", authors: [], year: 0, pages: 0, file: "/9.pdf", status: "failed", code: "garbled", message: "x", stale: false },
      ],
      compare,
      paper,
      exportCompare,
    });
    const v = createCompareView(api, { openPage: false });
    document.body.appendChild(v.el);
    await v.open(["7"]);
    const boxes = v.el.querySelectorAll<HTMLInputElement>("[data-testid=compare-paper]");
    expect(boxes.length).toBe(1); // failed papers cannot be compared
    expect(boxes[0].checked).toBe(true);
    v.el.querySelector<HTMLInputElement>("[data-testid=compare-aspects]")!.value = "Model; Dataset; model";
    v.el.querySelector<HTMLButtonElement>("[data-testid=compare-build]")!.click();
    await flush();
    expect(compare).toHaveBeenCalledWith({ paperIds: ["7"], aspects: ["Model", "Dataset", "model"] });
    const cells = v.el.querySelectorAll<HTMLElement>("[data-testid=compare-cell]");
    expect(cells.length).toBe(4);
    expect(v.el.querySelector("script")).toBeNull();
    expect(v.el.querySelector("img")).toBeNull();
    expect(cells[0].textContent).toContain(SCRIPT);
    expect(cells[0].textContent).toContain("2.1 Encoder");
    expect(cells[1].dataset.notFound).toBe("true");
    expect(cells[1].textContent).toContain("Not found");
    expect(v.el.querySelector("[data-testid=compare-warnings]")?.textContent).toContain("Repeated aspect");
    expect(v.el.querySelector("[data-testid=compare-status]")?.textContent).toContain("3 of 4 cells with evidence");

    cells[0].click();
    await flush();
    expect(paper).toHaveBeenCalledWith("7");
    // The cited path is highlighted in the tree beside the table.
    expect(v.el.querySelector(`.paper-view [data-node-id="103"]`)?.className).toContain("on-path");
    expect(v.el.querySelector(`.paper-view [data-node-id="105"]`)?.getAttribute("aria-current")).toBeTruthy();
    cells[1].click();
    await flush();
    expect(paper).toHaveBeenCalledTimes(1); // a not-found cell cites nothing

    v.el.querySelector<HTMLButtonElement>("[data-testid=compare-export-csv]")!.click();
    await flush();
    expect(exportCompare).toHaveBeenCalledWith({ paperIds: ["7"], aspects: ["Model", "Dataset", "model"] }, "csv");
    expect(v.el.querySelector("[data-testid=compare-status]")?.textContent).toContain("/tmp/cmp.csv");
  });

  it("shows a backend error instead of a table", async () => {
    const api = fakeApi({ compare: async () => Promise.reject(Object.assign(new Error("x"), {})) });
    const v = createCompareView(api, { openPage: false });
    await v.open([]);
    v.el.querySelector<HTMLButtonElement>("[data-testid=compare-build]")!.click();
    await flush();
    expect(v.table()).toBeNull();
    expect(v.el.querySelector("[data-testid=compare-table]")).toBeNull();
  });
});

describe("compare picker and keyboard", () => {
  it("filters by title, author, year and file name; every word must match", () => {
    const ps = library();
    ps[2].file = "/papers/lai2015_rcnn_aaai.pdf";
    const ids = (q: string) => filterPickable(ps, q).map((p) => p.id);
    expect(ids("")).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(ids("convolutional")).toEqual(["2", "3"]);
    expect(ids("classification 2014")).toEqual(["2"]);
    expect(ids("devlin")).toEqual(["1"]);
    expect(ids("muller")).toEqual(["5"]); // diacritics folded
    expect(ids("rcnn")).toEqual(["3"]); // the file name
    expect(ids("KIM")).toEqual(["2"]);
    expect(ids("nothing-like-this")).toEqual([]);
  });

  it("moves between cells with the arrow keys, Home and End, stopping at the edges", () => {
    expect(moveCell("ArrowRight", false, 0, 0, 3, 4)).toEqual([0, 1]);
    expect(moveCell("ArrowLeft", false, 0, 0, 3, 4)).toEqual([0, 0]);
    expect(moveCell("ArrowDown", false, 2, 1, 3, 4)).toEqual([2, 1]);
    expect(moveCell("ArrowUp", false, 2, 1, 3, 4)).toEqual([1, 1]);
    expect(moveCell("Home", false, 2, 3, 3, 4)).toEqual([2, 0]);
    expect(moveCell("End", false, 1, 0, 3, 4)).toEqual([1, 3]);
    expect(moveCell("Home", true, 2, 3, 3, 4)).toEqual([0, 0]);
    expect(moveCell("End", true, 0, 0, 3, 4)).toEqual([2, 3]);
    expect(moveCell("a", false, 0, 0, 3, 4)).toBeNull();
    expect(moveCell("ArrowDown", false, 0, 0, 0, 0)).toBeNull();
  });

  it("filters the picker, selects all shown, clears, and keeps the focus on a ticked box", async () => {
    const compare = vi.fn(async () => table());
    const v = createCompareView(fakeApi({ listPapers: async () => library(), compare }), { openPage: false });
    document.body.appendChild(v.el);
    await v.open([]);
    const boxes = () => [...v.el.querySelectorAll<HTMLInputElement>("[data-testid=compare-paper]")];
    expect(boxes().length).toBe(5); // the failed paper is not offered
    expect(v.el.querySelector("img")).toBeNull(); // a title with markup stays text
    expect(v.el.querySelector("[data-testid=compare-papers]")?.textContent).toContain(XSS);
    expect(v.el.querySelector("[data-testid=compare-pick-summary]")?.textContent).toContain("whole library (5)");

    const filter = v.el.querySelector<HTMLInputElement>("[data-testid=compare-filter]")!;
    filter.value = "neural 2014";
    filter.dispatchEvent(new Event("input"));
    expect(boxes().map((b) => b.dataset.paperId)).toEqual(["2"]);
    expect(v.el.querySelector("[data-testid=compare-pick-count]")?.textContent).toBe("1 of 5 shown");
    filter.value = "classification";
    filter.dispatchEvent(new Event("input"));
    expect(boxes().map((b) => b.dataset.paperId)).toEqual(["2", "3"]);
    v.el.querySelector<HTMLButtonElement>("[data-testid=compare-select-shown]")!.click();
    expect(boxes().every((b) => b.checked)).toBe(true);
    expect(v.el.querySelector("[data-testid=compare-pick-summary]")?.textContent).toBe("2 of 5 chosen");

    // Ticking a box with the keyboard must not rebuild the list (the focus stays).
    filter.value = "";
    filter.dispatchEvent(new Event("input"));
    const glove = boxes().find((b) => b.dataset.paperId === "4")!;
    glove.focus();
    glove.click();
    expect(document.activeElement).toBe(glove);
    expect(glove.isConnected).toBe(true);
    expect(v.el.querySelector("[data-testid=compare-pick-summary]")?.textContent).toBe("3 of 5 chosen");

    v.el.querySelector<HTMLButtonElement>("[data-testid=compare-build]")!.click();
    await flush();
    expect(compare).toHaveBeenCalledWith({ paperIds: ["2", "3", "4"], aspects: [] });
    // The picker folds away so the table gets the room.
    expect(v.el.querySelector<HTMLDetailsElement>("[data-testid=compare-picker]")!.open).toBe(false);

    v.el.querySelector<HTMLButtonElement>("[data-testid=compare-clear]")!.click();
    expect(boxes().some((b) => b.checked)).toBe(false);
    expect(v.el.querySelector("[data-testid=compare-pick-summary]")?.textContent).toContain("whole library");
    v.el.remove();
  });

  it("keeps the table full width until a cell opens; Enter, Space and arrows work; Esc closes the pane", async () => {
    const paperCall = vi.fn(async () => xssPaper());
    const v = createCompareView(fakeApi({ listPapers: async () => library(), compare: async () => table(), paper: paperCall }), { openPage: false });
    document.body.appendChild(v.el);
    await v.open([]);
    const side = v.el.querySelector<HTMLElement>("[data-testid=compare-side]")!;
    const toggle = v.el.querySelector<HTMLButtonElement>("[data-testid=compare-pane-toggle]")!;
    expect(side.hidden).toBe(true);
    expect(toggle.disabled).toBe(true); // nothing to show yet
    v.el.querySelector<HTMLButtonElement>("[data-testid=compare-build]")!.click();
    await flush();
    expect(v.el.dataset.pane).toBe("closed");
    expect(v.el.querySelector(".cmp-layout")?.classList.contains("cmp-open")).toBe(false);

    const cell = (r: number, c: number) => v.el.querySelector<HTMLElement>(`[data-testid=compare-cell][data-row="${r}"][data-col="${c}"]`)!;
    // Roving tabindex: one cell takes Tab.
    expect([...v.el.querySelectorAll("[data-testid=compare-cell]")].filter((c) => c.getAttribute("tabindex") === "0")).toEqual([cell(0, 0)]);
    cell(0, 0).focus();
    key(cell(0, 0), "ArrowDown");
    expect(document.activeElement).toBe(cell(1, 0));
    key(cell(1, 0), "ArrowRight");
    expect(document.activeElement).toBe(cell(1, 1));
    expect(cell(1, 1).getAttribute("tabindex")).toBe("0");
    expect(cell(0, 0).getAttribute("tabindex")).toBe("-1");
    key(cell(1, 1), "ArrowRight"); // the edge: stays
    expect(document.activeElement).toBe(cell(1, 1));
    key(cell(1, 1), "ArrowUp");
    expect(document.activeElement).toBe(cell(0, 1)); // a not-found cell is reachable too
    key(cell(0, 1), "Enter");
    await flush();
    expect(paperCall).not.toHaveBeenCalled(); // it cites nothing
    expect(side.hidden).toBe(true);

    key(cell(0, 1), "ArrowLeft");
    const space = new KeyboardEvent("keydown", { key: " ", bubbles: true, cancelable: true });
    cell(0, 0).dispatchEvent(space);
    await flush();
    expect(space.defaultPrevented).toBe(true); // Space opens, it does not scroll
    expect(paperCall).toHaveBeenCalledWith("7");
    expect(side.hidden).toBe(false);
    expect(v.el.dataset.pane).toBe("open");
    expect(cell(0, 0).classList.contains("cmp-on")).toBe(true);
    expect(side.querySelector(`[data-node-id="105"]`)?.getAttribute("aria-current")).toBeTruthy();
    expect(side.querySelector(".cmp-side-title")?.textContent).toContain(XSS); // as text
    expect(side.querySelector("img")).toBeNull();

    // Esc anywhere gives the table the full width back and the focus to the cell.
    key(document.body, "Escape");
    expect(side.hidden).toBe(true);
    expect(document.activeElement).toBe(cell(0, 0));
    // The toggle reopens it (the paper is still loaded) and closes it again.
    expect(toggle.disabled).toBe(false);
    toggle.click();
    expect(side.hidden).toBe(false);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    v.el.querySelector<HTMLButtonElement>("[data-testid=compare-pane-close]")!.click();
    expect(side.hidden).toBe(true);

    // Enter on a found cell opens it as well.
    key(cell(1, 0), "Enter");
    await flush();
    expect(side.hidden).toBe(false);
    // Esc while a dialog is open is the dialog's.
    const dlg = document.createElement("div");
    dlg.className = "modal-back";
    document.body.appendChild(dlg);
    key(dlg, "Escape");
    expect(side.hidden).toBe(false);
    dlg.remove();
    v.el.remove();
  });
});

describe("selection panel", () => {
  it("lists the papers considered with why, as text", () => {
    const a = xssAnswer();
    expect(selectionPanel(a)).toBeNull();
    a.diag.selection = {
      papers: [
        { paperId: "7", paperTitle: `${XSS} Title`, chosen: true, by: "llm+vector", reason: `LLM chose it ${SCRIPT}`, score: 0.9 },
        { paperId: "8", paperTitle: "Other", chosen: false, by: "", reason: "title/ToC match 0.100", score: 0.1 },
      ],
      branch: "",
      structure: "table",
      routeReason: "question cues: compar…",
      routedBy: "rules",
      subQueries: ["a", "b"],
      rendered: `| Paper | Column | Cell |\n| ${XSS} | x | y |`,
    };
    const el = selectionPanel(a)!;
    document.body.appendChild(el);
    expect(el.querySelectorAll("[data-testid=selection-paper]").length).toBe(2);
    expect(el.textContent).toContain("1 of 2 papers chosen");
    expect(el.textContent).toContain("structure: table (rules)");
    expect(el.querySelector("[data-testid=selection-route]")?.textContent).toContain("compar");
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("img")).toBeNull();
    expect(el.querySelector("[data-testid=selection-structure]")?.textContent).toContain(XSS);
  });
});
