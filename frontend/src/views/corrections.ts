// Corrections in the paper view: the researcher fixes what the app read.
// "Edit details" opens a small form for the paper's title, authors, year,
// venue, DOI and citation key; every heading (and every text passage) in the
// outline has a "Correct" button with inline actions (rename, change level,
// merge into the section before, not a heading; a passage's line becomes a
// heading). Corrections are listed under the title with a Revert / Undo
// each; those a re-index could not apply (the file changed) say so. The Go
// side keeps them across re-indexing (app/edit.go). All text is inserted as
// text (lib/dom.ts): titles and headings come from untrusted PDFs.

import { ApiError, type Api, type Corrections, type HeadingEditInput, type PaperDetail, type TreeNode } from "../lib/api";
import { h, mount } from "../lib/dom";
import { markAt } from "../lib/shown";

/** Hooks the tree view calls to add editing controls (views/tree.ts). */
export interface TreeEditor {
  head(p: PaperDetail): HTMLElement | null;
  row(p: PaperDetail, n: TreeNode): HTMLElement | null;
}

export const FIELDS: { field: string; label: string; hint?: string }[] = [
  { field: "title", label: "Title" },
  { field: "authors", label: "Authors", hint: "Separate names with ;" },
  { field: "year", label: "Year" },
  { field: "venue", label: "Venue" },
  { field: "doi", label: "DOI" },
  { field: "key", label: "Citation key" },
];

const FIELD_LABEL: Record<string, string> = Object.fromEntries(FIELDS.map((f) => [f.field, f.label.toLowerCase()]));

/** The form's starting values: what the paper shows now. */
export function currentValues(p: PaperDetail): Record<string, string> {
  return {
    title: p.title,
    authors: (p.authors ?? []).join("; "),
    year: p.year > 0 ? String(p.year) : "",
    venue: p.venue ?? "",
    doi: p.doi ?? "",
    key: p.citationKey ?? "",
  };
}

/** The fields whose value differs from the start (trimmed): what to save. */
export function changedFields(start: Record<string, string>, now: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { field } of FIELDS) {
    const v = (now[field] ?? "").trim();
    if (v !== (start[field] ?? "").trim()) out[field] = v;
  }
  return out;
}

/** One line describing a heading correction. */
export function describeHeadingEdit(e: { op: string; target: string; arg: string; level: number }): string {
  switch (e.op) {
    case "rename":
      return `Renamed “${e.target}” to “${e.arg}”`;
    case "level":
      return `Moved “${e.target}” to level ${e.level}`;
    case "merge":
      return `Merged “${e.target}” into the section before it`;
    case "not_heading":
      return `“${e.target}” is not a heading`;
    case "promote":
      return `Made “${e.target}” a heading`;
  }
  return `${e.op} “${e.target}”`;
}

function message(e: unknown): string {
  return e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e);
}

/**
 * Returns the tree view's editing hooks, or null when the Api has no
 * corrections. reload shows the paper again after a change.
 */
export function createCorrections(api: Api, opts: { reload(id: string): Promise<void>; onError(msg: string): void }): TreeEditor | null {
  const { editPaper, revertEdit, editHeading, undoHeadingEdit } = api;
  if (!editPaper || !revertEdit || !editHeading || !undoHeadingEdit) return null;
  let formOpenFor = "";
  let openRow = "";

  async function run(p: PaperDetail, work: () => Promise<Corrections>, err: HTMLElement | null) {
    try {
      await work();
      formOpenFor = "";
      openRow = "";
      await opts.reload(p.id);
    } catch (e) {
      const msg = message(e);
      if (err) mount(err, msg);
      opts.onError(msg);
    }
  }

  function form(p: PaperDetail): HTMLElement {
    const start = currentValues(p);
    const inputs: Record<string, HTMLInputElement> = {};
    const err = h("p", { class: "edit-error", role: "alert", "data-testid": "edit-error" });
    const rows = FIELDS.map(({ field, label, hint }) => {
      const input = h("input", {
        type: "text",
        name: field,
        value: start[field],
        placeholder: hint ?? "",
        "data-testid": `edit-${field}`,
        inputmode: field === "year" ? "numeric" : null,
      }) as HTMLInputElement;
      input.value = start[field]; // the property, not only the attribute
      inputs[field] = input;
      return h("label", { class: "edit-field" }, h("span", null, label), input);
    });
    const f = h(
      "form",
      {
        class: "edit-form",
        "data-testid": "edit-form",
        "aria-label": "Correct the paper's details",
        on: {
          submit: (e) => {
            e.preventDefault();
            const now: Record<string, string> = {};
            for (const k in inputs) now[k] = inputs[k].value;
            const changed = changedFields(start, now);
            if (Object.keys(changed).length === 0) {
              mount(err, "Nothing changed.");
              return;
            }
            void run(p, () => editPaper!(p.id, changed), err);
          },
        },
      },
      rows,
      err,
      h(
        "div",
        { class: "edit-actions" },
        h("button", { type: "submit", class: "btn btn-primary", "data-testid": "edit-save" }, "Save corrections"),
        h(
          "button",
          {
            type: "button",
            class: "btn btn-quiet",
            on: {
              click: () => {
                formOpenFor = "";
                void opts.reload(p.id);
              },
            },
          },
          "Cancel",
        ),
      ),
    );
    // The app log records the open form (lib/shown.ts).
    markAt(f, `edit form: ${p.title}`, []);
    return f;
  }

  function list(p: PaperDetail): HTMLElement | null {
    const c = p.corrections;
    if (!c || (c.fields.length === 0 && c.headings.length === 0)) return null;
    const missed = c.headings.filter((e) => e.unmatched).length;
    const n = c.fields.length + c.headings.length;
    const summary = `${n} ${n === 1 ? "correction" : "corrections"} by you${missed ? ` · ${missed} not applied` : ""}`;
    // Collapsed unless one needs attention: the outline stays in view.
    return h(
      "details",
      { class: "edit-box", open: missed > 0 },
      h("summary", { "data-testid": "corrections-summary" }, summary),
      items(p, c),
    );
  }

  function items(p: PaperDetail, c: Corrections): HTMLElement {
    return h(
      "ul",
      { class: "edit-list", "data-testid": "corrections", "aria-label": "Your corrections" },
      c.fields.map((f) =>
        h(
          "li",
          { "data-testid": "field-edit", "data-field": f.field },
          h("span", { class: "tag tag-edited" }, "edited"),
          ` ${FIELD_LABEL[f.field] ?? f.field}: `,
          h("span", { class: "edit-value" }, f.value || "(empty)"),
          h("span", { class: "muted" }, ` (read: ${f.read || "nothing"})`),
          h(
            "button",
            { type: "button", class: "btn btn-quiet btn-small", "data-testid": "revert-field", on: { click: () => void run(p, () => revertEdit!(p.id, f.field), null) } },
            "Revert",
          ),
        ),
      ),
      c.headings.map((e) =>
        h(
          "li",
          { "data-testid": "heading-edit", class: e.unmatched ? "edit-unmatched" : "" },
          h("span", { class: e.unmatched ? "tag tag-warn" : "tag tag-edited" }, e.unmatched ? "not applied" : "edited"),
          " ",
          describeHeadingEdit(e),
          e.unmatched ? h("span", { class: "muted" }, " — the file changed and this heading is no longer in it") : null,
          h(
            "button",
            { type: "button", class: "btn btn-quiet btn-small", "data-testid": "undo-heading", on: { click: () => void run(p, () => undoHeadingEdit!(p.id, e.id), null) } },
            "Undo",
          ),
        ),
      ),
    );
  }

  function head(p: PaperDetail): HTMLElement {
    const open = formOpenFor === p.id;
    const toggle = h(
      "button",
      {
        type: "button",
        class: "btn btn-quiet btn-small",
        "data-testid": "edit-paper",
        "aria-expanded": String(open),
        on: {
          click: () => {
            formOpenFor = open ? "" : p.id;
            mount(box, head(p));
            // Opened: the focus goes to the first field, so typing corrects the title.
            if (!open) box.querySelector<HTMLInputElement>("input[name=title]")?.focus();
          },
        },
      },
      open ? "Close" : "Edit details",
    );
    const box = h("div", { class: "pv-edit" }, toggle, open ? form(p) : null, list(p));
    return box;
  }

  function headingPanel(p: PaperDetail, n: TreeNode): HTMLElement {
    const err = h("p", { class: "edit-error", role: "alert" });
    const stop = (e: Event) => e.stopPropagation();
    const edit = (input: HeadingEditInput) => void run(p, () => editHeading!(p.id, input), err);
    if (n.kind !== "section") {
      const first = (n.text ?? "").trim().split("\n")[0] ?? "";
      const line = h("input", { type: "text", value: first, "aria-label": "Line to make a heading", "data-testid": "promote-line" }) as HTMLInputElement;
      line.value = first;
      return h(
        "div",
        { class: "tn-edit", "data-testid": "heading-panel", on: { click: stop, keydown: stop } },
        line,
        h("button", { type: "button", class: "btn btn-small", "data-testid": "promote", on: { click: () => edit({ nodeId: n.id, op: "promote", text: line.value }) } }, "Make heading"),
        err,
      );
    }
    const name = h("input", { type: "text", value: n.title, "aria-label": "Heading text", "data-testid": "rename-text" }) as HTMLInputElement;
    name.value = n.title;
    const level = h(
      "select",
      { "aria-label": "Heading level", "data-testid": "level-select" },
      [1, 2, 3, 4, 5].map((l) => h("option", { value: String(l), selected: l === n.level ? "" : null }, `Level ${l}`)),
    ) as HTMLSelectElement;
    level.value = String(n.level);
    const panel = h(
      "div",
      { class: "tn-edit", "data-testid": "heading-panel", on: { click: stop, keydown: stop } },
      name,
      h("button", { type: "button", class: "btn btn-small", "data-testid": "rename", on: { click: () => edit({ nodeId: n.id, op: "rename", text: name.value }) } }, "Rename"),
      level,
      h("button", { type: "button", class: "btn btn-small", "data-testid": "set-level", on: { click: () => edit({ nodeId: n.id, op: "level", level: Number(level.value) }) } }, "Set level"),
      h("button", { type: "button", class: "btn btn-small", "data-testid": "merge", on: { click: () => edit({ nodeId: n.id, op: "merge" }) } }, "Merge into previous"),
      h("button", { type: "button", class: "btn btn-small", "data-testid": "not-heading", on: { click: () => edit({ nodeId: n.id, op: "not_heading" }) } }, "Not a heading"),
      err,
    );
    // The app log records the open panel (lib/shown.ts).
    markAt(panel, `heading panel: ${n.title}`, []);
    return panel;
  }

  function row(p: PaperDetail, n: TreeNode): HTMLElement | null {
    if (n.kind !== "section" && n.kind !== "segment") return null;
    const wrap = h("span", { class: "tn-edit-wrap" });
    const render = () => {
      const isOpen = openRow === n.id;
      mount(
        wrap,
        h(
          "button",
          {
            type: "button",
            class: "btn btn-quiet btn-small tn-edit-btn",
            "aria-label": n.kind === "section" ? `Correct heading ${n.title}` : "Make a line of this passage a heading",
            "aria-expanded": String(isOpen),
            "data-testid": "heading-edit-open",
            on: {
              click: (e: Event) => {
                e.stopPropagation();
                openRow = isOpen ? "" : n.id;
                render();
                if (!isOpen) focusPanel();
              },
              keydown: (e: Event) => e.stopPropagation(),
            },
          },
          "✎",
        ),
        isOpen ? headingPanel(p, n) : null,
      );
    };
    // Opened by its button: the focus goes to the panel's text box.
    const focusPanel = () => wrap.querySelector<HTMLInputElement>(".tn-edit input")?.focus();
    render();
    return wrap;
  }

  return { head, row };
}
