import { describe, expect, it } from "vitest";
import type { LLMHealth } from "../lib/api";
import { SCRIPT, XSS, fakeApi } from "../test/fakeapi";
import { createLlmBanner, llmDown } from "./llmbanner";

const flush = () => new Promise((r) => setTimeout(r, 0));
const up: LLMHealth = { configured: true, reachable: true, baseUrl: "http://127.0.0.1:11434", problem: "", checkedAt: "2026-01-01T00:00:00Z" };
const down: LLMHealth = { ...up, reachable: false, problem: "connection refused at http://127.0.0.1:11434: no LLM server is listening there (is it running?)" };

function harness(initial: LLMHealth | null) {
  const fns = new Set<(h: LLMHealth) => void>();
  const api = fakeApi({
    llmHealth: async () => initial ?? Promise.reject(new Error("no backend")),
    onLlmHealth(fn) {
      fns.add(fn);
      return () => fns.delete(fn);
    },
  });
  const b = createLlmBanner(api);
  document.body.replaceChildren(b.el);
  return { b, send: (h: LLMHealth) => fns.forEach((fn) => fn(h)), fns };
}

const banner = () => document.querySelector<HTMLElement>('[data-testid="llm-banner"]');

describe("LLM banner", () => {
  it.each([
    ["no LLM configured", { ...down, configured: false }, false],
    ["server answers", up, false],
    ["server does not answer", down, true],
    ["not checked yet", { ...down, checkedAt: "" }, false],
    ["nothing known", null, false],
  ] as const)("%s", async (_name, h, shown) => {
    expect(llmDown(h)).toBe(shown);
    harness(h);
    await flush();
    expect(Boolean(banner())).toBe(shown);
    if (shown) {
      expect(banner()?.getAttribute("role")).toBe("alert");
      expect(banner()?.textContent).toContain("http://127.0.0.1:11434 does not answer");
      expect(banner()?.textContent).toContain("Answers are extractive meanwhile");
      expect(banner()?.textContent).toContain("connection refused");
    }
  });

  it("appears when the server goes down and clears when it answers again", async () => {
    const { send } = harness(up);
    await flush();
    expect(banner()).toBeNull();
    send(down);
    expect(banner()).not.toBeNull();
    send(up);
    expect(banner()).toBeNull();
    send(down);
    expect(banner()).not.toBeNull();
  });

  it("an event newer than the state asked at load wins", async () => {
    const { send } = harness(up);
    send(down); // arrives before llmHealth() resolves
    await flush();
    expect(banner()).not.toBeNull();
  });

  it("shows the address and the reason as text", async () => {
    harness({ ...down, baseUrl: `http://x/${XSS}`, problem: SCRIPT });
    await flush();
    expect(banner()?.textContent).toContain(XSS);
    expect(banner()?.textContent).toContain(SCRIPT);
    expect(document.querySelector("img, script")).toBeNull();
  });

  it("stops listening when closed", async () => {
    const { b, fns } = harness(up);
    expect(fns.size).toBe(1);
    b.close();
    expect(fns.size).toBe(0);
  });
});
