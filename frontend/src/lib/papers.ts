// Search, sort and filter of the library list, as pure functions over the
// papers the Go side listed (they are all in memory: 5,000 papers are a few
// MB). Text search inside the papers is the Go side's (Api.searchPapers);
// its hits are passed in as textHits and count as matches.

import type { Paper } from "./api";

export type SortKey = "title" | "year" | "added";

export interface ListQuery {
  /** Words typed in the search box; every word must match. */
  query: string;
  sort: SortKey;
  /** "" = every folder. */
  folder: string;
  /** "" = every collection. */
  collection: string;
  /** "" = all, "ready", "failed", "stale". */
  status: string;
}

export function defaultQuery(): ListQuery {
  return { query: "", sort: "added", folder: "", collection: "", status: "" };
}

/** Lowercase, without diacritics: "Müller" matches "muller". */
export function fold(s: string): string {
  return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

export function words(q: string): string[] {
  return fold(q)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const haystacks = new WeakMap<Paper, string>();

/** The text a paper's metadata is searched in: title, authors, year, venue, key, DOI, arXiv id, tags, collections. */
function haystack(p: Paper): string {
  let h = haystacks.get(p);
  if (h === undefined) {
    h = fold(
      [p.title, (p.authors ?? []).join(" "), p.year > 0 ? String(p.year) : "", p.venue ?? "", p.citationKey ?? "", p.doi ?? "", p.arxivId ?? "", (p.tags ?? []).join(" "), (p.collections ?? []).join(" "), baseName(p.file)].join(" \u0001 "),
    );
    haystacks.set(p, h);
  }
  return h;
}

function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return i >= 0 ? path.slice(i + 1) : path;
}

/** Whether a paper's metadata has every word. */
export function matches(p: Paper, ws: readonly string[]): boolean {
  if (ws.length === 0) return true;
  const h = haystack(p);
  for (const w of ws) if (!h.includes(w)) return false;
  return true;
}

/** The folder (of folders) that holds file: the longest prefix. */
export function folderOf(file: string, folders: readonly string[]): string {
  let best = "";
  for (const f of folders) {
    const d = f.endsWith("/") ? f : f + "/";
    if (file.startsWith(d) && f.length > best.length) best = f;
  }
  return best;
}

/** Every collection of the papers, sorted. */
export function collectionsOf(papers: readonly Paper[]): string[] {
  const all = new Set<string>();
  for (const p of papers) for (const c of p.collections ?? []) all.add(c);
  return [...all].sort((a, b) => a.localeCompare(b));
}

const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

function titleOf(p: Paper): string {
  return (p.title || baseName(p.file)).trim();
}

/**
 * The papers to show, filtered and sorted. Title sorts A-Z; year newest
 * first (unknown years last, ties by title); date added newest first (ties
 * keep the listed order).
 */
export function selectPapers(papers: readonly Paper[], q: ListQuery, folders: readonly string[] = [], textHits: ReadonlySet<string> | null = null): Paper[] {
  const ws = words(q.query);
  // A paper is in the chosen folder when it is under it and not under a
  // folder nested in it (which is listed on its own).
  const slash = (f: string) => (f.endsWith("/") ? f : f + "/");
  const inDir = q.folder ? slash(q.folder) : "";
  const nested = q.folder ? folders.filter((f) => f !== q.folder && slash(f).startsWith(inDir)).map(slash) : [];
  const out: Paper[] = [];
  for (const p of papers) {
    if (q.status === "ready" && p.status !== "ready") continue;
    if (q.status === "failed" && p.status === "ready") continue;
    if (q.status === "stale" && !p.stale) continue;
    if (q.collection && !(p.collections ?? []).includes(q.collection)) continue;
    if (inDir && (!p.file.startsWith(inDir) || nested.some((d) => p.file.startsWith(d)))) continue;
    if (ws.length > 0 && !matches(p, ws) && !(textHits?.has(p.id) ?? false)) continue;
    out.push(p);
  }
  const byTitle = (a: Paper, b: Paper) => collator.compare(titleOf(a), titleOf(b));
  switch (q.sort) {
    case "title":
      out.sort(byTitle);
      break;
    case "year":
      out.sort((a, b) => (b.year || -1) - (a.year || -1) || byTitle(a, b));
      break;
    default:
      out.sort((a, b) => (b.addedAt ?? 0) - (a.addedAt ?? 0)); // stable: ties keep the listed order
  }
  return out;
}
