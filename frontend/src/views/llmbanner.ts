// The LLM banner: while the language model server the settings name does not
// answer (app's LLM watch, event llm:health), a line under the header says so
// and that answers are extractive meanwhile; it goes away when the server
// answers again. It is an alert (role="alert"), so the app log records it
// (lib/shown.ts). The server's address and the reason come from settings and
// from the server's reply: inserted as text only (lib/dom.ts).

import type { Api, LLMHealth } from "../lib/api";
import { h, mount } from "../lib/dom";

export interface LlmBanner {
  el: HTMLElement;
  /** Shows the banner for h (null or a server that answers: hidden). */
  set(h: LLMHealth | null): void;
  /** Stops listening. */
  close(): void;
}

/** Whether h calls for the banner. */
export const llmDown = (x: LLMHealth | null): boolean => Boolean(x && x.configured && !x.reachable && x.checkedAt);

export function createLlmBanner(api: Pick<Api, "llmHealth" | "onLlmHealth">): LlmBanner {
  const el = h("div", { class: "llm-banner-slot" });
  let seq = 0;
  const set = (x: LLMHealth | null) => {
    seq++;
    if (!llmDown(x) || !x) {
      mount(el);
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const where = x.baseUrl ? `The language model server at ${x.baseUrl} does not answer` : "The language model server does not answer";
    mount(
      el,
      h(
        "div",
        { class: "notice notice-warn llm-banner", role: "alert", "data-testid": "llm-banner" },
        h(
          "div",
          { class: "notice-body" },
          h("p", { class: "notice-title" }, `${where}.`),
          h("p", null, "Answers are extractive meanwhile: sentences quoted from the papers, with their citations. This goes away when the server answers again."),
          x.problem ? h("p", { class: "muted", "data-testid": "llm-banner-why" }, x.problem) : null,
        ),
      ),
    );
  };
  set(null);
  const off = api.onLlmHealth?.((x) => set(x)) ?? (() => {});
  // The state at load; an event that arrived meanwhile is newer and wins.
  const asked = seq;
  void api
    .llmHealth?.()
    .then((x) => {
      if (seq === asked) set(x);
    })
    .catch(() => {});
  return { el, set, close: off };
}
