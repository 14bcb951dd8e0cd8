import { describe, expect, it } from "vitest";
import { parseTable, renderTable, rowSentence } from "./table";

const text = [
  "Table 1: Model variants <img src=x onerror=alert(1)>",
  "| Model | Layers | Params",
  "ViT-Base | 12 | 86M",
  "ViT-Large | 24 | 307M",
  "<script>alert(1)</script> | a\\|b | −",
].join("\n");

describe("table leaves", () => {
  it("parses caption, header and rows, with escaped bars", () => {
    const t = parseTable(text);
    expect(t.caption).toBe("Table 1: Model variants <img src=x onerror=alert(1)>");
    expect(t.header).toEqual(["Model", "Layers", "Params"]);
    expect(t.rows[2]).toEqual(["<script>alert(1)</script>", "a|b", "−"]);
  });

  it("parses a table without caption or header", () => {
    const t = parseTable(" | 392k\nBERT | 86.7");
    expect(t.caption).toBe("");
    expect(t.header).toBeNull();
    expect(t.rows).toEqual([["", "392k"], ["BERT", "86.7"]]);
  });

  it("reads a row with its headers like the answer does", () => {
    const t = parseTable(text);
    expect(rowSentence(t, t.rows[1])).toBe("ViT-Large: Layers 24, Params 307M");
    expect(rowSentence(t, t.rows[2])).toBe("<script>alert(1)</script>: Layers a|b");
  });

  it("renders cells as text, never as markup, and marks the quoted row", () => {
    const el = renderTable(text, "ViT-Large: Layers 24, Params 307M [1]");
    expect(el.querySelector("caption")?.textContent).toContain("<img src=x");
    expect(el.querySelector("img")).toBeNull();
    expect(el.querySelector("script")).toBeNull();
    expect(Array.from(el.querySelectorAll("th")).map((th) => th.textContent)).toEqual(["Model", "Layers", "Params"]);
    expect(el.querySelectorAll("tbody tr")).toHaveLength(3);
    const quoted = el.querySelectorAll("tr.quoted");
    expect(quoted).toHaveLength(1);
    expect(quoted[0].textContent).toContain("307M");
  });
});
