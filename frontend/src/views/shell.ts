// The window frame: header with the app name, the page area, and a status bar.
import type { AppInfo, LLMHealth } from "../lib/api";
import { h, mount } from "../lib/dom";
import { shortPath } from "../lib/format";
import { logo } from "./icons";

export interface Shell {
  page: HTMLElement;
  /** Shows the app info; null means the backend did not answer. */
  setInfo(info: AppInfo | null): void;
  /** Shows in the status bar whether answers can use the LLM (llm:health). */
  setLlm(x: LLMHealth | null): void;
  onSettings(fn: () => void): void;
  onNav(fn: (view: "library" | "workspace" | "compare") => void): void;
}

/** The status bar's word on the language model: what answers are now. */
export function llmPill(x: LLMHealth | null): { text: string; title: string; down: boolean } {
  if (!x || !x.configured) return { text: "Works offline", title: "No language model configured: answers quote the papers (extractive).", down: false };
  if (x.reachable) return { text: "LLM on", title: `Answers use the language model at ${x.baseUrl}.`, down: false };
  if (!x.checkedAt) return { text: "LLM: checking", title: `Checking the language model server at ${x.baseUrl}.`, down: false };
  return { text: "LLM down · extractive", title: `The language model server at ${x.baseUrl} does not answer: answers quote the papers meanwhile.`, down: true };
}

export function createShell(root: HTMLElement): Shell {
  const pill = h("span", { class: "pill", "data-testid": "llm-pill" });
  const setLlm = (x: LLMHealth | null) => {
    const p = llmPill(x);
    pill.textContent = p.text;
    pill.title = p.title;
    pill.classList.toggle("pill-warn", p.down);
  };
  setLlm(null);
  const page = h("main", { class: "page", id: "page" });
  const status = h("footer", { class: "status" });
  let settingsFn = () => {};
  let navFn: (v: "library" | "workspace" | "compare") => void = () => {};
  const nav = h(
    "nav",
    { class: "topnav" },
    h("button", { type: "button", class: "btn btn-quiet", "data-testid": "nav-library", on: { click: () => navFn("library") } }, "Library"),
    h("button", { type: "button", class: "btn btn-quiet", "data-testid": "nav-ask", on: { click: () => navFn("workspace") } }, "Ask"),
    h("button", { type: "button", class: "btn btn-quiet", "data-testid": "nav-compare", on: { click: () => navFn("compare") } }, "Compare"),
    h("button", { type: "button", class: "btn btn-quiet", "data-testid": "settings-open", "aria-label": "Settings", on: { click: () => settingsFn() } }, "Settings"),
  );
  mount(
    root,
    h(
      "header",
      { class: "topbar" },
      h("div", { class: "brand" }, logo(30), h("div", null, h("h1", { class: "brand-name" }, "PaperTree"), h("p", { class: "brand-tag" }, "Ask your papers. See where the answer comes from."))),
      h("span", { class: "spacer" }),
      nav,
    ),
    page,
    status,
  );
  const setInfo = (info: AppInfo | null) => {
    if (!info) {
      mount(status, h("span", null, "Not connected to the PaperTree backend"));
      return;
    }
    mount(
      status,
      h("span", null, `${info.name} ${info.version}`),
      h("span", { class: "dot" }, "·"),
      h("span", { title: info.libraryDir }, `Library: ${shortPath(info.libraryDir)}`),
      h("span", { class: "spacer" }),
      pill,
    );
  };
  mount(status, h("span", null, "Starting…"));
  return { page, setInfo, setLlm, onSettings: (fn) => (settingsFn = fn), onNav: (fn) => (navFn = fn) };
}
