// The workspace: the paper tree on the left, the ask panel on the right.
// A citation (chip or evidence row) opens the cited paper if another one is
// shown and highlights the root-to-leaf path of the cited passage.

import { ApiError, type Answer, type Api, type TreeNode } from "../lib/api";
import { h, mount } from "../lib/dom";
import { highlightOf } from "../lib/tree";
import { createAskView } from "./ask";
import { createCorrections } from "./corrections";
import { openPageView } from "./pdfview";
import { createTreeView } from "./tree";

export interface Workspace {
  el: HTMLElement;
  openPaper(id: string): Promise<void>;
  /** Opens a paper with the path to one of its nodes highlighted (a search result). */
  openPaperAt(id: string, nodeId: string): Promise<void>;
  /** Shows the ask panel for the whole library or the selected papers. */
  openAsk(selected: string[]): void;
  showAnswer(a: Answer): Promise<void>;
}

export function createWorkspace(api: Api, opts: { onBack(): void; onEdited?(): void }): Workspace {
  let selected: string[] = [];
  const note = h("p", { class: "ws-note", role: "status" });
  const editor = createCorrections(api, {
    reload: async (id) => {
      await load(id, false);
      opts.onEdited?.();
    },
    onError: (msg) => mount(note, msg),
  });
  const tree = createTreeView({ onEmptyHint: "Ask a question: the paper of each cited passage opens here, with its path highlighted.", editor });
  let loadSeq = 0;

  // load shows a paper in the tree. Only a paper the researcher opens
  // (focus) makes it the question's scope; one opened to show a cited
  // passage leaves the scope they chose (a library-wide follow-up must not
  // quietly become a question about the paper that happened to be cited).
  async function load(id: string, focus: boolean): Promise<boolean> {
    const seq = ++loadSeq;
    try {
      const p = await api.paper(id);
      if (seq !== loadSeq) return false;
      tree.show(p);
      mount(note);
      ask.setContext({ paperId: p.id, paperTitle: p.title, selected }, focus);
      return true;
    } catch (e) {
      mount(note, e instanceof ApiError ? e.message : String(e));
      return false;
    }
  }

  const ask = createAskView(api, {
    onCite: async (a, n) => {
      const ev = a.evidence[n - 1];
      if (!ev) return;
      if (tree.paper()?.id !== ev.paperId) {
        if (!(await load(ev.paperId, false))) return;
      }
      tree.highlight(highlightOf(ev));
    },
    onPage: (a, n) =>
      openPageView(document.body, {
        evidence: a.evidence,
        index: n - 1,
        openExternal: (id) => void api.openPaperFile(id).catch((e) => mount(note, e instanceof ApiError ? e.message : String(e))),
        // Keyboard reading: back on the page chip the view was opened from.
        onClose: () => ask.el.querySelector<HTMLElement>(`[data-evidence-index="${n}"] [data-testid="evidence-page"]`)?.focus(),
      }),
    onError: (msg) => mount(note, msg),
  });

  const back = h("button", { type: "button", class: "btn btn-quiet", "data-testid": "back-to-library", on: { click: () => opts.onBack() } }, "← Library");
  const el = h(
    "div",
    { class: "workspace" },
    h("div", { class: "ws-bar" }, back, note),
    h("div", { class: "ws-split" }, h("div", { class: "ws-tree" }, tree.el), h("div", { class: "ws-ask" }, ask.el)),
  );
  void ask.refreshHistory();

  return {
    el,
    async openPaper(id) {
      await load(id, true);
    },
    async openPaperAt(id, nodeId) {
      if (!(await load(id, true))) return;
      const root = tree.paper()?.root;
      const pathIds = root ? pathTo(root, nodeId) : [];
      if (pathIds.length > 0) tree.highlight({ paperId: id, pathIds, nodeId, text: "" });
    },
    openAsk(sel) {
      selected = sel;
      const p = tree.paper();
      ask.setContext({ paperId: null, paperTitle: p?.title ?? "", selected: sel });
    },
    async showAnswer(a) {
      ask.showAnswer(a);
    },
  };
}

/** The ids from root down to the node with id, or [] when it is not in the tree. */
export function pathTo(root: TreeNode, id: string): string[] {
  if (root.id === id) return [root.id];
  for (const c of root.children ?? []) {
    const p = pathTo(c, id);
    if (p.length > 0) return [root.id, ...p];
  }
  return [];
}
