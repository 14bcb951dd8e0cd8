import { describe, expect, it, vi } from "vitest";
import type { CompareTable } from "../lib/api";
import { fakeApi, xssAnswer, xssPaper, XSS, SCRIPT } from "../test/fakeapi";
import { createCompareView, parseAspects } from "./compare";
import { selectionPanel } from "./selection";

const flush = () => new Promise((r) => setTimeout(r, 0));

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
