// Pure formatting helpers for the views. They return plain strings; the views
// put them into the DOM through lib/dom.ts, which inserts them as text.

/** "1 paper", "3 papers". */
export function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The last path element, for showing a file or folder name. */
export function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, "");
  const i = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"));
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}

/** How a paper is named where it is listed: its title, else (no title read
 * from the PDF) its file name (papertree.PaperName on the Go side); "" when
 * it has neither. */
export function paperName(title: string, file: string): string {
  return title.trim() || baseName(file);
}

/** Replaces the home folder prefix with "~" and shortens long paths in the middle. */
export function shortPath(path: string, max = 60): string {
  let p = path.replace(/^\/(?:root|home\/[^/]+)(?=\/|$)/, "~");
  if (p.length <= max) return p;
  const keep = max - 1;
  const head = Math.ceil(keep / 3);
  return p.slice(0, head) + "…" + p.slice(p.length - (keep - head));
}

/** "A. Author", "A. Author and B. Author", "A. Author et al.". */
export function authorLine(authors: readonly string[] | null | undefined): string {
  const a = (authors ?? []).map((s) => s.trim()).filter(Boolean);
  if (a.length === 0) return "Unknown authors";
  if (a.length === 1) return a[0];
  if (a.length === 2) return `${a[0]} and ${a[1]}`;
  return `${a[0]} et al.`;
}

/** Progress as a sentence and a fraction in [0, 1]. */
export function progressText(p: { stage: string; done: number; total: number }): {
  label: string;
  fraction: number;
} {
  const total = Math.max(0, p.total);
  const done = Math.min(Math.max(0, p.done), total);
  const fraction = total === 0 ? 0 : done / total;
  const files = plural(total, "PDF");
  switch (p.stage) {
    case "scan":
      return { label: `Found ${files}`, fraction };
    case "done":
      return { label: `Finished ${files}`, fraction: 1 };
    default:
      return { label: `Indexed ${done} of ${files}`, fraction };
  }
}

/** Milliseconds as "0.4 s", "12 s", "3 min 5 s". */
export function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** clip shortens s to at most max characters (code points), ending in "…" when cut. */
export function clip(s: string, max: number): string {
  const cs = Array.from(s.trim());
  return cs.length <= max ? cs.join("") : cs.slice(0, max - 1).join("").trimEnd() + "…";
}
