import { describe, expect, it, vi } from "vitest";
import type { AskInput } from "../lib/api";
import { splitCitations, pathTo, filterTree, markPassage } from "../lib/tree";
import { fakeApi, xssAnswer, xssPaper, XSS, SCRIPT } from "../test/fakeapi";
import { createTreeView } from "./tree";
import { createWorkspace } from "./workspace";

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("tree helpers", () => {
  it("splits citation markers and keeps unknown numbers as text", () => {
    expect(splitCitations("A [1]. B [2, 3]. C [9].", 3)).toEqual([{ text: "A " }, { cite: 1 }, { text: ". B " }, { cite: 2 }, { cite: 3 }, { text: ". C [9]." }]);
  });
  it("finds the root-to-leaf path and filters with ancestors", () => {
    const p = xssPaper();
    expect(pathTo(p.root, "105")).toEqual(["100", "103", "104", "105"]);
    const f = filterTree(p.root, "six LAYERS")!;
    expect([...f.matches]).toEqual(["105"]);
    expect(f.visible).toEqual(new Set(["100", "103", "104", "105"]));
    expect(filterTree(p.root, "  ")).toBeNull();
  });
  it("marks the cited passage inside the leaf", () => {
    expect(markPassage("a b c", "b")).toEqual(["a ", "b", " c"]);
    expect(markPassage("a b c", "zzz")).toEqual(["", "a b c", ""]);
  });
});

describe("tree view", () => {
  it("expands and collapses with the keyboard and filters as you type", () => {
    const t = createTreeView();
    document.body.appendChild(t.el);
    t.show(xssPaper());
    const node = (id: string) => t.el.querySelector<HTMLElement>(`[data-node-id="${id}"]`);
    expect(node("103")?.getAttribute("aria-expanded")).toBe("false"); // sections start closed
    t.toggle("103");
    expect(node("104")?.getAttribute("aria-expanded")).toBe("false");
    expect(node("105")).toBeNull();
    const row = node("104")!.querySelector<HTMLElement>(".tn-row")!;
    row.focus();
    row.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(node("104")?.getAttribute("aria-expanded")).toBe("true");
    expect(node("105")?.textContent).toContain("six layers");
    expect(node("105")?.textContent).toContain("p. 3");
    (document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft", bubbles: true }));
    expect(node("104")?.getAttribute("aria-expanded")).toBe("false");
    (document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true }));
    expect((document.activeElement as HTMLElement).dataset.id).toBe("103");

    const filter = t.el.querySelector<HTMLInputElement>("[data-testid=tree-filter]")!;
    filter.value = "intro text";
    filter.dispatchEvent(new Event("input"));
    expect(Array.from(t.el.querySelectorAll("[data-testid=tree-node]")).map((e) => e.getAttribute("data-node-id"))).toEqual(["100", "101", "102"]);
    t.el.remove();
  });
});

describe("workspace", () => {
  it("shows PDF and answer text as text, runs nothing, and highlights the cited path from the root to the segment", async () => {
    const paper = vi.fn(async () => xssPaper());
    const api = fakeApi({ paper, history: async () => [{ id: "42", question: "How many layers?", text: "", mode: "extractive", notFound: false, evidence: 2, createdAt: "2026-11-22T10:00:00Z" }], answer: async () => xssAnswer() });
    const ws = createWorkspace(api, { onBack() {} });
    document.body.appendChild(ws.el);
    await ws.openPaper("7");
    await ws.showAnswer(xssAnswer());
    await flush();
    await flush();

    // Nothing from the paper or the answer became markup.
    expect(ws.el.querySelector("img, script")).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    expect(ws.el.querySelector("[data-testid=paper-title]")?.textContent).toBe(`${XSS} Title`);
    expect(ws.el.querySelector("[data-testid=answer-text]")?.textContent).toContain(XSS);
    expect(ws.el.textContent).toContain(SCRIPT);

    // The first citation is highlighted when the answer arrives.
    const chips = ws.el.querySelectorAll<HTMLElement>("[data-testid=citation]");
    expect(Array.from(chips).map((c) => [c.dataset.evidenceIndex, c.dataset.nodeId])).toEqual([["1", "105"], ["2", "102"]]);
    const onPath = () => Array.from(ws.el.querySelectorAll(".on-path[data-node-id]")).map((e) => e.getAttribute("data-node-id"));
    expect(onPath()).toEqual(["100", "103", "104", "105"]);
    const cur = ws.el.querySelector("[aria-current=true]");
    expect(cur?.getAttribute("data-node-id")).toBe("105");
    expect(cur?.querySelector("mark")?.textContent).toBe("The encoder has six layers.");
    expect(ws.el.querySelector("[data-node-id='104']")?.getAttribute("aria-expanded")).toBe("true");

    // Clicking the other chip moves the highlight.
    chips[1].click();
    await flush();
    expect(onPath()).toEqual(["100", "101", "102"]);
    expect(ws.el.querySelectorAll("[data-testid=evidence-row]")).toHaveLength(2);
    expect(ws.el.querySelector("[data-testid=diagnostics]")?.textContent).toContain("section entropy 0.69");
    expect(ws.el.querySelector("[data-testid=answer-mode]")?.textContent).toContain("Extractive");

    // History reopens the answer.
    expect(ws.el.querySelectorAll("[data-testid=history-row]")).toHaveLength(1);
    ws.el.remove();
  });

  it("keeps a library-wide scope when a cited paper opens, and scopes to a paper the researcher opens", async () => {
    const asked: string[][] = [];
    const api = fakeApi({
      paper: async () => xssPaper(),
      ask: async (r) => {
        asked.push([...r.paperIds]);
        return xssAnswer();
      },
    });
    const ws = createWorkspace(api, { onBack() {} });
    document.body.appendChild(ws.el);
    const scope = () => ws.el.querySelector<HTMLSelectElement>("[data-testid=ask-scope]")!;
    ws.openAsk([]);
    expect(scope().value).toBe("library");
    await ws.showAnswer(xssAnswer()); // opens the cited paper in the tree
    await flush();
    await flush();
    expect(ws.el.querySelector("[data-testid=paper-title]")?.textContent).toBe(`${XSS} Title`);
    expect(scope().value).toBe("library");
    ws.el.querySelector<HTMLButtonElement>("[data-testid=ask-submit]")!.click();
    await flush();
    expect(asked).toEqual([[]]);

    await ws.openPaper("7");
    expect(scope().value).toBe("paper");
    const label = scope().selectedOptions[0].textContent!;
    expect(label.startsWith("This paper: ")).toBe(true);
    expect(label).toContain(XSS.slice(0, 10));
    expect(scope().querySelector("img, script")).toBeNull();
    ws.el.remove();
  });

  it("says honestly when the papers do not answer", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    expect(ws.el.querySelector(".pv-empty")?.textContent).toContain("Ask a question");
    expect((ws.el.querySelector("[data-testid=path-crumbs]") as HTMLElement).hidden).toBe(true);
    await ws.showAnswer({ ...xssAnswer(), paperIds: [], text: "", notFound: true });
    expect(ws.el.querySelector("[data-testid=answer-not-found]")?.textContent).toContain("Not answered by these papers");
    expect(ws.el.querySelectorAll("[data-testid=citation]")).toHaveLength(0);
  });

  it("says which paper a library-wide question was read as naming, escaped", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    const a = xssAnswer();
    await ws.showAnswer({ ...a, paperIds: [], diag: { ...a.diag, named: { paperId: "7", title: `Glyphs ${XSS}`, alone: true } } });
    const about = ws.el.querySelector("[data-testid=answer-about]");
    expect(about?.textContent).toBe(`Read as a question about \u201cGlyphs ${XSS}\u201d (searched alone). Not this paper? Search every paper`);
    expect(ws.el.querySelector("img, script")).toBeNull();
    await ws.showAnswer({ ...a, paperIds: [] });
    expect(ws.el.querySelector("[data-testid=answer-about]")).toBeNull();
    ws.el.remove();
  });

  it("asks again of every paper when the researcher says the named paper is wrong", async () => {
    const asks: AskInput[] = [];
    const a = xssAnswer();
    const api = fakeApi({
      async ask(input: AskInput) {
        asks.push(input);
        return { ...a, question: input.question, paperIds: [], diag: { ...a.diag, unnamed: true } };
      },
    });
    const ws = createWorkspace(api, { onBack() {} });
    await ws.showAnswer({ ...a, question: "What does the Glyphs paper group?", paperIds: [], diag: { ...a.diag, named: { paperId: "7", title: "Glyphs", alone: true } } });
    (ws.el.querySelector("[data-testid=ask-unnamed]") as HTMLButtonElement).click();
    await vi.waitFor(() => expect(asks).toHaveLength(1));
    expect(asks[0]).toMatchObject({ question: "What does the Glyphs paper group?", paperIds: [], unnamed: true });
    await vi.waitFor(() =>
      expect(ws.el.querySelector("[data-testid=answer-about]")?.textContent).toBe("Searched every paper, as you asked: the question was not read as naming one."),
    );
    expect(ws.el.querySelector("[data-testid=ask-unnamed]")).toBeNull();
    ws.el.remove();
  });

  it("offers the papers a details question could mean, and asks it of the one clicked", async () => {
    const asks: AskInput[] = [];
    const a = xssAnswer();
    const api = fakeApi({
      async ask(input: AskInput) {
        asks.push(input);
        return { ...a, question: input.question, paperIds: input.paperIds, mode: "details", text: "“Glyphs” is by Ada Lovelace. (Read from the PDF.)" };
      },
    });
    const ws = createWorkspace(api, { onBack() {} });
    const askOf = [
      { paperId: "7", title: `Glyphs ${XSS}` },
      { paperId: "9", title: "Runes" },
    ];
    await ws.showAnswer({ ...a, question: "Who wrote the glyph paper?", paperIds: [], notFound: true, diag: { ...a.diag, askOf } });
    const buttons = [...ws.el.querySelectorAll("[data-testid=ask-of]")] as HTMLButtonElement[];
    expect(buttons.map((b) => b.textContent)).toEqual([`Glyphs ${XSS}`, "Runes"]);
    expect(ws.el.querySelector("img, script")).toBeNull();
    buttons[1].click();
    await vi.waitFor(() => expect(asks).toHaveLength(1));
    expect(asks[0]).toMatchObject({ question: "Who wrote the glyph paper?", paperIds: ["9"] });
    expect(asks[0].unnamed).toBeUndefined();
    await vi.waitFor(() => expect(ws.el.querySelector("[data-testid=answer-mode]")?.textContent).toContain("From the paper's details"));
    expect(ws.el.querySelector("[data-testid=ask-of]")).toBeNull();
    ws.el.remove();
  });

  it("labels an answer read from the paper's details, and escapes it", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    await ws.showAnswer({ ...xssAnswer(), mode: "details", text: `“${XSS}” (2019) is by Ada Lovelace. (Read from the PDF.)` });
    expect(ws.el.querySelector("[data-testid=answer-mode]")?.textContent).toContain("From the paper's details");
    expect(ws.el.querySelector("[data-testid=answer-text]")?.textContent).toContain("is by Ada Lovelace");
    // No retrieval score rated the passages it cites.
    expect(ws.el.querySelector("[title='Retrieval score']")).toBeNull();
    expect(ws.el.querySelector("img, script")).toBeNull();
    ws.el.remove();
  });

  it("streams LLM text while asking and shows the final answer", async () => {
    let finish!: (a: ReturnType<typeof xssAnswer>) => void;
    const api = fakeApi({ paper: async () => xssPaper(), ask: () => new Promise((r) => (finish = r)) });
    const ws = createWorkspace(api, { onBack() {} });
    await ws.openPaper("7");
    (ws.el.querySelector("[data-testid=ask-input]") as HTMLTextAreaElement).value = "How many layers?";
    (ws.el.querySelector("[data-testid=ask-submit]") as HTMLButtonElement).click();
    await flush();
    api.delta(`Six ${XSS}`);
    expect(ws.el.querySelector("[data-testid=answer-stream]")?.textContent).toBe(`Six ${XSS}`);
    expect(ws.el.querySelector("img")).toBeNull();
    finish({ ...xssAnswer(), mode: "llm", model: "qwen" });
    await flush();
    await flush();
    expect(ws.el.querySelector("[data-testid=answer-stream]")).toBeNull();
    expect(ws.el.querySelector("[data-testid=answer-mode]")?.textContent).toContain("qwen");
  });
});
