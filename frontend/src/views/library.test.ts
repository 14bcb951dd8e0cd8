import { describe, expect, it, vi } from "vitest";
import { ApiError, type Paper, type Progress, type Summary } from "../lib/api";
import { fakeApi } from "../test/fakeapi";
import { createLibrary, initialState, renderLibrary, summaryNotice, type LibraryActions } from "./library";

const XSS = "<img src=x onerror=alert(1)>";
const noop: LibraryActions = { openFolder() {}, cancel() {}, retry() {}, dismiss() {} };

function paper(over: Partial<Paper> = {}): Paper {
  return { id: "1", title: "Attention Is All You Need", authors: ["A. Vaswani", "N. Shazeer", "N. Parmar"], year: 2017, pages: 15, file: "/p/attention.pdf", status: "ready", code: "", message: "", stale: false, ...over };
}

function buttons(el: HTMLElement) {
  return Array.from(el.querySelectorAll("button")).map((b) => b.textContent);
}

describe("renderLibrary", () => {
  it("shows the empty state with its first step and a placeholder list", () => {
    const el = renderLibrary({ ...initialState(), phase: "ready" }, noop);
    expect(el.querySelector(".empty-title")?.textContent).toBe("Your library is empty");
    expect(buttons(el)).toContain("Open a folder of PDFs");
    expect(el.querySelectorAll(".paper-ghost")).toHaveLength(3);
  });

  it("lists papers with their metadata", () => {
    const el = renderLibrary(
      {
        ...initialState(),
        phase: "ready",
        papers: [
          paper(),
          paper({ id: "2", title: "  ", authors: [], year: 0, file: "/p/untitled.pdf", pages: 1, stale: true }),
          paper({ id: "3", title: "", file: "/p/locked.pdf", status: "failed", code: "encrypted", message: "This PDF is password-protected.", pages: 0 }),
        ],
      },
      noop,
    );
    const rows = el.querySelectorAll(".paper:not(.paper-ghost)");
    expect(rows).toHaveLength(3);
    expect(rows[0].querySelector(".paper-title")?.textContent).toBe("Attention Is All You Need");
    expect(rows[0].querySelector(".paper-meta")?.textContent).toBe("A. Vaswani et al. · 2017");
    expect(rows[0].querySelector(".paper-stats")?.textContent).toBe("15 pages");
    expect(rows[1].querySelector(".paper-title")?.textContent).toBe("untitled.pdf");
    expect(rows[1].querySelector(".paper-meta")?.textContent).toBe("Unknown authors");
    expect(rows[1].querySelector(".paper-stats")?.textContent).toBe("Outdated1 page");
    expect(rows[2].classList.contains("paper-failed")).toBe(true);
    expect(rows[2].querySelector(".paper-meta")?.textContent).toBe("This PDF is password-protected.");
    expect(rows[2].querySelector(".tag-warn")?.textContent).toBe("Not indexed");
    expect(el.querySelector(".papers-head")?.textContent).toContain("3 papers · 1 not indexed");
    expect(el.querySelector(".empty")).toBeNull();
  });

  it("offers to read a failed file again, and only a failed one", () => {
    const addBack = vi.fn();
    const papers = [paper(), paper({ id: "3", title: "", file: "/p/<b>scan</b>.pdf", status: "failed", code: "timeout", message: "Took too long.", pages: 0 })];
    const el = renderLibrary({ ...initialState(), phase: "ready", papers }, { ...noop, addBack });
    const rows = el.querySelectorAll(".paper:not(.paper-ghost)");
    expect(rows[0].querySelector("[data-testid=paper-retry]")).toBeNull();
    const retry = rows[1].querySelector("[data-testid=paper-retry]") as HTMLButtonElement;
    expect(retry.textContent).toBe("Try again");
    expect(el.querySelector("b")).toBeNull();
    retry.click();
    expect(addBack).toHaveBeenCalledWith("/p/<b>scan</b>.pdf");
    // Without the action (an API without addBack) there is no button.
    const bare = renderLibrary({ ...initialState(), phase: "ready", papers }, noop);
    expect(bare.querySelector("[data-testid=paper-retry]")).toBeNull();
  });

  it("marks papers whose text came from OCR", () => {
    const el = renderLibrary({ ...initialState(), phase: "ready", papers: [paper(), paper({ id: "2", ocrPages: 12 })] }, noop);
    const rows = el.querySelectorAll(".paper:not(.paper-ghost)");
    expect(rows[0].querySelector("[data-testid=paper-ocr]")).toBeNull();
    const tag = rows[1].querySelector("[data-testid=paper-ocr]");
    expect(tag?.textContent).toBe("OCR");
    expect(tag?.getAttribute("title")).toContain("12 pages read by OCR");
  });

  it("renders PDF-derived text as text, not HTML", () => {
    const el = renderLibrary({ ...initialState(), phase: "ready", papers: [paper({ title: XSS, authors: [XSS], file: XSS })] }, noop);
    expect(el.querySelector("img")).toBeNull();
    expect(el.querySelector(".paper-title")?.textContent).toBe(XSS);
    expect(el.querySelector(".paper-title")?.getAttribute("title")).toBe(XSS);
    expect(el.querySelector(".paper-meta")?.textContent).toBe(`${XSS} · 2017`);
  });

  it("shows indexing progress and a cancel button", () => {
    const progress: Progress = { stage: "index", done: 3, total: 12, file: "/p/bert.pdf", detail: "embedding" };
    const el = renderLibrary({ ...initialState(), phase: "ready", job: { folder: "/home/a/papers", progress, cancelling: false } }, noop);
    expect(el.querySelector(".job-title")?.textContent).toBe("Indexing papers");
    expect(el.querySelector(".job-label")?.textContent).toBe("Indexed 3 of 12 PDFs — bert.pdf (embedding)");
    expect((el.querySelector(".bar-fill") as HTMLElement).style.width).toBe("25%");
    expect(buttons(el)).toContain("Cancel");
    // The first step is disabled while a job runs.
    const open = Array.from(el.querySelectorAll("button")).find((b) => b.textContent === "Open a folder of PDFs");
    expect(open?.disabled).toBe(true);
  });

  it("tags a paper with its file's work, but not an indexed paper whose file is only queued", () => {
    const files = [
      { file: "/p/attention.pdf", status: "queued", message: "" },
      { file: "/p/bert.pdf", status: "embedding", message: "" },
      { file: "/p/new.pdf", status: "queued", message: "" },
    ];
    const progress: Progress = { stage: "index", done: 0, total: 3, file: "/p/bert.pdf", detail: "embedding", files };
    const papers = [paper(), paper({ id: "2", file: "/p/bert.pdf", title: "BERT" }), paper({ id: "3", file: "/p/new.pdf", title: "New", status: "failed", code: "parse", message: "broken" })];
    const el = renderLibrary({ ...initialState(), phase: "ready", papers, job: { folder: "/p", progress, cancelling: false } }, noop);
    const tag = (id: string) => el.querySelector(`[data-paper-id="${id}"] .tag-busy`)?.textContent ?? null;
    expect(tag("1")).toBeNull();
    expect(tag("2")).toBe("embedding");
    expect(tag("3")).toBe("queued");
  });

  it("shows a load error with a retry", () => {
    const retry = vi.fn();
    const el = renderLibrary({ ...initialState(), phase: "error", loadError: "The library could not be read." }, { ...noop, retry });
    expect(el.querySelector("[role=alert]")?.textContent).toContain("The library could not be read.");
    (Array.from(el.querySelectorAll("button")).find((b) => b.textContent === "Try again") as HTMLButtonElement).click();
    expect(retry).toHaveBeenCalledOnce();
  });
});

describe("summaryNotice", () => {
  it("reports success", () => {
    expect(summaryNotice({ indexed: 3, skipped: 0, failures: [], millis: 1500 })).toEqual({ tone: "ok", title: "Added 3 papers (1.5 s).", lines: [] });
  });

  it("lists failures by file name, capped", () => {
    const failures = Array.from({ length: 10 }, (_, i) => ({ path: `/p/f${i}.pdf`, code: "encrypted", message: "This PDF is password-protected." }));
    const n = summaryNotice({ indexed: 1, skipped: 2, failures, millis: 20_000 });
    expect(n.tone).toBe("warn");
    expect(n.title).toBe("Added 1 paper, 2 already in the library, 10 could not be read (20 s).");
    expect(n.lines).toHaveLength(9);
    expect(n.lines[0]).toBe("f0.pdf: This PDF is password-protected.");
    expect(n.lines[8]).toBe("…and 2 more files");
  });

  it("says which files repeat a paper and which papers moved", () => {
    const n = summaryNotice({
      indexed: 0,
      skipped: 1,
      failures: [],
      millis: 300,
      duplicates: [{ path: "/b/copy.pdf", of: "/a/paper.pdf" }],
      moved: [{ path: "/c/new.pdf", of: "/a/old.pdf" }],
    });
    expect(n.title).toBe("Added 0 papers, 1 already in the library, 1 copy of a paper already in it (0.3 s).");
    expect(n.lines).toEqual(["copy.pdf: the same PDF as /a/paper.pdf, not added twice", "new.pdf: moved from /a/old.pdf, kept with its corrections"]);
  });
});

const flush = () => new Promise((r) => setTimeout(r, 0));

function click(root: HTMLElement, label: string) {
  const b = Array.from(root.querySelectorAll("button")).find((x) => x.textContent === label);
  if (!b) throw new Error(`no button "${label}" in: ${buttons(root).join(", ")}`);
  b.click();
}

describe("createLibrary", () => {
  it("indexes a chosen folder, shows progress, then the papers, and unsubscribes", async () => {
    let finish!: (s: Summary) => void;
    let papers: Paper[] = [];
    const api = fakeApi({
      listPapers: async () => papers,
      indexFolder: () => new Promise<Summary>((r) => (finish = r)),
    });
    const root = document.createElement("div");
    const lib = createLibrary(root, api);
    await lib.refresh();
    expect(root.querySelector(".empty")).not.toBeNull();

    click(root, "Open a folder of PDFs");
    await flush();
    expect(root.querySelector(".job-title")?.textContent).toBe("Indexing papers");
    api.emit({ stage: "index", done: 1, total: 2, file: "/home/a/papers/x.pdf", detail: "ready" });
    expect(root.querySelector(".job-label")?.textContent).toBe("Indexed 1 of 2 PDFs — x.pdf (ready)");

    papers = [paper()];
    finish({ indexed: 1, skipped: 0, failures: [{ path: "/home/a/papers/locked.pdf", code: "encrypted", message: "This PDF is password-protected." }], millis: 800 });
    await flush();
    await flush();
    expect(root.querySelector(".job")).toBeNull();
    expect(root.querySelector(".notice-warn")?.textContent).toContain("locked.pdf: This PDF is password-protected.");
    expect(root.querySelectorAll(".paper:not(.paper-ghost)")).toHaveLength(1);
    // The page listens for progress all the time (the folder watcher starts jobs too).
    expect(api.listeners.size).toBe(1);
  });

  it("does nothing when the folder picker is cancelled", async () => {
    const indexFolder = vi.fn();
    const api = fakeApi({ chooseFolder: async () => "", indexFolder });
    const root = document.createElement("div");
    await createLibrary(root, api).refresh();
    click(root, "Open a folder of PDFs");
    await flush();
    expect(indexFolder).not.toHaveBeenCalled();
    expect(root.querySelector(".job")).toBeNull();
  });

  it("cancels a running job and says so", async () => {
    let reject!: (e: unknown) => void;
    const cancelIndex = vi.fn(async () => {
      reject(new ApiError("canceled", "Indexing was cancelled."));
      return true;
    });
    const api = fakeApi({ indexFolder: () => new Promise<Summary>((_r, rj) => (reject = rj)), cancelIndex });
    const root = document.createElement("div");
    await createLibrary(root, api).refresh();
    click(root, "Open a folder of PDFs");
    await flush();
    click(root, "Cancel");
    expect(buttons(root)).toContain("Cancelling…");
    await flush();
    await flush();
    expect(cancelIndex).toHaveBeenCalledOnce();
    expect(root.querySelector(".notice-warn")?.textContent).toContain("Indexing was cancelled.");
    expect(root.querySelector(".job")).toBeNull();
  });

  it("shows backend errors by their message", async () => {
    const api = fakeApi({ indexFolder: async () => Promise.reject(new ApiError("conflict", "Indexing is not available in this build yet.")) });
    const root = document.createElement("div");
    await createLibrary(root, api).refresh();
    click(root, "Open a folder of PDFs");
    await flush();
    await flush();
    expect(root.querySelector(".notice-error")?.textContent).toContain("Indexing is not available in this build yet.");
  });
});

describe("library search, sort and filters", () => {
  const many: Paper[] = [
    paper({ id: "1", title: "Attention Is All You Need", year: 2017, venue: "NeurIPS", addedAt: 1 }),
    paper({ id: "2", title: "Tree Retrieval", authors: ["Jörg Müller"], year: 2021, addedAt: 2, citationKey: "muller2021tree", collections: ["Reading"] }),
    paper({ id: "3", title: "Broken", status: "failed", message: "Password-protected.", addedAt: 3 }),
  ];
  const titles = (root: HTMLElement) => Array.from(root.querySelectorAll(".paper-title")).map((e) => e.textContent);

  it("filters as you type, keeps focus, sorts and filters by status and collection", async () => {
    const searchPapers = vi.fn(async () => ["1"]);
    const api = fakeApi({ listPapers: async () => many, searchPapers });
    const root = document.createElement("div");
    document.body.append(root);
    const lib = createLibrary(root, api);
    await lib.refresh();
    expect(titles(root)).toEqual(["Broken", "Tree Retrieval", "Attention Is All You Need"]);
    expect(root.textContent).toContain("NeurIPS");
    expect(root.querySelector(".tag-key")?.textContent).toBe("muller2021tree");

    const search = root.querySelector<HTMLInputElement>("[data-testid=library-search]")!;
    search.focus();
    search.value = "muller";
    search.dispatchEvent(new Event("input"));
    expect(titles(root)).toEqual(["Tree Retrieval"]);
    expect(document.activeElement?.getAttribute("data-testid")).toBe("library-search");
    expect(root.querySelector("[data-testid=paper-count]")?.textContent).toBe("1 of 3 papers · 1 not indexed");

    // A word only in a paper's text: the Go side's search finds it.
    const s2 = root.querySelector<HTMLInputElement>("[data-testid=library-search]")!;
    s2.value = "transformer";
    s2.dispatchEvent(new Event("input"));
    expect(root.querySelector("[data-testid=no-match]")).not.toBeNull();
    await new Promise((r) => setTimeout(r, 260));
    expect(searchPapers).toHaveBeenLastCalledWith("transformer");
    expect(titles(root)).toEqual(["Attention Is All You Need"]);

    const s3 = root.querySelector<HTMLInputElement>("[data-testid=library-search]")!;
    s3.value = "";
    s3.dispatchEvent(new Event("input"));
    root.querySelector<HTMLButtonElement>("[data-testid=sort-year]")!.click();
    expect(root.querySelector("[data-testid=sort-year]")?.getAttribute("aria-pressed")).toBe("true");
    expect(titles(root)).toEqual(["Tree Retrieval", "Attention Is All You Need", "Broken"]);
    const status = root.querySelector<HTMLSelectElement>("[data-testid=library-status]")!;
    status.value = "failed";
    status.dispatchEvent(new Event("change"));
    expect(titles(root)).toEqual(["Broken"]);
    status.value = "";
    status.dispatchEvent(new Event("change"));
    const coll = root.querySelector<HTMLSelectElement>("[data-testid=library-collection]")!;
    coll.value = "Reading";
    coll.dispatchEvent(new Event("change"));
    expect(titles(root)).toEqual(["Tree Retrieval"]);
    root.remove();
  });

  it("imports from Zotero and reports what was skipped", async () => {
    const importZotero = vi.fn(async () => ({
      source: "zotero", imported: 3, unchanged: 0, collections: ["Collection 1", "Collection 2"], millis: 1200,
      skipped: [{ item: "Optimal Multiple Stopping Rule", reason: "arXiv.org Snapshot: the file storage/AH5Z3RX7/2002.html is missing" }],
    }));
    const api = fakeApi({ chooseZoteroFolder: async () => "/home/r/Zotero", importZotero });
    const root = document.createElement("div");
    await createLibrary(root, api).refresh();
    click(root, "Import from Zotero");
    await flush();
    await flush();
    expect(importZotero).toHaveBeenCalledWith("/home/r/Zotero");
    const notice = root.querySelector(".notice-warn")?.textContent ?? "";
    expect(notice).toContain("Imported 3 papers from Zotero, 2 collections, 1 skipped");
    expect(notice).toContain("Optimal Multiple Stopping Rule: arXiv.org Snapshot: the file storage/AH5Z3RX7/2002.html is missing");
  });
});

describe("start items", () => {
  it("imports a Zotero data directory named on the command line without asking", async () => {
    const chooseZoteroFolder = vi.fn(async () => "");
    const importZotero = vi.fn(async () => ({ source: "zotero", imported: 3, unchanged: 0, skipped: [], collections: [], millis: 10 }));
    const api = fakeApi({ startFolders: async () => [{ path: "/home/r/Zotero", kind: "zotero" }], chooseZoteroFolder, importZotero });
    const root = document.createElement("div");
    createLibrary(root, api);
    for (let i = 0; i < 5; i++) await flush();
    expect(importZotero).toHaveBeenCalledWith("/home/r/Zotero");
    expect(chooseZoteroFolder).not.toHaveBeenCalled();
    expect(root.querySelector(".notice-ok")?.textContent).toContain("Imported 3 papers from Zotero");
  });

  it("says which argument could not be opened, and opens the valid ones", async () => {
    const importZotero = vi.fn(async () => ({ source: "zotero", imported: 1, unchanged: 0, skipped: [], collections: [], millis: 10 }));
    const api = fakeApi({
      startFolders: async () => [
        { path: "", kind: "error", error: "/no/such/folder: no such folder" },
        { path: "/home/r/Zotero", kind: "zotero" },
      ],
      chooseZoteroFolder: vi.fn(async () => ""),
      importZotero,
    });
    const root = document.createElement("div");
    createLibrary(root, api);
    for (let i = 0; i < 6; i++) await flush();
    expect(importZotero).toHaveBeenCalledWith("/home/r/Zotero");
    const notice = root.querySelector(".notice-error")?.textContent ?? "";
    expect(notice).toContain("Could not open /no/such/folder: no such folder");
    expect(notice).toContain("The other one was opened.");
  });
});
