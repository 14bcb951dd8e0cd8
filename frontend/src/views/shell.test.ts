import { describe, expect, it } from "vitest";
import { createShell, llmPill } from "./shell";

const health = (over: Partial<{ configured: boolean; reachable: boolean; checkedAt: string }>) => ({
  configured: true,
  reachable: true,
  baseUrl: "http://127.0.0.1:11434",
  problem: "",
  checkedAt: "2026-11-27T04:00:00Z",
  ...over,
});

describe("llmPill", () => {
  const cases: { name: string; x: Parameters<typeof llmPill>[0]; text: string; down: boolean }[] = [
    { name: "nothing known yet", x: null, text: "Works offline", down: false },
    { name: "no server configured", x: health({ configured: false, reachable: false }), text: "Works offline", down: false },
    { name: "server answers", x: health({}), text: "LLM on", down: false },
    { name: "not checked yet", x: health({ reachable: false, checkedAt: "" }), text: "LLM: checking", down: false },
    { name: "server down", x: health({ reachable: false }), text: "LLM down · extractive", down: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = llmPill(c.x);
      expect(p.text).toBe(c.text);
      expect(p.down).toBe(c.down);
    });
  }
});

describe("status bar", () => {
  it("never says offline while the configured server answers", () => {
    const root = document.createElement("div");
    const shell = createShell(root);
    shell.setInfo({ name: "PaperTree", version: "0", libraryDir: "/tmp/lib" } as never);
    const pill = () => root.querySelector('[data-testid="llm-pill"]')?.textContent;
    expect(pill()).toBe("Works offline");
    shell.setLlm(health({}));
    expect(pill()).toBe("LLM on");
    shell.setLlm(health({ reachable: false }));
    expect(pill()).toBe("LLM down · extractive");
    expect(root.querySelector('[data-testid="llm-pill"]')?.classList.contains("pill-warn")).toBe(true);
  });
});
