// The Zotero library picker: Zotero keeps the user's library and every group
// library in one zotero.sqlite; when a data directory holds several, the
// import asks which one (or all of them). Library names come from the
// user's Zotero database: text only (lib/dom.ts).

import type { ZoteroLibrary } from "../lib/api";
import { h } from "../lib/dom";

const items = (n: number) => (n === 1 ? "1 item" : `${n} items`);

/**
 * Asks which library to import; resolves to its id, "" for every library,
 * or null when the researcher cancels (Cancel, Escape).
 */
export function chooseZoteroLibrary(host: HTMLElement, libs: ZoteroLibrary[]): Promise<string | null> {
  return new Promise((resolve) => {
    const total = libs.reduce((n, l) => n + l.items, 0);
    const options: [string, string][] = [
      ...libs.map((l): [string, string] => [l.id, `${l.name}${l.type === "group" ? " (group)" : ""} · ${items(l.items)}`]),
      ["", `Every library · ${items(total)}`],
    ];
    let chosen = libs[0]?.id ?? "";
    const back = h("div", { class: "modal-back", "data-testid": "zotero-libraries", tabindex: -1 });
    const done = (v: string | null) => {
      back.remove();
      resolve(v);
    };
    const list = h(
      "div",
      { class: "zotero-libs", role: "radiogroup", "aria-label": "Zotero library" },
      options.map(([id, label]) =>
        h(
          "label",
          { class: "zotero-lib" },
          h("input", { type: "radio", name: "zotero-library", value: id, checked: id === chosen, "data-testid": "zotero-library", on: { change: () => (chosen = id) } }),
          h("span", null, label),
        ),
      ),
    );
    back.appendChild(
      h(
        "div",
        { class: "modal zotero-modal", role: "dialog", "aria-modal": "true", "aria-label": "Choose a Zotero library" },
        h("div", { class: "modal-head" }, h("strong", null, "Which Zotero library?")),
        h("div", { class: "modal-body" }, h("p", { class: "muted" }, "This Zotero data directory holds your library and group libraries. Import one, or every one."), list),
        h(
          "div",
          { class: "modal-foot" },
          h("span", { class: "spacer" }),
          h("button", { type: "button", class: "btn btn-quiet", "data-testid": "zotero-library-cancel", on: { click: () => done(null) } }, "Cancel"),
          h("button", { type: "button", class: "btn btn-primary", "data-testid": "zotero-library-import", on: { click: () => done(chosen) } }, "Import"),
        ),
      ),
    );
    back.addEventListener("keydown", (e) => {
      if ((e as KeyboardEvent).key === "Escape") done(null);
    });
    host.appendChild(back);
    back.querySelector<HTMLInputElement>("input:checked")?.focus();
  });
}
