// The "why these papers" panel under the evidence of a library-wide answer
// from a multi-paper strategy (fable, structrag): every paper considered,
// whether it was chosen, by which path (the LLM reading the tables of
// contents, the title/ToC match, dense search) and its scores or the LLM's
// reason; for StructRAG also the structure the router chose and why, the
// sub-questions and the structure itself. Everything is inserted as text.

import type { Answer } from "../lib/api";
import { h } from "../lib/dom";

export function selectionPanel(a: Answer): HTMLElement | null {
  const s = a.diag?.selection;
  if (!s || !s.papers?.length) return null;
  const chosen = s.papers.filter((p) => p.chosen).length;
  const head: string[] = [`${chosen} of ${s.papers.length} papers chosen`];
  if (s.branch) head.push(s.branch === "docs" ? "whole papers fit the budget" : "sections by TreeExpansion");
  if (s.structure) head.push(`structure: ${s.structure} (${s.routedBy === "llm" ? "LLM router" : "rules"})`);
  return h(
    "details",
    { class: "selection", "data-testid": "selection" },
    h("summary", null, `Why these papers — ${head.join(" · ")}`),
    s.routeReason ? h("p", { class: "muted", "data-testid": "selection-route" }, `Router: ${s.routeReason}`) : null,
    h(
      "ul",
      { class: "selection-papers" },
      s.papers.map((p) =>
        h(
          "li",
          { class: p.chosen ? "sel-chosen" : "sel-skipped", "data-testid": "selection-paper", "data-paper-id": p.paperId },
          h("span", { class: "sel-mark", "aria-label": p.chosen ? "chosen" : "not chosen" }, p.chosen ? "✓" : "–"),
          h("span", { class: "sel-title" }, p.paperTitle || `Paper ${p.paperId}`),
          p.by ? h("span", { class: "pill" }, p.by) : null,
          h("span", { class: "muted sel-reason" }, p.reason),
        ),
      ),
    ),
    s.subQueries?.length > 1 ? h("p", { class: "muted" }, `Sub-questions: ${s.subQueries.join(" | ")}`) : null,
    s.rendered ? h("pre", { class: "sel-structure", "data-testid": "selection-structure" }, s.rendered) : null,
  );
}
