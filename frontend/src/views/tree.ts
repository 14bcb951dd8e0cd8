// The paper view: title, authors and abstract on top, then the PaperTree as
// an outline. Sections expand and collapse (click, Enter, arrows); leaves
// show their text with page numbers; typing in the filter shows only the
// headings and passages that contain the text (with their ancestors).
// highlight() marks a citation's root-to-leaf path: every node on it is
// expanded and gets class "on-path"; the leaf gets aria-current and its cited
// text a <mark>. All paper text is inserted as text (lib/dom.ts).

import type { PaperDetail, TreeNode } from "../lib/api";
import { h, mount } from "../lib/dom";
import { markAt, type MarkTarget } from "../lib/shown";
import { renderTable } from "../lib/table";
import { authorLine, paperName as listedName } from "../lib/format";
import { filterTree, heading, isLeaf, markPassage, pages, type Highlight } from "../lib/tree";
import type { TreeEditor } from "./corrections";

export interface TreeView {
  el: HTMLElement;
  show(p: PaperDetail | null): void;
  paper(): PaperDetail | null;
  highlight(hl: Highlight | null): void;
  /** Expands or collapses a node (tests and the keyboard use it). */
  toggle(id: string): void;
}

/** Badges for node roles; references and acknowledgements are never evidence unless a question asks about them. */
const ROLE_LABELS: Record<string, string> = {
  abstract: "Abstract",
  references: "References",
  appendix: "Appendix",
  acknowledgements: "Acknowledgements",
  front_matter: "Front matter",
  caption: "Caption",
  footnote: "Footnote",
  table: "Table",
  formula: "Formula",
  code: "Code",
};

export function createTreeView(opts: { onEmptyHint?: string; editor?: TreeEditor | null } = {}): TreeView {
  let paper: PaperDetail | null = null;
  let expanded = new Set<string>();
  let filter = "";
  let hl: Highlight | null = null;
  let focusId = "";

  const head = h("div", { class: "pv-head" });
  const filterInput = h("input", {
    type: "search",
    class: "pv-filter",
    placeholder: "Filter headings and text…",
    "aria-label": "Filter headings and text",
    "data-testid": "tree-filter",
    on: {
      input: () => {
        filter = filterInput.value;
        renderOutline();
      },
    },
  });
  const outline = h("ul", { class: "outline", role: "tree", "aria-label": "Paper outline", "data-testid": "tree", on: { keydown: (e) => onKey(e as KeyboardEvent) } });
  const body = h("div", { class: "pv-body" });
  // The highlighted path as a breadcrumb that stays visible while the tree
  // scrolls: the whole root-to-leaf path is always readable.
  const crumbs = h("nav", { class: "pv-crumbs", "aria-label": "Cited path", "data-testid": "path-crumbs" });
  const el = h("section", { class: "paper-view", "aria-label": "Paper" }, head, crumbs, body);

  function renderCrumbs(onPath: Set<string>) {
    if (!paper || onPath.size === 0 || !hl) {
      mount(crumbs);
      crumbs.hidden = true;
      return;
    }
    const byId = new Map<string, TreeNode>();
    const stack = [paper.root];
    while (stack.length) {
      const n = stack.pop()!;
      byId.set(n.id, n);
      stack.push(...(n.children ?? []));
    }
    const names = hl.pathIds
      .map((id) => byId.get(id))
      .filter((n): n is TreeNode => n !== undefined)
      .map((n) => (isLeaf(n) ? pages(n.pageStart, n.pageEnd) || "passage" : heading(n)));
    crumbs.hidden = false;
    mount(crumbs, names.map((t, i) => [i > 0 ? h("span", { class: "crumb-sep", "aria-hidden": "true" }, "›") : null, h("span", { class: "crumb" }, t)]));
  }

  function rowsInOrder(): HTMLElement[] {
    return Array.from(outline.querySelectorAll<HTMLElement>(".tn-row"));
  }

  function focusRow(id: string) {
    focusId = id;
    for (const r of rowsInOrder()) r.tabIndex = r.dataset.id === id ? 0 : -1;
    const row = rowsInOrder().find((r) => r.dataset.id === id);
    row?.focus();
  }

  function onKey(e: KeyboardEvent) {
    const rows = rowsInOrder();
    const cur = document.activeElement as HTMLElement | null;
    const i = rows.findIndex((r) => r === cur);
    if (i < 0) return;
    const id = rows[i].dataset.id ?? "";
    const li = rows[i].parentElement as HTMLElement;
    const isOpen = li.getAttribute("aria-expanded") === "true";
    const hasKids = li.hasAttribute("aria-expanded");
    switch (e.key) {
      case "ArrowDown":
        if (i + 1 < rows.length) focusRow(rows[i + 1].dataset.id ?? "");
        break;
      case "ArrowUp":
        if (i > 0) focusRow(rows[i - 1].dataset.id ?? "");
        break;
      case "ArrowRight":
        if (hasKids && !isOpen) toggle(id);
        else if (hasKids && i + 1 < rows.length) focusRow(rows[i + 1].dataset.id ?? "");
        break;
      case "ArrowLeft": {
        if (hasKids && isOpen) {
          toggle(id);
        } else {
          const parentLi = li.parentElement?.closest<HTMLElement>("li[data-node-id]");
          if (parentLi) focusRow(parentLi.dataset.nodeId ?? "");
        }
        break;
      }
      case "Enter":
      case " ":
        if (hasKids) toggle(id);
        break;
      case "Home":
        if (rows.length) focusRow(rows[0].dataset.id ?? "");
        break;
      case "End":
        if (rows.length) focusRow(rows[rows.length - 1].dataset.id ?? "");
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  function toggle(id: string) {
    if (expanded.has(id)) expanded.delete(id);
    else expanded.add(id);
    renderOutline();
    focusRow(id);
  }

  function renderHead() {
    if (!paper) {
      mount(head);
      return;
    }
    const meta = [authorLine(paper.authors), paper.year > 0 ? String(paper.year) : "", paper.pages > 0 ? `${paper.pages} pages` : ""].filter(Boolean).join(" · ");
    mount(
      head,
      h("h2", { class: "pv-title", "data-testid": "paper-title" }, paperName(paper)),
      h("p", { class: "pv-meta" }, meta),
      opts.editor?.head(paper) ?? null,
      paper.abstract.trim()
        ? h("details", { class: "pv-abstract" }, h("summary", null, "Abstract"), h("p", null, paper.abstract))
        : null,
      filterInput,
    );
  }

  function node(n: TreeNode, f: ReturnType<typeof filterTree>, onPath: Set<string>): HTMLElement | null {
    if (f && !f.visible.has(n.id)) return null;
    const leaf = isLeaf(n);
    const cls = ["tn", `tn-${n.kind}`];
    if (onPath.has(n.id)) cls.push("on-path");
    if (f?.matches.has(n.id)) cls.push("tn-match");
    const cited = hl !== null && hl.nodeId === n.id;
    const pg = pages(n.pageStart, n.pageEnd);
    if (leaf) {
      const [before, marked, after] = cited ? markPassage(n.text, hl!.text) : [n.text, "", ""];
      return h(
        "li",
        {
          class: cls.join(" "),
          role: "treeitem",
          "data-testid": "tree-node",
          "data-node-id": n.id,
          "data-kind": n.kind,
          "aria-current": cited ? "true" : null,
          "aria-level": n.level,
        },
        h(
          "div",
          { class: "tn-row tn-leaf-row", "data-id": n.id, tabindex: -1 },
          n.role === "table"
            ? h("div", { class: `tn-text tn-table${cited ? " cited" : ""}` }, roleBadge(n), renderTable(n.text, cited ? hl!.text : ""))
            : h(
                n.role === "formula" || n.role === "code" ? "pre" : "p",
                { class: n.role === "formula" || n.role === "code" ? "tn-text tn-math" : "tn-text" },
                n.kind === "caption" ? h("span", { class: "tag" }, "Caption") : null,
                roleBadge(n),
                before,
                marked ? h("mark", { class: "cited", "data-testid": "cited-text" }, marked) : null,
                after,
              ),
          pg ? h("span", { class: "tn-pages" }, pg) : null,
          opts.editor?.row(paper!, n) ?? null,
        ),
      );
    }
    const open = n.kind === "root" || expanded.has(n.id) || f !== null;
    const kids = open ? (n.children ?? []).map((c) => node(c, f, onPath)).filter((x): x is HTMLElement => x !== null) : [];
    if (n.kind === "root")
      return h("div", { class: `tn-root${onPath.has(n.id) ? " on-path" : ""}`, "data-testid": "tree-node", "data-node-id": n.id, "data-kind": "root", "aria-expanded": "true" }, kids.length ? kids : h("p", { class: "muted" }, f ? "Nothing matches the filter." : "This paper has no sections."));
    return h(
      "li",
      {
        class: cls.join(" "),
        role: "treeitem",
        "data-testid": "tree-node",
        "data-node-id": n.id,
        "data-kind": n.kind,
        "aria-expanded": String(open),
        "aria-level": n.level,
      },
      h(
        "div",
        { class: "tn-row", "data-id": n.id, tabindex: -1, on: { click: () => toggle(n.id) } },
        h("span", { class: "tn-chev", "aria-hidden": "true" }, open ? "▾" : "▸"),
        h("span", { class: "tn-title" }, heading(n)),
        n.edited ? h("span", { class: "tag tag-edited", "data-testid": "edited-mark", title: "You corrected this heading" }, "edited") : null,
        roleBadge(n),
        pg ? h("span", { class: "tn-pages" }, pg) : null,
        opts.editor?.row(paper!, n) ?? null,
      ),
      open && kids.length ? h("ul", { role: "group" }, kids) : null,
    );
  }

  /** The node's role from tree building (references, abstract, ...) as a small badge. */
  function roleBadge(n: TreeNode) {
    const label = n.role ? ROLE_LABELS[n.role] : undefined;
    return label ? h("span", { class: `tag tag-role role-${n.role}`, "data-testid": "node-role", "data-role": n.role }, label) : null;
  }

  function renderOutline() {
    if (!paper) {
      mount(body, h("div", { class: "pv-empty" }, h("p", null, opts.onEmptyHint ?? "Open a paper from the library to see its structure.")));
      return;
    }
    const f = filterTree(paper.root, filter);
    const onPath = new Set(hl && hl.paperId === paper.id ? hl.pathIds : []);
    const tree = node(paper.root, f, onPath);
    head.querySelector(".pv-title")?.classList.toggle("on-path", onPath.size > 0);
    renderCrumbs(onPath);
    mount(outline, tree);
    if (!body.contains(outline)) mount(body, outline);
    record(paper);
    const rows = rowsInOrder();
    const target = rows.find((r) => r.dataset.id === focusId) ?? rows[0];
    if (target) target.tabIndex = 0;
  }

  /**
   * The app log's record of the paper shown (lib/shown.ts): its title and
   * year, its top-level headings (corrected ones marked), the highlighted
   * path, and where "Edit details" and each heading's correct button sit.
   */
  function record(p: PaperDetail) {
    const top = (p.root.children ?? []).filter((c) => c.kind === "section");
    const path = hl && hl.paperId === p.id ? rowsOnPath() : [];
    const what = [
      `paper view: ${paperName(p)}${p.year > 0 ? ` (${p.year})` : ""}`,
      `headings: ${top.map((n) => heading(n) + (n.edited ? " [edited]" : "")).join(" | ")}`,
      path.length ? `path: ${path.join(" › ")}` : "",
    ].filter(Boolean);
    const row = (id: string) => Array.from(outline.querySelectorAll<HTMLElement>("li[data-node-id]")).find((e) => e.dataset.nodeId === id);
    const targets: MarkTarget[] = [["edit details", () => head.querySelector<HTMLElement>("[data-testid=edit-paper]")]];
    for (const n of top) targets.push([`correct ${heading(n)}`, () => row(n.id)?.querySelector<HTMLElement>(":scope > .tn-row [data-testid=heading-edit-open]")]);
    markAt(outline, what.join("; "), targets);
  }

  /** The headings of the highlighted path, as the outline shows them. */
  function rowsOnPath(): string[] {
    return Array.from(outline.querySelectorAll<HTMLElement>("li.on-path.tn-section > .tn-row .tn-title")).map((e) => e.textContent ?? "");
  }

  crumbs.hidden = true;
  renderOutline(); // the empty state until a paper is shown

  return {
    el,
    show(p) {
      paper = p;
      expanded = new Set();
      // Sections start closed: the outline reads like a contents page.
      filter = "";
      filterInput.value = "";
      hl = null;
      focusId = "";
      renderHead();
      renderOutline();
    },
    paper: () => paper,
    highlight(next) {
      hl = next;
      if (paper && next && next.paperId === paper.id) {
        for (const id of next.pathIds) expanded.add(id);
        filter = "";
        filterInput.value = "";
      }
      renderOutline();
      if (next) {
        const leaf = Array.from(outline.querySelectorAll<HTMLElement>("li[data-node-id]")).find((e) => e.dataset.nodeId === next.nodeId);
        // Scroll only the tree's own scroll container (scrollIntoView would
        // move every scrollable ancestor, including the ask panel's page).
        const sc = el.closest<HTMLElement>(".ws-tree");
        if (leaf && sc) {
          // Show the whole path when it fits: from its top-level section
          // down to the cited leaf; else the leaf, a little below the top.
          const c = sc.getBoundingClientRect();
          const r = leaf.getBoundingClientRect();
          const top = outline.querySelector<HTMLElement>("li.on-path")?.getBoundingClientRect().top ?? r.top;
          const fits = r.top - top + 90 <= c.height;
          sc.scrollTop += (fits ? top - 8 : r.top - Math.min(c.height / 4, 120)) - c.top;
        }
        focusId = next.nodeId;
      }
    },
    toggle,
  };
}

/** The paper's name as the library list shows it: its title, else (no
 * title read from the PDF) its file name, never a blank or "Untitled". */
export function paperName(p: PaperDetail): string {
  return listedName(p.title, p.file) || heading(p.root);
}
