import { describe, expect, it } from "vitest";
import { authorLine, baseName, clip, duration, plural, progressText, shortPath } from "./format";

describe("format", () => {
  it.each([
    ["short", "Attention Is All You Need", 48, "Attention Is All You Need"],
    ["cut at a word end", "BERT: Pre-training of Deep Bidirectional Transformers", 20, "BERT: Pre-training…"],
    ["code points, not UTF-16 units", "𝔸𝔹ℂ𝔻𝔼", 4, "𝔸𝔹ℂ…"],
    ["trimmed", "  spaced  ", 10, "spaced"],
  ])("clip: %s", (_, s, n, want) => expect(clip(s as string, n as number)).toBe(want));

  it.each([
    [0, "0 papers"],
    [1, "1 paper"],
    [2, "2 papers"],
  ])("plural(%i)", (n, want) => expect(plural(n, "paper")).toBe(want));

  it.each([
    ["/home/ana/papers/attention.pdf", "attention.pdf"],
    ["/home/ana/papers/", "papers"],
    ["C:\\Users\\ana\\p.pdf", "p.pdf"],
    ["plain.pdf", "plain.pdf"],
  ])("baseName(%s)", (p, want) => expect(baseName(p)).toBe(want));

  it("abbreviates home and shortens long paths in the middle", () => {
    expect(shortPath("/home/ana/.local/share/papertree")).toBe("~/.local/share/papertree");
    expect(shortPath("/root/x")).toBe("~/x");
    expect(shortPath("/rooted/x")).toBe("/rooted/x");
    const long = "/data/" + "a".repeat(100) + "/library";
    const s = shortPath(long, 40);
    expect(s).toHaveLength(40);
    expect(s.startsWith("/data/")).toBe(true);
    expect(s.endsWith("/library")).toBe(true);
    expect(s).toContain("…");
  });

  it.each([
    [[], "Unknown authors"],
    [null, "Unknown authors"],
    [["  "], "Unknown authors"],
    [["A. Vaswani"], "A. Vaswani"],
    [["A. Vaswani", "N. Shazeer"], "A. Vaswani and N. Shazeer"],
    [["A. Vaswani", "N. Shazeer", "N. Parmar"], "A. Vaswani et al."],
  ])("authorLine(%j)", (a, want) => expect(authorLine(a)).toBe(want));

  it.each([
    [{ stage: "scan", done: 0, total: 12 }, "Found 12 PDFs", 0],
    [{ stage: "index", done: 3, total: 12 }, "Indexed 3 of 12 PDFs", 0.25],
    [{ stage: "index", done: 6, total: 12 }, "Indexed 6 of 12 PDFs", 0.5],
    [{ stage: "index", done: 40, total: 12 }, "Indexed 12 of 12 PDFs", 1],
    [{ stage: "index", done: -1, total: 0 }, "Indexed 0 of 0 PDFs", 0],
    [{ stage: "done", done: 1, total: 1 }, "Finished 1 PDF", 1],
  ])("progressText(%j)", (p, label, fraction) => {
    expect(progressText(p)).toEqual({ label, fraction });
  });

  it.each([
    [420, "0.4 s"],
    [12_400, "12 s"],
    [185_000, "3 min 5 s"],
  ])("duration(%i)", (ms, want) => expect(duration(ms)).toBe(want));
});
