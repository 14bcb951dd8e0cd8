// A scripted Api for view tests: the Go side is the process boundary the
// views talk to, so this is the one fake the frontend tests use.
import type { Answer, Api, PaperDetail, Progress } from "../lib/api";

export type FakeApi = Api & {
  emit(p: Progress): void;
  listeners: Set<(p: Progress) => void>;
  delta(text: string): void;
};

export function fakeApi(over: Partial<Api> = {}): FakeApi {
  const listeners = new Set<(p: Progress) => void>();
  const deltas = new Set<(t: string) => void>();
  const api: FakeApi = {
    info: async () => ({ name: "PaperTree", version: "test", libraryDir: "/lib", backend: true }),
    listPapers: async () => [],
    chooseFolder: async () => "/home/a/papers",
    indexFolder: async () => ({ indexed: 0, skipped: 0, failures: [], millis: 0 }),
    cancelIndex: async () => true,
    onIndexProgress(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    folders: async () => [],
    forgetFolder: async () => [],
    reindexAll: async () => ({ indexed: 0, skipped: 0, failures: [], millis: 0 }),
    onLibraryChanged: () => () => {},
    paper: async () => Promise.reject(new Error("no paper")),
    strategies: async () => ["pt-rag", "naive"],
    ask: async () => Promise.reject(new Error("no answer")),
    cancelAsk: async () => true,
    onAskDelta(fn) {
      deltas.add(fn);
      return () => deltas.delete(fn);
    },
    history: async () => [],
    answer: async () => Promise.reject(new Error("no answer")),
    deleteAnswer: async () => {},
    exportAnswer: async () => "",
    exportHistory: async () => "",
    getSettings: async () => Promise.reject(new Error("no settings")),
    saveSettings: async () => Promise.reject(new Error("no settings")),
    testConnection: async () => Promise.reject(new Error("no settings")),
    openPaperFile: async () => {},
    reopenLibrary: async () => {},
    compare: async () => Promise.reject(new Error("no table")),
    exportCompare: async () => "",
    emit: (p) => listeners.forEach((fn) => fn(p)),
    delta: (t) => deltas.forEach((fn) => fn(t)),
    listeners,
    ...over,
  };
  return api;
}

export const XSS = "<img src=x onerror=alert(1)>";
export const SCRIPT = "<script>window.__pwned = 1</script>";

/** A small paper whose text carries markup that must stay text. */
export function xssPaper(): PaperDetail {
  const seg = (id: string, text: string, page: number) => ({ id, kind: "segment", title: "", number: "", level: 3, text, pageStart: page, pageEnd: page, boxes: [], children: [] });
  return {
    id: "7",
    title: `${XSS} Title`,
    authors: [SCRIPT],
    abstract: `Abstract ${SCRIPT}`,
    year: 2020,
    pages: 9,
    file: "/p/x.pdf",
    warnings: [],
    root: {
      id: "100", kind: "root", title: `${XSS} Title`, number: "", level: 0, text: "", pageStart: 1, pageEnd: 9, boxes: [],
      children: [
        { id: "101", kind: "section", title: "1 Introduction", number: "1", level: 1, text: "", pageStart: 1, pageEnd: 2, boxes: [], children: [seg("102", "Intro text about trees.", 1)] },
        {
          id: "103", kind: "section", title: `2 Method ${XSS}`, number: "2", level: 1, text: "", pageStart: 2, pageEnd: 5, boxes: [],
          children: [
            { id: "104", kind: "section", title: "2.1 Encoder", number: "2.1", level: 2, text: "", pageStart: 3, pageEnd: 4, boxes: [], children: [seg("105", `The encoder has six layers. ${SCRIPT} It uses attention.`, 3)] },
          ],
        },
      ],
    },
  };
}

export function xssAnswer(): Answer {
  return {
    id: "42",
    question: "How many layers?",
    text: `The encoder has six layers [1]. ${XSS} Intro [2].`,
    mode: "extractive",
    strategy: "pt-rag",
    notFound: false,
    model: "",
    createdAt: "2026-11-22T10:00:00Z",
    paperIds: ["7"],
    evidence: [
      { paperId: "7", paperTitle: `${XSS} Title`, nodeId: "105", kind: "segment", path: [`${XSS} Title`, `2 Method ${XSS}`, "2.1 Encoder"], pathIds: ["100", "103", "104"], text: "The encoder has six layers.", pages: [3], boxes: [], score: 0.91, tokens: 12 },
      { paperId: "7", paperTitle: `${XSS} Title`, nodeId: "102", kind: "segment", path: [`${XSS} Title`, "1 Introduction"], pathIds: ["100", "101"], text: "Intro text about trees.", pages: [1], boxes: [], score: 0.5, tokens: 6 },
    ],
    diag: { sectionEntropy: 0.69, tokensUsed: 18, budget: 512, sections: 2, timings: { retrieve: 12, answer: 3 }, llmTokens: {}, fallbacks: [], droppedCitations: 0 },
  };
}
