import { describe, expect, it } from "vitest";
import { fakeApi, xssAnswer } from "../test/fakeapi";
import { createWorkspace } from "./workspace";

describe("table evidence", () => {
  it("shows a table leaf as a table, cells as text, the quoted row marked", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    const a = xssAnswer();
    const grid = [
      "Table 1: Details of the variants <img src=x onerror=alert(1)>",
      "| Model | Layers | Params",
      "ViT-Base | 12 | 86M",
      "ViT-Large | 24 | 307M",
    ].join("\n");
    await ws.showAnswer({
      ...a,
      text: "ViT-Large: Layers 24, Params 307M [1]",
      evidence: [{ ...a.evidence[0], role: "table", text: grid }, ...a.evidence.slice(1)],
    });
    const table = ws.el.querySelector<HTMLTableElement>("[data-testid=evidence-row] [data-testid=leaf-table]");
    expect(table).not.toBeNull();
    expect(table!.querySelectorAll("th")).toHaveLength(3);
    expect(table!.querySelector("caption")?.textContent).toContain("<img src=x");
    expect(ws.el.querySelector("img")).toBeNull();
    const quoted = table!.querySelectorAll("[data-testid=quoted-row]");
    expect(quoted).toHaveLength(1);
    expect(quoted[0].textContent).toContain("307M");
  });
});
