import { describe, expect, it, vi } from "vitest";
import type { SettingsInput, SettingsView } from "../lib/api";
import { fakeApi } from "../test/fakeapi";
import { openSettings } from "./settings";

const flush = () => new Promise((r) => setTimeout(r, 0));

function view(): SettingsView {
  return {
    settings: {
      data_dir: "",
      llm: {
        provider: "openai",
        base_url: "http://127.0.0.1:1234",
        chat_model: "m",
        embed_model: "",
        use_llm_embeddings: false,
        connect_timeout_seconds: 5,
        first_byte_timeout_seconds: 30,
        call_timeout_seconds: 45,
        answer_budget_seconds: 60,
        max_reply_mb: 4,
      },
      retrieval: { strategy: "pt-rag", budget: 2048, params: {} },
      parse: { use_outline: true, max_segment_tokens: 512, file_timeout_seconds: 30, ocr: true, ocr_languages: "eng" },
    },
    descriptions: {
      "llm.answer_budget_seconds": "Total time the language model may spend on one answer, in seconds.",
      "llm.max_reply_mb": "Largest reply accepted from the server, in MB.",
    },
    strategies: ["pt-rag"],
    apiKeySet: false,
    keyWhere: "the OS keyring",
    path: "/tmp/settings.json",
    libraryDir: "/tmp/lib",
    llm: { provider: "openai", baseUrl: "", reachable: false, models: [], chatModel: "", embedModel: "", chatModelOk: false, embedModelOk: false, problems: [], summary: "", on: false },
  };
}

describe("settings view", () => {
  it("shows the LLM time limits and reply cap with their descriptions and saves what was typed", async () => {
    const saveSettings = vi.fn(async (_in: SettingsInput) => ({ llm: view().llm, reindex: false, restartForData: false }));
    const api = fakeApi({ getSettings: async () => view(), saveSettings });
    const host = document.createElement("div");
    openSettings(host, api);
    await flush();
    const budget = host.querySelector<HTMLInputElement>('[data-testid="set-llm.answer_budget_seconds"]')!;
    expect(budget.value).toBe("60");
    for (const f of ["connect_timeout_seconds", "first_byte_timeout_seconds", "call_timeout_seconds", "max_reply_mb"]) {
      expect(host.querySelector(`[data-testid="set-llm.${f}"]`), f).not.toBeNull();
    }
    expect(host.querySelector('[data-testid="llm-limits"]')!.textContent).toContain("Total time the language model may spend on one answer");
    budget.value = "20";
    budget.dispatchEvent(new Event("input"));
    const cap = host.querySelector<HTMLInputElement>('[data-testid="set-llm.max_reply_mb"]')!;
    cap.value = "8";
    cap.dispatchEvent(new Event("input"));
    host.querySelector<HTMLButtonElement>('[data-testid="settings-save"]')!.click();
    await flush();
    expect(saveSettings).toHaveBeenCalledTimes(1);
    const sent = saveSettings.mock.calls[0][0].settings.llm;
    expect(sent.answer_budget_seconds).toBe(20);
    expect(sent.max_reply_mb).toBe(8);
    expect(sent.call_timeout_seconds).toBe(45);
  });
});
