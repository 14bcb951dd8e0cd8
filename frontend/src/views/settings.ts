// The settings dialog: LLM provider, server URL, chat and embedding models,
// API key (kept in the OS keyring or a user-only file, never in the settings
// file), a connection test that lists exactly what failed, the retrieval
// parameters with their one-line descriptions, parsing and the data folder.
// Saving applies the LLM at once and offers to re-index when the index
// depends on what changed.

import { ApiError, type Api, type LLMStatus, type Settings, type SettingsView } from "../lib/api";
import { h, mount } from "../lib/dom";

export function openSettings(host: HTMLElement, api: Api, opts: { onReindex(): void } = { onReindex() {} }): void {
  const dialog = h("div", { class: "modal-back", "data-testid": "settings-dialog" });
  const panel = h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-label": "Settings" });
  dialog.appendChild(panel);
  host.appendChild(dialog);
  const close = () => dialog.remove();
  dialog.addEventListener("keydown", (e) => {
    if ((e as KeyboardEvent).key === "Escape") close();
  });
  mount(panel, h("p", { class: "muted" }, "Loading settings…"));

  void api.getSettings().then(
    (v) => render(v),
    (e) => mount(panel, h("p", { role: "alert" }, e instanceof ApiError ? e.message : String(e)), h("button", { type: "button", class: "btn btn-secondary", on: { click: close } }, "Close")),
  );

  function render(v: SettingsView) {
    const s: Settings = structuredClone(v.settings);
    const d = (k: string) => h("p", { class: "field-desc" }, v.descriptions[k] ?? "");
    const status = h("div", { class: "llm-status", "data-testid": "llm-status" });
    const result = h("div", { class: "save-result", role: "status" });
    const showStatus = (st: LLMStatus) =>
      mount(
        status,
        h("p", { class: st.on ? "ok" : st.problems.length ? "bad" : "muted" }, st.on ? `Connected: ${st.chatModel} answers questions.` : st.summary || "LLM switched off"),
        st.problems.length ? h("ul", { class: "problems" }, st.problems.map((p) => h("li", null, p))) : null,
        st.models.length ? h("p", { class: "muted" }, `Models on the server: ${st.models.join(", ")}`) : null,
      );
    showStatus(v.llm);

    const text = (path: string, get: () => string, put: (x: string) => void, attrs: Record<string, string> = {}) =>
      h("input", { type: "text", class: "field-input", value: get(), "data-testid": `set-${path}`, ...attrs, on: { input: (e) => put((e.target as HTMLInputElement).value) } });
    const num = (path: string, get: () => number, put: (x: number) => void, step = "1") =>
      h("input", { type: "number", class: "field-input field-num", step, value: String(get()), "data-testid": `set-${path}`, on: { input: (e) => put(Number((e.target as HTMLInputElement).value)) } });
    const check = (path: string, get: () => boolean, put: (x: boolean) => void) =>
      h("input", { type: "checkbox", checked: get(), "data-testid": `set-${path}`, on: { change: (e) => put((e.target as HTMLInputElement).checked) } });
    const field = (label: string, path: string, input: HTMLElement) => h("label", { class: "field" }, h("span", { class: "field-label" }, label), input, d(path));

    const provider = h(
      "select",
      { class: "field-input", "data-testid": "set-llm.provider", on: { change: () => (s.llm.provider = provider.value) } },
      [
        ["none", "None (extractive answers, fully offline)"],
        ["auto", "Automatic (find a local Ollama)"],
        ["ollama", "Ollama"],
        ["openai", "OpenAI-compatible server"],
      ].map(([val, label]) => h("option", { value: val }, label)),
    );
    provider.value = s.llm.provider || "none";
    let apiKey = "";
    let clearKey = false;
    const keyInput = h("input", {
      type: "password",
      class: "field-input",
      autocomplete: "off",
      placeholder: v.apiKeySet ? `A key is stored in ${v.keyWhere}` : "Not needed for local servers",
      "data-testid": "set-api-key",
      on: { input: (e) => (apiKey = (e.target as HTMLInputElement).value) },
    });
    const strategy = h("select", { class: "field-input", "data-testid": "set-retrieval.strategy", on: { change: () => (s.retrieval.strategy = strategy.value) } }, v.strategies.map((x) => h("option", { value: x }, x)));
    strategy.value = s.retrieval.strategy;

    // Nested groups (the rdr2 and disretrieval settings) keep their values
    // and are set from the command line; the view edits the flat fields.
    const params = Object.keys(s.retrieval.params).filter((k) => typeof s.retrieval.params[k] !== "object").map((k) => {
      const val = s.retrieval.params[k];
      const path = `retrieval.params.${k}`;
      const input =
        typeof val === "boolean"
          ? check(path, () => s.retrieval.params[k] as boolean, (x) => (s.retrieval.params[k] = x))
          : num(path, () => s.retrieval.params[k] as number, (x) => (s.retrieval.params[k] = x), Number.isInteger(val) ? "1" : "0.05");
      return field(k.replace(/_/g, " "), path, input);
    });

    const input = () => ({ settings: s, apiKey: apiKey.trim(), clearKey });
    const testBtn = h(
      "button",
      {
        type: "button",
        class: "btn btn-secondary",
        "data-testid": "llm-test",
        on: {
          click: async () => {
            mount(status, h("p", { class: "muted" }, "Testing the connection…"));
            try {
              showStatus(await api.testConnection(input()));
            } catch (e) {
              mount(status, h("p", { class: "bad" }, e instanceof ApiError ? e.message : String(e)));
            }
          },
        },
      },
      "Test connection",
    );
    const saveBtn = h(
      "button",
      {
        type: "button",
        class: "btn btn-primary",
        "data-testid": "settings-save",
        on: {
          click: async () => {
            mount(result, h("p", { class: "muted" }, "Saving…"));
            try {
              const r = await api.saveSettings(input());
              showStatus(r.llm);
              mount(
                result,
                h("p", { class: "ok" }, "Saved."),
                r.restartForData ? h("p", null, "The new data folder is used the next time PaperTree starts.") : null,
                r.reindex
                  ? h(
                      "p",
                      null,
                      "These settings change how papers are indexed: the library is opened again with them and every paper is indexed again. ",
                      h("button", { type: "button", class: "btn btn-secondary btn-small", "data-testid": "reindex", on: { click: () => { close(); opts.onReindex(); } } }, "Re-index now"),
                    )
                  : null,
              );
            } catch (e) {
              mount(result, h("p", { class: "bad", role: "alert" }, e instanceof ApiError ? e.message : String(e)));
            }
          },
        },
      },
      "Save",
    );

    mount(
      panel,
      h("div", { class: "modal-head" }, h("h2", null, "Settings"), h("span", { class: "spacer" }), h("button", { type: "button", class: "btn btn-quiet", "aria-label": "Close", "data-testid": "settings-close", on: { click: close } }, "×")),
      h(
        "div",
        { class: "modal-body" },
        h("h3", null, "Language model"),
        field("Provider", "llm.provider", provider),
        field("Server address", "llm.base_url", text("llm.base_url", () => s.llm.base_url, (x) => (s.llm.base_url = x), { placeholder: "http://127.0.0.1:11434" })),
        field("Chat model", "llm.chat_model", text("llm.chat_model", () => s.llm.chat_model, (x) => (s.llm.chat_model = x))),
        field("Embedding model", "llm.embed_model", text("llm.embed_model", () => s.llm.embed_model, (x) => (s.llm.embed_model = x))),
        field("Use server embeddings", "llm.use_llm_embeddings", check("llm.use_llm_embeddings", () => s.llm.use_llm_embeddings, (x) => (s.llm.use_llm_embeddings = x))),
        h(
          "label",
          { class: "field" },
          h("span", { class: "field-label" }, "API key"),
          keyInput,
          h("p", { class: "field-desc" }, `Kept in ${v.keyWhere || "the secret store"}, never in the settings file.`),
          v.apiKeySet ? h("label", { class: "inline" }, h("input", { type: "checkbox", on: { change: (e) => (clearKey = (e.target as HTMLInputElement).checked) } }), " Remove the stored key") : null,
        ),
        h("div", { class: "row" }, testBtn),
        status,
        h(
          "details",
          { class: "params", "data-testid": "llm-limits" },
          h("summary", null, "Time limits and reply size"),
          field("Answer time budget (seconds)", "llm.answer_budget_seconds", num("llm.answer_budget_seconds", () => s.llm.answer_budget_seconds, (x) => (s.llm.answer_budget_seconds = x))),
          field("Time limit per request (seconds)", "llm.call_timeout_seconds", num("llm.call_timeout_seconds", () => s.llm.call_timeout_seconds, (x) => (s.llm.call_timeout_seconds = x))),
          field("Time to first reply byte (seconds)", "llm.first_byte_timeout_seconds", num("llm.first_byte_timeout_seconds", () => s.llm.first_byte_timeout_seconds, (x) => (s.llm.first_byte_timeout_seconds = x))),
          field("Time to connect (seconds)", "llm.connect_timeout_seconds", num("llm.connect_timeout_seconds", () => s.llm.connect_timeout_seconds, (x) => (s.llm.connect_timeout_seconds = x))),
          field("Largest reply (MB)", "llm.max_reply_mb", num("llm.max_reply_mb", () => s.llm.max_reply_mb, (x) => (s.llm.max_reply_mb = x))),
        ),
        h("h3", null, "Retrieval"),
        field("Strategy", "retrieval.strategy", strategy),
        field("Token budget", "retrieval.budget", num("retrieval.budget", () => s.retrieval.budget, (x) => (s.retrieval.budget = x))),
        h("details", { class: "params" }, h("summary", null, "Advanced parameters"), params),
        h("h3", null, "Parsing"),
        field("Use PDF bookmarks", "parse.use_outline", check("parse.use_outline", () => s.parse.use_outline, (x) => (s.parse.use_outline = x))),
        field("Largest passage (tokens)", "parse.max_segment_tokens", num("parse.max_segment_tokens", () => s.parse.max_segment_tokens, (x) => (s.parse.max_segment_tokens = x))),
        field("Time limit per PDF (seconds)", "parse.file_timeout_seconds", num("parse.file_timeout_seconds", () => s.parse.file_timeout_seconds, (x) => (s.parse.file_timeout_seconds = x))),
        field("Read scans with OCR", "parse.ocr", check("parse.ocr", () => s.parse.ocr, (x) => (s.parse.ocr = x))),
        field("OCR languages", "parse.ocr_languages", text("parse.ocr_languages", () => s.parse.ocr_languages, (x) => (s.parse.ocr_languages = x), { placeholder: "eng" })),
        h("h3", null, "Data"),
        field("Data folder", "data_dir", text("data_dir", () => s.data_dir, (x) => (s.data_dir = x), { placeholder: v.libraryDir })),
        h("p", { class: "muted" }, `In use: ${v.libraryDir}. Settings file: ${v.path || "not saved in this build"}.`),
      ),
      h("div", { class: "modal-foot" }, result, h("span", { class: "spacer" }), h("button", { type: "button", class: "btn btn-secondary", on: { click: close } }, "Close"), saveBtn),
    );
    (provider as HTMLElement).focus();
  }
}
