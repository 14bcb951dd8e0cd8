import { describe, expect, it } from "vitest";
import type { Paper } from "./api";
import { collectionsOf, defaultQuery, folderOf, selectPapers, type ListQuery } from "./papers";

function paper(id: string, over: Partial<Paper> = {}): Paper {
  return { id, title: `Paper ${id}`, authors: [], year: 0, pages: 1, file: `/p/${id}.pdf`, status: "ready", code: "", message: "", stale: false, ...over };
}

const papers: Paper[] = [
  paper("1", { title: "Attention Is All You Need", authors: ["Ashish Vaswani"], year: 2017, venue: "NeurIPS", addedAt: 3, file: "/home/r/Papers/nlp/a.pdf", collections: ["Reading / NLP"] }),
  paper("2", { title: "Über Bäume", authors: ["Jörg Müller"], year: 2021, venue: "Proc. of ACL", addedAt: 1, file: "/home/r/Zotero/storage/X/b.pdf", citationKey: "muller2021baume" }),
  paper("3", { title: "", file: "/home/r/Papers/zeta.pdf", status: "failed", addedAt: 2 }),
  paper("4", { title: "Deep Trees", authors: ["Ann Smith"], year: 2019, venue: "Neural Computation", doi: "10.1162/neco.2019.31", arxivId: "1810.04805", stale: true, addedAt: 4, file: "/home/r/Papers/d.pdf", collections: ["Reading / NLP", "Trees"] }),
];

const q = (over: Partial<ListQuery>): ListQuery => ({ ...defaultQuery(), ...over });
const ids = (ps: Paper[]) => ps.map((p) => p.id);

describe("selectPapers", () => {
  it.each([
    ["newest added first by default", q({}), ["4", "1", "3", "2"]],
    ["title A-Z, file name when there is no title", q({ sort: "title" }), ["1", "4", "2", "3"]],
    ["year newest first, unknown last", q({ sort: "year" }), ["2", "4", "1", "3"]],
    ["search title words, any order, any case", q({ query: "all ATTENTION" }), ["1"]],
    ["search authors without accents", q({ query: "muller" }), ["2"]],
    ["search year", q({ query: "2019" }), ["4"]],
    ["search venue", q({ query: "neurips" }), ["1"]],
    ["search PDF-extracted venue", q({ query: "neural computation" }), ["4"]],
    ["search DOI", q({ query: "10.1162/neco" }), ["4"]],
    ["search arXiv id", q({ query: "1810.04805" }), ["4"]],
    ["search citation key", q({ query: "muller2021" }), ["2"]],
    ["every word must match", q({ query: "deep attention" }), []],
    ["filter by status", q({ status: "failed" }), ["3"]],
    ["filter outdated", q({ status: "stale" }), ["4"]],
    ["filter by collection", q({ collection: "Trees" }), ["4"]],
    ["filter by folder", q({ folder: "/home/r/Papers", sort: "title" }), ["1", "4", "3"]],
  ])("%s", (_n, query, want) => {
    expect(ids(selectPapers(papers, query, ["/home/r/Papers", "/home/r/Zotero"]))).toEqual(want);
  });

  it("counts the Go side's full-text hits as matches", () => {
    expect(ids(selectPapers(papers, q({ query: "backpropagation" }), [], new Set(["3"])))).toEqual(["3"]);
  });
});

describe("helpers", () => {
  it("finds the innermost folder and the collections", () => {
    expect(folderOf("/a/b/c.pdf", ["/a", "/a/b"])).toBe("/a/b");
    expect(folderOf("/ab/c.pdf", ["/a"])).toBe("");
    expect(collectionsOf(papers)).toEqual(["Reading / NLP", "Trees"]);
  });
});
