// The ask panel: question box with scope, strategy and token budget; the
// answer (streamed while an LLM writes it) with citation chips; the evidence
// panel (every root-to-leaf path with score and pages); quiet diagnostics;
// an honest "Not answered by these papers"; export; and the history of saved
// answers. Clicking a chip or an evidence row calls onCite, which highlights
// that path in the paper tree. Answer and evidence text come from PDFs and
// LLMs and are inserted as text only (lib/dom.ts).

import { ApiError, type Answer, type Api, type AskInput, type HistoryItem } from "../lib/api";
import { h, mount } from "../lib/dom";
import { markAt } from "../lib/shown";
import { renderTable } from "../lib/table";
import { clip } from "../lib/format";
import { markPassage, pageList, splitCitations, citedNumbers } from "../lib/tree";
import { selectionPanel } from "./selection";

/** "asked": the papers a reopened answer was asked of (its own scope). */
export type Scope = "paper" | "selected" | "library" | "asked";

export interface AskContext {
  /** The open paper, if any. */
  paperId: string | null;
  paperTitle: string;
  /** Papers ticked in the library list. */
  selected: string[];
}

export interface AskView {
  el: HTMLElement;
  /** focus: the researcher opened this paper, so it becomes the scope. */
  setContext(c: AskContext, focus?: boolean): void;
  showAnswer(a: Answer | null): void;
  refreshHistory(): Promise<void>;
  answer(): Answer | null;
  /** Selects the evidence row n (1-based) as the current one. */
  select(n: number): void;
}

/**
 * The answer's export choices: the report formats (app/export.go, backend/report),
 * then the papers the answer cites as BibTeX, for the researcher's reference manager.
 */
export const ANSWER_EXPORTS: { format: string; label: string; title: string }[] = [
  { format: "md", label: "MD", title: "Save the answer as a Markdown report" },
  { format: "html", label: "HTML", title: "Save the answer as an HTML report" },
  { format: "pdf", label: "PDF", title: "Save the answer as a PDF report" },
  { format: "docx", label: "DOCX", title: "Save the answer as a Word report" },
  { format: "bib", label: "BibTeX (.bib)", title: "Save the papers this answer cites as BibTeX (with your corrections)" },
];

function fmt(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : "–";
}

function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function createAskView(api: Api, opts: { onCite(a: Answer, n: number): void; onPage?(a: Answer, n: number): void; onError?(msg: string): void }): AskView {
  let ctx: AskContext = { paperId: null, paperTitle: "", selected: [] };
  let scope: Scope = "library";
  let current: Answer | null = null;
  let selectedN = 0;
  let running = false;
  let streamed = "";
  let error = "";
  let history: HistoryItem[] = [];
  let exportNote = "";
  let strategies: string[] = ["auto"];
  let strategyDesc: Record<string, string> = {};
  /** The papers a reopened answer was asked of, with their names (scope "asked"). */
  let asked: { ids: string[]; label: string } | null = null;
  /** Why pressing Ask did nothing (an empty question), shown under the box. */
  let formNote = "";
  /**
   * The settings' strategy, until the strategy list has it and it is chosen:
   * settings and the list load concurrently, in either order.
   */
  let settingsStrategy = "";

  const question = h("textarea", {
    class: "ask-input",
    rows: 3,
    placeholder: "Ask a question about your papers… (Ctrl+Enter to ask)",
    "aria-label": "Question",
    "data-testid": "ask-input",
    on: {
      keydown: (e) => {
        const k = e as KeyboardEvent;
        if (k.key === "Enter" && (k.ctrlKey || k.metaKey)) {
          k.preventDefault();
          void submit();
        }
      },
      focus: () => recordForm(),
      blur: () => recordForm(),
      input: () => {
        if (formNote && question.value.trim()) {
          formNote = "";
          renderFormNote();
        }
      },
    },
  });
  const noteBox = h("p", { class: "ask-form-note", role: "status", "data-testid": "ask-form-note" });
  const scopeSel = h("select", { class: "ask-scope", "aria-label": "Scope", "data-testid": "ask-scope", on: {
      change: () => {
        scope = scopeSel.value as Scope;
        recordForm();
      },
    },
  });
  const stratSel = h("select", {
    class: "ask-strategy",
    "aria-label": "Strategy",
    "data-testid": "ask-strategy",
    on: {
      change: () => {
        settingsStrategy = ""; // the researcher's choice wins over the settings' one
        stratSel.title = strategyDesc[stratSel.value] ?? "";
        recordForm();
      },
    },
  });
  const budget = h("input", { type: "number", class: "ask-budget", min: 64, max: 16384, step: 64, value: 512, "aria-label": "Token budget", "data-testid": "ask-budget" });
  const submitBtn = h("button", { type: "button", class: "btn btn-primary ask-go", "data-testid": "ask-submit", title: "Ask (Ctrl+Enter)", on: { click: () => void submit() } }, "Ask");
  const cancelBtn = h("button", { type: "button", class: "btn btn-quiet", "data-testid": "ask-cancel", on: { click: () => void api.cancelAsk().catch(() => {}) } }, "Cancel");
  const answerBox = h("div", { class: "answer-area", "aria-live": "polite" });
  const historyBox = h("div", { class: "history" });

  const form = h(
    "div",
    { class: "ask-form" },
    question,
    noteBox,
    h(
      "div",
      { class: "ask-controls" },
      h("label", { class: "ctl" }, h("span", null, "Scope"), scopeSel),
      h("label", { class: "ctl" }, h("span", null, "Strategy"), stratSel),
      h("label", { class: "ctl" }, h("span", null, "Budget"), budget),
      h("span", { class: "spacer" }),
      h("span", { class: "ask-keyhint muted", "data-testid": "ask-keyhint" }, h("kbd", null, "Ctrl"), "+", h("kbd", null, "Enter")),
      submitBtn,
    ),
  );
  const el = h("section", { class: "ask-view", "aria-label": "Ask" }, form, answerBox, historyBox);

  void api
    .strategies()
    .then((s) => {
      if (s.length) strategies = s;
      renderStrategies();
    })
    .catch(() => renderStrategies());
  void api
    .getSettings()
    .then((v) => {
      budget.value = String(v.settings.retrieval.budget || 512);
      strategyDesc = Object.fromEntries(
        Object.entries(v.descriptions ?? {})
          .filter(([k]) => k.startsWith("strategy."))
          .map(([k, d]) => [k.slice("strategy.".length), d]),
      );
      settingsStrategy = v.settings.retrieval.strategy;
      renderStrategies();
    })
    .catch(() => {});

  const strategyLabel: Record<string, string> = {
    auto: "auto (picks the route: one paper, a list of papers, a comparison)",
    "pt-rag": "pt-rag (follows the paper's structure)",
  };

  function renderStrategies() {
    let keep = stratSel.value;
    if (settingsStrategy && strategies.includes(settingsStrategy)) {
      keep = settingsStrategy;
      settingsStrategy = "";
    }
    mount(
      stratSel,
      strategies.map((s) =>
        h("option", { value: s, title: strategyDesc[s] ?? null }, strategyLabel[s] ?? s),
      ),
    );
    stratSel.value = strategies.includes(keep) ? keep : strategies[0];
    stratSel.title = strategyDesc[stratSel.value] ?? "";
    recordForm();
  }

  function renderScope() {
    const options: [Scope, string][] = [];
    if (ctx.paperId) options.push(["paper", `This paper: ${clip(ctx.paperTitle || "untitled", 48)}`]);
    if (ctx.selected.length) options.push(["selected", `Selected papers (${ctx.selected.length})`]);
    if (asked) options.push(["asked", asked.label]);
    options.push(["library", "Whole library"]);
    if (!options.some(([v]) => v === scope)) scope = options[0][0];
    mount(scopeSel, options.map(([v, label]) => h("option", { value: v }, label)));
    scopeSel.value = scope;
    recordForm();
  }

  /**
   * The app log's record of the form (lib/shown.ts): its scope and strategy,
   * whether the question box has the focus (a test types once it has), and
   * where the box and Ask sit.
   */
  function recordForm() {
    const focus = document.activeElement === question ? "; question has focus" : "";
    markAt(form, `ask form: scope: ${scopeSel.options[scopeSel.selectedIndex]?.text ?? ""}; strategy: ${stratSel.value}${focus}`, [
      ["question", () => question],
      ["ask button", () => submitBtn],
    ]);
  }

  function renderFormNote() {
    mount(noteBox, formNote);
    noteBox.hidden = !formNote;
  }

  async function submit() {
    const q = question.value.trim();
    if (!q || running) {
      formNote = running ? "A question is being answered: wait for it, or cancel it." : "Type a question first: the box is empty, so nothing was asked.";
      renderFormNote();
      if (!q) question.focus();
      return;
    }
    formNote = "";
    renderFormNote();
    const paperIds =
      scope === "paper" && ctx.paperId ? [ctx.paperId] : scope === "selected" ? [...ctx.selected] : scope === "asked" && asked ? [...asked.ids] : [];
    if (scope !== "asked" && asked) {
      // Asked with another scope: the reopened answer's papers leave the menu.
      asked = null;
      renderScope();
    }
    await askWith({ question: q, paperIds, strategy: stratSel.value, budget: Number(budget.value) || 0 });
  }

  /**
   * Asks an answer's question again with another reading: across the whole
   * library without reading it as naming a paper (the researcher said
   * "Read as a question about X" was the wrong paper), or of one paper the
   * reply offered when it could not tell which paper the question meant.
   */
  async function askAgain(input: AskInput) {
    if (running) {
      formNote = "A question is being answered: wait for it, or cancel it.";
      renderFormNote();
      return;
    }
    formNote = "";
    renderFormNote();
    await askWith(input);
  }
  const askUnnamed = (a: Answer) =>
    askAgain({ question: a.question, paperIds: [], strategy: a.strategy || stratSel.value, budget: Number(budget.value) || 0, unnamed: true });
  const askOf = (a: Answer, paperId: string) =>
    askAgain({ question: a.question, paperIds: [paperId], strategy: a.strategy || stratSel.value, budget: Number(budget.value) || 0 });

  async function askWith(input: AskInput) {
    running = true;
    streamed = "";
    error = "";
    exportNote = "";
    render();
    const off = api.onAskDelta((t) => {
      streamed = t;
      render();
    });
    try {
      const a = await api.ask(input);
      running = false;
      off();
      view.showAnswer(a);
      void view.refreshHistory();
    } catch (e) {
      off();
      running = false;
      error = e instanceof ApiError ? e.message : String(e);
      render();
    }
  }

  function chip(a: Answer, n: number) {
    const ev = a.evidence[n - 1];
    return h(
      "button",
      {
        type: "button",
        class: n === selectedN ? "cite cite-on" : "cite",
        "data-testid": "citation",
        "data-evidence-index": n,
        "data-node-id": ev.nodeId,
        title: [...ev.path, pageList(ev.pages)].filter(Boolean).join(" › "),
        on: { click: () => view.select(n) },
      },
      String(n),
    );
  }

  function answerBlock(a: Answer) {
    const label =
      a.mode === "llm"
        ? `Written by ${a.model || "the language model"} from the evidence below`
        : a.mode === "details"
          ? "From the paper's details (title, authors, year, venue, DOI), not from its text"
          : "Extractive answer: sentences quoted from the papers";
    const parts = splitCitations(a.text, a.evidence.length);
    const art = h(
      "article",
      { class: a.notFound ? "answer answer-notfound" : "answer", "data-testid": "answer" },
      h("p", { class: "answer-q" }, a.question),
      a.notFound
        ? h(
            "div",
            { class: "notfound", "data-testid": "answer-not-found" },
            h("p", { class: "notfound-title" }, a.paperIds?.length === 1 ? "Not in this paper" : "Not in these papers"),
            h(
              "p",
              { class: "muted" },
              `Not answered by ${a.paperIds?.length === 1 ? "this paper" : "these papers"}: the closest passages are listed below, each marked \u201cclosest, but not an answer\u201d.`,
            ),
          )
        : null,
      a.diag?.named
        ? h(
            "p",
            { class: "answer-about muted", "data-testid": "answer-about" },
            `Read as a question about \u201c${a.diag.named.title}\u201d (${a.diag.named.alone ? "searched alone" : "ranked first among the papers searched"}). `,
            h(
              "button",
              {
                type: "button",
                class: "btn btn-quiet btn-small",
                "data-testid": "ask-unnamed",
                title: "Ask the same question of every paper, without reading it as naming this one",
                on: { click: () => void askUnnamed(a) },
              },
              "Not this paper? Search every paper",
            ),
          )
        : a.diag?.unnamed
          ? h(
              "p",
              { class: "answer-about muted", "data-testid": "answer-about" },
              "Searched every paper, as you asked: the question was not read as naming one.",
            )
          : null,
      verdictBadge(a),
      h("p", { class: `answer-mode mode-${a.mode}`, "data-testid": "answer-mode" }, label),
      removedNote(a),
      a.papers?.length
        ? paperList(a)
        : h("div", { class: "answer-text", "data-testid": "answer-text" }, parts.map((p) => ("cite" in p ? chip(a, p.cite) : p.text))),
      a.diag?.askOf?.length
        ? h(
            "p",
            { class: "answer-askof muted", "data-testid": "answer-ask-of" },
            "Ask it of: ",
            a.diag.askOf.map((p) =>
              h(
                "button",
                {
                  type: "button",
                  class: "btn btn-quiet btn-small",
                  "data-testid": "ask-of",
                  title: "Ask the same question of this paper alone",
                  on: { click: () => void askOf(a, p.paperId) },
                },
                p.title,
              ),
            ),
          )
        : null,
      evidenceList(a),
      selectionPanel(a),
      diagLine(a),
      h(
        "div",
        { class: "answer-actions" },
        h("span", { class: "muted" }, "Export"),
        ANSWER_EXPORTS.map(({ format, label, title }) =>
          h(
            "button",
            { type: "button", class: "btn btn-quiet btn-small", title, "data-testid": `export-${format}`, on: { click: () => void doExport(() => api.exportAnswer(a.id, format)) } },
            label,
          ),
        ),
        exportNote ? h("span", { class: "muted", "data-testid": "export-note" }, exportNote) : null,
      ),
    );
    record(a, art);
    return art;
  }

  /**
   * The app log's record of the answer shown (lib/shown.ts): its question,
   * the scope, strategy and budget the form shows with it (a reopened
   * answer's own), each passage's path and pages, and where the first page
   * chip of a passage on several pages and the Markdown and BibTeX exports sit.
   */
  function record(a: Answer, art: HTMLElement) {
    const pagesOf = (e: Answer["evidence"][number]) => [...new Set([...(e.pages ?? []), ...(e.boxes ?? []).map((b) => b.page)])];
    const multi = a.evidence.findIndex((e) => pagesOf(e).length > 1);
    const paths = a.evidence.map((e) => `${e.path.join(" › ") || e.paperTitle}${e.pages?.length ? ` (${pageList(e.pages)})` : ""}`);
    const what = [
      `answer: ${a.question}`,
      a.mode === "details" ? `details: ${a.text}` : "",
      a.diag?.named ? `named: ${a.diag.named.title}${a.diag.named.alone ? " (alone)" : ""}` : "",
      a.diag?.unnamed ? "unnamed: every paper searched" : "",
      a.diag?.askOf?.length ? `ask of: ${a.diag.askOf.length} papers` : "",
      `${a.evidence.length} evidence`,
      `scope: ${scopeSel.options[scopeSel.selectedIndex]?.text ?? ""}`,
      `strategy: ${stratSel.value}`,
      `budget: ${budget.value}`,
      `paths: ${paths.join(" | ")}`,
      exportNote ? `export: ${exportNote}` : "",
    ].filter(Boolean);
    markAt(art, what.join("; "), [
      ["two-page chip", () => (multi >= 0 ? art.querySelector<HTMLElement>(`[data-evidence-index="${multi + 1}"] [data-testid=evidence-page]`) : null)],
      ["export md", () => art.querySelector<HTMLElement>("[data-testid=export-md]")],
      ["export bib", () => art.querySelector<HTMLElement>("[data-testid=export-bib]")],
      ["search every paper", () => art.querySelector<HTMLElement>("[data-testid=ask-unnamed]")],
      ["first ask of", () => art.querySelector<HTMLElement>("[data-testid=ask-of]")],
    ]);
  }

  /**
   * A which-papers answer: one paper a line with the sentence of its own text that states it; its number
   * opens the passage with its highlighted path, like any citation.
   */
  function paperList(a: Answer) {
    const papers = a.papers ?? [];
    return h(
      "div",
      { class: "answer-text paper-list", "data-testid": "answer-text" },
      h("p", {}, papers.length === 1 ? "1 paper of the library states it:" : `${papers.length} papers of the library state it:`),
      h(
        "ol",
        { "data-testid": "paper-list", "data-shown": `which-papers list: ${papers.length} papers` },
        papers.map((f) =>
          h(
            "li",
            { "data-testid": "paper-finding", "data-paper-id": f.paperId },
            h("strong", {}, f.title || `paper ${f.paperId}`),
            " ",
            f.cite >= 1 && f.cite <= a.evidence.length ? chip(a, f.cite) : null,
            h("div", { class: "finding-sentence" }, `\u201c${f.sentence}\u201d`),
            h("div", { class: "muted finding-path" }, [...f.path.slice(1), pageList(f.pages)].filter(Boolean).join(" \u203a ")),
          ),
        ),
      ),
    );
  }

  /** A passage's text with the sentence the answer quotes from it marked, so the answer is read inside its paragraph. */
  function evText(a: Answer, n: number, text: string) {
    if (a.evidence[n - 1]?.role === "table") return h("div", { class: "ev-text ev-table" }, renderTable(text, a.text));
    const quote = quotedFrom(a, n, text);
    if (!quote) return h("p", { class: "ev-text" }, text);
    const [before, marked, after] = markPassage(text, quote);
    return h("p", { class: "ev-text" }, before, h("mark", { class: "quoted", "data-testid": "evidence-quote" }, marked), after);
  }

  /** The longest tail of the answer text before a citation of n that occurs verbatim in the passage. */
  function quotedFrom(a: Answer, n: number, text: string): string {
    const parts = splitCitations(a.text, a.evidence.length);
    for (let k = 1; k < parts.length; k++) {
      const p = parts[k];
      const prev = parts[k - 1];
      if (!("cite" in p) || p.cite !== n || "cite" in prev) continue;
      let words = prev.text.trim().split(/\s+/);
      while (words.length > 3) {
        const cand = words.join(" ");
        if (text.includes(cand)) return cand;
        words = words.slice(1);
      }
    }
    return "";
  }

  /** The yes/no verdict, stated only when the evidence decides it. */
  function verdictBadge(a: Answer) {
    if (a.notFound || !a.verdict) return null;
    const text = a.verdict === "yes" ? "Yes" : a.verdict === "no" ? "No" : "Unclear from the evidence";
    return h(
      "p",
      { class: `verdict verdict-${a.verdict}`, "data-testid": "answer-verdict", "data-verdict": a.verdict },
      h("span", { class: "tag" }, "Verdict"),
      " ",
      text,
    );
  }

  async function doExport(fn: () => Promise<string>) {
    try {
      const path = await fn();
      exportNote = path ? `Saved to ${path}` : "";
    } catch (e) {
      exportNote = e instanceof ApiError ? e.message : String(e);
    }
    render();
  }

  function evidenceList(a: Answer) {
    if (a.evidence.length === 0) return h("p", { class: "muted" }, "No passages were found for this question.");
    const cited = new Set(citedNumbers(a));
    return h(
      "div",
      { class: "evidence" },
      h("h4", null, a.notFound ? `Closest passages (${a.evidence.length})` : `Evidence (${a.evidence.length})`),
      h(
        "ol",
        { class: "evidence-list" },
        a.evidence.map((e, i) =>
          h(
            "li",
            {
              class: `evidence-row${i + 1 === selectedN ? " ev-on" : ""}${cited.has(i + 1) ? "" : " ev-uncited"}`,
              "data-testid": "evidence-row",
              "data-evidence-index": i + 1,
              "data-node-id": e.nodeId,
              tabindex: 0,
              on: {
                click: () => view.select(i + 1),
                keydown: (k) => {
                  // Only the row's own Enter: one on its page chip opens the page.
                  if ((k as KeyboardEvent).key === "Enter" && k.target === k.currentTarget) view.select(i + 1);
                },
              },
            },
            h("span", { class: "ev-n" }, String(i + 1)),
            h(
              "div",
              { class: "ev-main" },
              h("p", { class: "ev-path" }, e.path.length ? e.path.join(" › ") : e.paperTitle),
              a.notFound ? h("span", { class: "tag tag-closest", "data-testid": "evidence-closest" }, "closest, but not an answer") : null,
              evText(a, i + 1, e.text),
            ),
            h(
              "span",
              { class: "ev-meta" },
              opts.onPage && (e.pages?.length || e.boxes?.length)
                ? h(
                    "button",
                    {
                      type: "button",
                      class: "ev-page",
                      title: "Show the page with the passage highlighted",
                      "data-testid": "evidence-page",
                      on: {
                        click: (ev) => {
                          ev.stopPropagation();
                          opts.onPage?.(a, i + 1);
                        },
                        keydown: (ev) => {
                          const k = (ev as KeyboardEvent).key;
                          if (k !== "Enter" && k !== " ") return;
                          // Opened here, not by the click the key would make:
                          // the row must not take the key as its own.
                          ev.preventDefault();
                          ev.stopPropagation();
                          opts.onPage?.(a, i + 1);
                        },
                      },
                    },
                    pageList(e.pages) || "Page",
                  )
                : h("span", null, pageList(e.pages)),
              // An answer from the paper's details or its abstract cites
              // those passages as they are: no retrieval score rated them.
              a.mode === "details" || e.score === 0 ? null : h("span", { title: "Retrieval score" }, fmt(e.score)),
            ),
          ),
        ),
      ),
    );
  }

  function diagLine(a: Answer) {
    const d = a.diag;
    const ms = Object.values(d.timings ?? {}).reduce((x, y) => x + y, 0);
    const llmTok = Object.values(d.llmTokens ?? {}).reduce((x, y) => x + y, 0);
    const parts = [
      d.route
        ? `strategy ${a.strategy} (${d.route}${d.routeBy ? ` by ${d.routeBy}` : ""}: ${d.routeWhy ?? ""})`
        : `strategy ${a.strategy}`,
      `section entropy ${fmt(d.sectionEntropy)}`,
      `${d.tokensUsed}/${d.budget} tokens`,
      `${d.sections} sections`,
      `${Math.round(ms)} ms`,
      `LLM tokens ${llmTok}`,
    ];
    if (d.fallbacks?.length) parts.push(`fallbacks: ${d.fallbacks.join("; ")}`);
    return h("p", { class: "diag", "data-testid": "diagnostics" }, parts.join(" · "));
  }

  function render() {
    submitBtn.disabled = running;
    const parts: (HTMLElement | null)[] = [];
    if (running) {
      parts.push(
        h(
          "div",
          { class: "answer answer-running", "data-testid": "answer-running" },
          h("div", { class: "running-head" }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", null, streamed ? "Writing the answer…" : "Finding evidence…"), h("span", { class: "spacer" }), cancelBtn),
          streamed ? h("div", { class: "answer-text answer-stream", "data-testid": "answer-stream" }, streamed) : null,
        ),
      );
    } else if (error) {
      parts.push(h("div", { class: "notice notice-error", role: "alert" }, h("div", { class: "notice-body" }, h("p", { class: "notice-title" }, error))));
    }
    if (!running && current) parts.push(answerBlock(current));
    if (!running && !current && !error) parts.push(h("p", { class: "ask-hint muted" }, "Answers cite the passages they come from; click a number to see its place in the paper."));
    mount(answerBox, parts);
    renderHistory();
  }

  function renderHistory() {
    mount(
      historyBox,
      h(
        "div",
        { class: "history-head" },
        h("h4", null, "History"),
        h("span", { class: "spacer" }),
        history.length
          ? h("button", { type: "button", class: "btn btn-quiet btn-small", "data-testid": "export-history", on: { click: () => void doExport(() => api.exportHistory("html")) } }, "Export all (HTML)")
          : null,
        history.length
          ? h(
              "button",
              { type: "button", class: "btn btn-quiet btn-small", title: "Save the papers these answers cite as BibTeX", "data-testid": "export-history-bib", on: { click: () => void doExport(() => api.exportHistory("bib")) } },
              "Cited papers (BibTeX)",
            )
          : null,
      ),
      history.length === 0
        ? h("p", { class: "muted" }, "Questions you ask are kept here.")
        : historyList(),
    );
  }

  /** The saved answers; the app log records how many, the newest and where it sits (lib/shown.ts). */
  function historyList() {
    const ul = h(
      "ul",
      { class: "history-list" },
      history.map((it) =>
        h(
          "li",
          { class: current?.id === it.id ? "history-row hr-on" : "history-row", "data-testid": "history-row", "data-answer-id": it.id },
          h(
            "button",
            { type: "button", class: "hr-open", on: { click: () => void reopen(it.id) } },
            h("span", { class: "hr-q" }, it.question),
            h("span", { class: "hr-meta" }, [when(it.createdAt), it.notFound ? "not answered" : `${it.evidence} passages`, it.mode].filter(Boolean).join(" · ")),
          ),
          h("button", { type: "button", class: "btn btn-quiet btn-small hr-del", "aria-label": "Delete this answer", title: "Delete", on: { click: () => void remove(it.id) } }, "×"),
        ),
      ),
    );
    markAt(ul, `history: ${history.length} answers; first: ${history[0]?.question ?? ""}`, [["first open", () => ul.querySelector<HTMLElement>(".hr-open")]]);
    return ul;
  }

  /**
   * Sets the scope, strategy and budget a reopened answer was asked with, so
   * asking again asks the same thing. An answer without papers (asked of the
   * whole library, or saved before scopes were kept) opens with "Whole
   * library"; a strategy this build lacks leaves the current one.
   */
  function restoreAsked(a: Answer) {
    const ids = [...new Set(a.paperIds ?? [])];
    asked = null;
    if (ids.length === 0) scope = "library";
    else if (ids.length === 1 && ids[0] === ctx.paperId) scope = "paper";
    else if (ids.length === ctx.selected.length && ids.every((id) => ctx.selected.includes(id))) scope = "selected";
    else {
      const title = (id: string) => a.evidence.find((e) => e.paperId === id)?.paperTitle || `paper ${id}`;
      asked = { ids, label: ids.length === 1 ? `As asked: ${clip(title(ids[0]), 48)}` : `As asked: ${ids.length} papers` };
      scope = "asked";
    }
    renderScope();
    scopeSel.title = asked && scope === "asked" ? asked.ids.map((id) => a.evidence.find((e) => e.paperId === id)?.paperTitle || `paper ${id}`).join("; ") : "";
    settingsStrategy = ""; // the answer's strategy wins over the settings' one
    if (a.strategy && strategies.includes(a.strategy)) {
      stratSel.value = a.strategy;
      stratSel.title = strategyDesc[a.strategy] ?? "";
    }
    if (a.diag?.budget > 0) budget.value = String(a.diag.budget);
    recordForm();
  }

  async function reopen(id: string) {
    try {
      const a = await api.answer(id);
      restoreAsked(a);
      view.showAnswer(a);
    } catch (e) {
      error = e instanceof ApiError ? e.message : String(e);
      render();
    }
  }

  async function remove(id: string) {
    try {
      await api.deleteAnswer(id);
      if (current?.id === id) current = null;
      await view.refreshHistory();
      render();
    } catch (e) {
      opts.onError?.(e instanceof ApiError ? e.message : String(e));
    }
  }

  const view: AskView = {
    el,
    setContext(c, focus = false) {
      ctx = c;
      if (c.paperId && focus) scope = "paper";
      renderScope();
    },
    showAnswer(a) {
      current = a;
      error = "";
      exportNote = "";
      formNote = "";
      renderFormNote();
      selectedN = 0;
      const pane = el.closest<HTMLElement>(".ws-ask");
      if (pane) pane.scrollTop = 0;
      if (a) {
        question.value = a.question;
        const first = citedNumbers(a)[0] ?? (a.evidence.length && !a.notFound ? 1 : 0);
        if (first) {
          view.select(first);
          return;
        }
      }
      render();
    },
    async refreshHistory() {
      try {
        history = await api.history(100);
      } catch {
        history = [];
      }
      renderHistory();
    },
    answer: () => current,
    select(n) {
      if (!current || n < 1 || n > current.evidence.length) return;
      selectedN = n;
      render();
      opts.onCite(current, n);
    },
  };
  renderScope();
  renderStrategies();
  renderFormNote();
  render();
  return view;
}

/** Says which cited papers were removed from the library since the answer was saved. */
export function removedNote(a: Answer) {
  const gone = a.removedPapers ?? [];
  if (gone.length === 0) return null;
  const which = gone.length === 1 ? `\u201c${gone[0]}\u201d was` : `${gone.length} cited papers were`;
  return h(
    "p",
    { class: "answer-removed", role: "note", "data-testid": "answer-removed", title: gone.join("\n") },
    `${which} removed from the library after this answer. Its passages are shown as saved; add the paper back to open it.`,
  );
}
