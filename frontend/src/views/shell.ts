// The window frame: header with the app name, the page area, and a status bar.
import type { AppInfo } from "../lib/api";
import { h, mount } from "../lib/dom";
import { shortPath } from "../lib/format";
import { logo } from "./icons";

export interface Shell {
  page: HTMLElement;
  /** Shows the app info; null means the backend did not answer. */
  setInfo(info: AppInfo | null): void;
  onSettings(fn: () => void): void;
  onNav(fn: (view: "library" | "workspace" | "compare") => void): void;
}

export function createShell(root: HTMLElement): Shell {
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
      h("span", { class: "pill" }, "Works offline"),
    );
  };
  mount(status, h("span", null, "Starting…"));
  return { page, setInfo, onSettings: (fn) => (settingsFn = fn), onNav: (fn) => (navFn = fn) };
}
