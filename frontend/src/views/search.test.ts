import { describe, expect, it, vi } from "vitest";
import type { Answer, Paper, SearchHit, TreeNode } from "../lib/api";
import { removedNote } from "./ask";
import { fakeApi } from "../test/fakeapi";
import { createLibrary, initialState, renderLibrary, type LibraryActions } from "./library";
import { pathTo } from "./workspace";

const XSS = "<img src=x onerror=alert(1)>";

function paper(over: Partial<Paper> = {}): Paper {
  return { id: "1", title: "Midas: Kernel TOCTTOU Protection", authors: ["A. Bhattacharyya"], year: 2022, pages: 14, file: "/p/midas.pdf", status: "ready", code: "", message: "", stale: false, ...over };
}

function hit(over: Partial<SearchHit> = {}): SearchHit {
  return {
    paperId: "1",
    title: "Midas: Kernel TOCTTOU Protection",
    score: 26.5,
    snippet: [{ text: "Double", mark: true }, { text: "-", mark: false }, { text: "fetch", mark: true }, { text: " bugs are a plague …", mark: false }],
    path: ["2 Background", "2.4 Double-Fetch Bugs"],
    nodeId: "77",
    page: 3,
    match: "text",
    ...over,
  };
}

const noop: LibraryActions = { openFolder() {}, cancel() {}, retry() {}, dismiss() {} };

describe("ranked search results", () => {
  const cases: { name: string; hits: SearchHit[]; path: string; marks: string[] }[] = [
    { name: "passage with its section path and page", hits: [hit()], path: "2 Background › 2.4 Double-Fetch Bugs · p. 3", marks: ["Double", "fetch"] },
    { name: "title match", hits: [hit({ path: [], nodeId: "", page: 0, match: "title", snippet: [{ text: "Midas", mark: true }] })], path: "In the title", marks: ["Midas"] },
    { name: "author match", hits: [hit({ path: [], nodeId: "", page: 0, match: "author", snippet: [{ text: "Payer", mark: true }] })], path: "In the authors", marks: ["Payer"] },
    { name: "title match whose passage precedes the first section", hits: [hit({ path: [], match: "title", page: 1 })], path: "Before the first section · p. 1", marks: ["Double", "fetch"] },
    { name: "PDF markup in a snippet stays text", hits: [hit({ snippet: [{ text: XSS, mark: true }, { text: ` and ${XSS}`, mark: false }] })], path: "2 Background › 2.4 Double-Fetch Bugs · p. 3", marks: [XSS] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const openPaperAt = vi.fn();
      const openPaper = vi.fn();
      const el = renderLibrary(
        { ...initialState(), phase: "ready", papers: [paper()], list: { ...initialState().list!, query: "double fetch" }, ranked: c.hits },
        { ...noop, openPaperAt, openPaper },
      );
      const rows = el.querySelectorAll("[data-testid=search-hit]");
      expect(rows).toHaveLength(1);
      expect(rows[0].querySelector("[data-testid=hit-path]")?.textContent).toBe(c.path);
      expect(Array.from(rows[0].querySelectorAll("mark.hit-mark")).map((m) => m.textContent)).toEqual(c.marks);
      expect(el.querySelector("img")).toBeNull();
      expect(el.querySelector("script")).toBeNull();
      (rows[0].querySelector("[data-testid=hit-open]") as HTMLButtonElement).click();
      if (c.hits[0].nodeId) expect(openPaperAt).toHaveBeenCalledWith("1", c.hits[0].nodeId);
      else expect(openPaper).toHaveBeenCalledWith("1");
    });
  }

  it("shows no ranked panel without a query, and drops hits of papers not listed", () => {
    const s = { ...initialState(), phase: "ready" as const, papers: [paper()], ranked: [hit(), hit({ paperId: "9" })] };
    expect(renderLibrary(s, noop).querySelector("[data-testid=search-ranked]")).toBeNull();
    const el = renderLibrary({ ...s, list: { ...initialState().list!, query: "fetch" } }, noop);
    expect(el.querySelectorAll("[data-testid=search-hit]")).toHaveLength(1);
  });

  it("asks the Go side as you type and shows the ranked papers", async () => {
    const searchLibrary = vi.fn(async () => [hit()]);
    const api = fakeApi({ listPapers: async () => [paper(), paper({ id: "2", title: "Bigtable", file: "/p/bigtable.pdf" })], searchPapers: async () => ["1"], searchLibrary });
    const root = document.createElement("div");
    document.body.append(root);
    const lib = createLibrary(root, api);
    await lib.refresh();
    const box = root.querySelector<HTMLInputElement>("[data-testid=library-search]")!;
    box.value = "double fetch";
    box.dispatchEvent(new Event("input"));
    await new Promise((r) => setTimeout(r, 260));
    expect(searchLibrary).toHaveBeenLastCalledWith("double fetch");
    expect(root.querySelectorAll("[data-testid=search-hit]")).toHaveLength(1);
    expect(root.querySelector("[data-testid=search-ranked]")?.textContent).toContain("Best matches for “double fetch”");
    // What the app log records for tests of the production binary (lib/shown.ts).
    expect(root.querySelector("[data-testid=search-ranked]")?.getAttribute("data-shown")).toMatch(/^search results: 1 papers for double fetch; first: \S/);
    root.remove();
  });
});

describe("remove with undo", () => {
  it("removes a paper at once, offers Undo, and undoing brings it back", async () => {
    let papers = [paper(), paper({ id: "2", title: "Bigtable", file: "/p/bigtable.pdf" })];
    const removePapers = vi.fn(async (ids: string[]) => ({ token: "t1", papers: [{ id: ids[0], title: "Bigtable", file: "/p/bigtable.pdf", removedAt: 0 }], undoSeconds: 30 }));
    const undoRemove = vi.fn(async () => ({ restored: 1, reindexed: { indexed: 0, skipped: 0, failures: [], millis: 0 } }));
    const api = fakeApi({ listPapers: async () => papers, removePapers, undoRemove });
    const root = document.createElement("div");
    document.body.append(root);
    const lib = createLibrary(root, api);
    await lib.refresh();
    const row = root.querySelector<HTMLElement>('[data-paper-id="2"]')!;
    row.querySelector<HTMLButtonElement>("[data-testid=paper-remove]")!.click();
    await vi.waitFor(() => expect(root.querySelector("[data-testid=undo-remove]")).not.toBeNull());
    expect(removePapers).toHaveBeenCalledWith(["2"]);
    expect(root.querySelector('[data-paper-id="2"]')).toBeNull();
    expect(root.querySelector("[data-testid=undo-remove]")?.textContent).toContain("Removed “Bigtable” from the library");
    expect(root.querySelector("[data-testid=undo-remove]")?.getAttribute("data-shown")).toMatch(/^undo offered: 1 papers/);
    papers = [...papers]; // the Go side lists it again once undone
    Array.from(root.querySelectorAll<HTMLButtonElement>("[data-testid=undo-remove] button")).find((b) => b.textContent === "Undo")!.click();
    await vi.waitFor(() => expect(root.querySelector('[data-paper-id="2"]')).not.toBeNull());
    expect(undoRemove).toHaveBeenCalledWith("t1");
    expect(root.querySelector("[data-testid=undo-remove]")).toBeNull();
    root.remove();
  });

  it("the undo notice goes when the undo time is over", async () => {
    const api = fakeApi({
      listPapers: async () => [paper()],
      removePapers: async () => ({ token: "t", papers: [{ id: "1", title: "Midas", file: "/p/midas.pdf", removedAt: 0 }], undoSeconds: 0.05 }),
      undoRemove: async () => ({ restored: 1, reindexed: { indexed: 0, skipped: 0, failures: [], millis: 0 } }),
    });
    const root = document.createElement("div");
    const lib = createLibrary(root, api);
    await lib.refresh();
    root.querySelector<HTMLButtonElement>("[data-testid=paper-remove]")!.click();
    await vi.waitFor(() => expect(root.querySelector("[data-testid=undo-remove]")).not.toBeNull());
    await vi.waitFor(() => expect(root.querySelector("[data-testid=undo-remove]")).toBeNull(), { timeout: 1000 });
  });

  it("lists removed papers with Add back, which indexes that file", async () => {
    const addBack = vi.fn(async () => ({ indexed: 1, skipped: 0, failures: [], millis: 5 }));
    const api = fakeApi({
      listPapers: async () => [paper()],
      removedFiles: async () => [{ id: "7", title: XSS, file: "/p/old.pdf", removedAt: 1 }],
      addBack,
    });
    const root = document.createElement("div");
    const lib = createLibrary(root, api);
    await lib.refresh();
    // Opening the list survives a re-render (progress events redraw the page).
    const details = root.querySelector<HTMLDetailsElement>("[data-testid=removed-papers]")!;
    details.open = true;
    details.dispatchEvent(new Event("toggle"));
    await lib.refresh();
    expect(root.querySelector<HTMLDetailsElement>("[data-testid=removed-papers]")!.open).toBe(true);
    const item = root.querySelector("[data-testid=removed-item]")!;
    expect(item.querySelector(".removed-title")?.textContent).toBe(XSS);
    expect(root.querySelector("img")).toBeNull();
    Array.from(item.querySelectorAll("button")).find((b) => b.textContent === "Add back")!.click();
    await vi.waitFor(() => expect(addBack).toHaveBeenCalledWith(["/p/old.pdf"]));
    await vi.waitFor(() => expect(root.textContent).toContain("Added 1 paper"));
  });
});

describe("pathTo", () => {
  const leaf = (id: string): TreeNode => ({ id, kind: "segment", role: "", title: "", number: "", level: 3, text: "t", pageStart: 1, pageEnd: 1, boxes: [], children: [] });
  const tree: TreeNode = {
    ...leaf("r"),
    kind: "root",
    children: [{ ...leaf("s1"), kind: "section", children: [{ ...leaf("s2"), kind: "section", children: [leaf("n1"), leaf("n2")] }] }, leaf("n3")],
  };
  const cases: [string, string, string[]][] = [
    ["a deep leaf", "n2", ["r", "s1", "s2", "n2"]],
    ["a section", "s2", ["r", "s1", "s2"]],
    ["the root", "r", ["r"]],
    ["not in the tree", "zz", []],
  ];
  for (const [name, id, want] of cases) it(name, () => expect(pathTo(tree, id)).toEqual(want));
});

describe("answer citing a removed paper", () => {
  const base = { id: "5", question: "q", text: "x [1]", mode: "extractive", strategy: "pt-rag", notFound: false, model: "", createdAt: "", paperIds: [], evidence: [], diag: {} } as unknown as Answer;
  const cases: [string, string[] | undefined, string | null][] = [
    ["none removed", [], null],
    ["field absent (older build)", undefined, null],
    ["one removed, its title as text", [XSS], `“${XSS}” was removed from the library after this answer.`],
    ["several removed", ["A", "B"], "2 cited papers were removed from the library after this answer."],
  ];
  for (const [name, removed, want] of cases) {
    it(name, () => {
      const el = removedNote({ ...base, removedPapers: removed });
      if (want === null) return expect(el).toBeNull();
      expect(el?.textContent).toContain(want);
      expect(el?.querySelector("img")).toBeNull();
    });
  }
});
