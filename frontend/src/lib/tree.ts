// Pure helpers over PaperTrees and answers: walking, filtering, the
// root-to-leaf path of a citation, and splitting answer text at its [n]
// citation markers. No DOM here (views use lib/dom.ts).

import type { Answer, Evidence, TreeNode } from "./api";

/** Visits every node in document (pre-) order. */
export function walk(n: TreeNode, fn: (n: TreeNode, parent: TreeNode | null) => void, parent: TreeNode | null = null): void {
  fn(n, parent);
  for (const c of n.children ?? []) walk(c, fn, n);
}

/** Parent of every node, by id. */
export function parents(root: TreeNode): Map<string, TreeNode | null> {
  const m = new Map<string, TreeNode | null>();
  walk(root, (n, p) => m.set(n.id, p));
  return m;
}

/** Ids from the root down to id (inclusive); [] when id is not in the tree. */
export function pathTo(root: TreeNode, id: string): string[] {
  const par = parents(root);
  if (!par.has(id)) return [];
  const out: string[] = [];
  let cur: string | undefined = id;
  while (cur !== undefined) {
    out.unshift(cur);
    const p: TreeNode | null | undefined = par.get(cur);
    cur = p ? p.id : undefined;
  }
  return out;
}

export const isLeaf = (n: TreeNode) => n.kind === "segment" || n.kind === "caption";

/** A heading as shown: its title, else its number, else a placeholder. */
export function heading(n: TreeNode): string {
  const t = n.title.trim();
  if (t) return t;
  if (n.number) return n.number;
  return n.kind === "root" ? "Untitled paper" : "Untitled section";
}

/** "p. 3" or "pp. 3–5"; "" when unknown. */
export function pages(start: number, end: number): string {
  if (!start) return "";
  if (!end || end === start) return `p. ${start}`;
  return `pp. ${start}–${end}`;
}

/** "p. 3" / "pp. 3, 5" for evidence pages. */
export function pageList(ps: number[]): string {
  const u = [...new Set(ps ?? [])].filter((p) => p > 0).sort((a, b) => a - b);
  if (u.length === 0) return "";
  return (u.length === 1 ? "p. " : "pp. ") + u.join(", ");
}

/**
 * The ids to show for a filter: every node whose title or text contains the
 * query (case-insensitive), with all its ancestors. null when the query is
 * empty (show everything).
 */
export function filterTree(root: TreeNode, query: string): { visible: Set<string>; matches: Set<string> } | null {
  const q = query.trim().toLowerCase();
  if (!q) return null;
  const visible = new Set<string>();
  const matches = new Set<string>();
  const par = parents(root);
  walk(root, (n) => {
    if (n.kind === "root") return;
    if (n.title.toLowerCase().includes(q) || (isLeaf(n) && n.text.toLowerCase().includes(q))) {
      matches.add(n.id);
      let cur: TreeNode | null | undefined = n;
      while (cur) {
        visible.add(cur.id);
        cur = par.get(cur.id);
      }
    }
  });
  visible.add(root.id);
  return { visible, matches };
}

/** A piece of answer text: plain text, or a citation of evidence n (1-based). */
export type AnswerPart = { text: string } | { cite: number };

/**
 * Splits answer text at its citation markers ("[1]", "[2, 3]"). Numbers
 * that name no evidence item stay plain text, as the report does.
 */
export function splitCitations(text: string, evidenceCount: number): AnswerPart[] {
  const out: AnswerPart[] = [];
  const re = /\[(\d+(?:\s*,\s*\d+)*)\]/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const nums = m[1].split(",").map((s) => Number(s.trim()));
    if (!nums.every((n) => n >= 1 && n <= evidenceCount)) continue;
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    for (const n of nums) out.push({ cite: n });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** The evidence numbers an answer cites, in order of first citation. */
export function citedNumbers(a: Answer): number[] {
  const seen: number[] = [];
  for (const p of splitCitations(a.text, a.evidence.length)) {
    if ("cite" in p && !seen.includes(p.cite)) seen.push(p.cite);
  }
  return seen;
}

/** What the tree highlights for one evidence item. */
export interface Highlight {
  paperId: string;
  /** Root-to-section ids from the evidence, plus the leaf. */
  pathIds: string[];
  nodeId: string;
  /** The cited text, marked inside the leaf. */
  text: string;
}

export function highlightOf(e: Evidence): Highlight {
  const ids = [...(e.pathIds ?? [])];
  if (ids[ids.length - 1] !== e.nodeId) ids.push(e.nodeId);
  return { paperId: e.paperId, pathIds: ids, nodeId: e.nodeId, text: e.text };
}

/**
 * Splits leaf text around the cited passage so the view can mark it:
 * [before, marked, after]. The whole text is marked when the passage is the
 * leaf itself or cannot be found in it (whitespace differences).
 */
export function markPassage(text: string, passage: string): [string, string, string] {
  const p = passage.trim();
  if (!p) return [text, "", ""];
  const i = text.indexOf(p);
  if (i < 0) return ["", text, ""];
  return [text.slice(0, i), p, text.slice(i + p.length)];
}
