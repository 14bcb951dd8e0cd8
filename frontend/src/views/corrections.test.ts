import { describe, expect, it, vi } from "vitest";
import type { Corrections, HeadingEditInput, PaperDetail } from "../lib/api";
import { ApiError } from "../lib/api";
import { fakeApi, xssPaper, XSS } from "../test/fakeapi";
import { changedFields, createCorrections, currentValues, describeHeadingEdit } from "./corrections";
import { createLibrary } from "./library";
import { createTreeView } from "./tree";

const flush = () => new Promise((r) => setTimeout(r, 0));
const none: Corrections = { paperId: "7", fields: [], headings: [] };

function setup(over: Parameters<typeof fakeApi>[0] = {}, paper: PaperDetail = xssPaper()) {
  const reloads: string[] = [];
  const errors: string[] = [];
  const api = fakeApi({
    editPaper: vi.fn(async () => none),
    revertEdit: vi.fn(async () => none),
    editHeading: vi.fn(async () => none),
    undoHeadingEdit: vi.fn(async () => none),
    ...over,
  });
  const t = createTreeView({
    editor: createCorrections(api, {
      reload: async (id) => {
        reloads.push(id);
      },
      onError: (m) => errors.push(m),
    }),
  });
  document.body.replaceChildren(t.el);
  t.show(paper);
  const q = <T extends HTMLElement>(sel: string) => t.el.querySelector<T>(sel);
  return { api, t, q, reloads, errors };
}

describe("corrections helpers", () => {
  it.each([
    ["nothing changed", {}, {}],
    ["a changed title only", { title: "New" }, { title: "New" }],
    ["spaces do not count", { title: "  Old  " }, {}],
    ["a cleared year", { year: "" }, { year: "" }],
  ])("%s", (_name, edits, want) => {
    const start = { title: "Old", authors: "A; B", year: "2020", venue: "", doi: "", key: "" };
    expect(changedFields(start, { ...start, ...edits })).toEqual(want);
  });
  it("describes each heading correction", () => {
    expect(describeHeadingEdit({ op: "rename", target: "2 Methd", arg: "2 Method", level: 0 })).toBe("Renamed “2 Methd” to “2 Method”");
    expect(describeHeadingEdit({ op: "level", target: "2.1 X", arg: "", level: 1 })).toBe("Moved “2.1 X” to level 1");
    expect(describeHeadingEdit({ op: "not_heading", target: "Table 3", arg: "", level: 0 })).toBe("“Table 3” is not a heading");
  });
  it("starts the form from what the paper shows", () => {
    expect(currentValues({ ...xssPaper(), year: 0, citationKey: "k1" })).toMatchObject({ year: "", key: "k1", authors: xssPaper().authors.join("; ") });
  });
});

describe("edit details form", () => {
  it("sends only the changed fields and shows the paper again", async () => {
    const { api, q, reloads } = setup();
    q<HTMLButtonElement>('[data-testid="edit-paper"]')!.click();
    const title = q<HTMLInputElement>('[data-testid="edit-title"]')!;
    expect(title.value).toBe(`${XSS} Title`); // as text, never markup
    title.value = "A Corrected Title";
    q<HTMLInputElement>('[data-testid="edit-year"]')!.value = "2019";
    q<HTMLFormElement>('[data-testid="edit-form"]')!.dispatchEvent(new Event("submit", { cancelable: true }));
    await flush();
    expect(api.editPaper).toHaveBeenCalledWith("7", { title: "A Corrected Title", year: "2019" });
    expect(reloads).toEqual(["7"]);
  });
  it("says so when nothing changed, and shows the Go side's refusal", async () => {
    const refuse = vi.fn(async () => Promise.reject(new ApiError("invalid", "A year is four digits, such as 2019 (got \"19\").")));
    const { api, q, errors } = setup({ editPaper: refuse });
    q<HTMLButtonElement>('[data-testid="edit-paper"]')!.click();
    const submit = () => q<HTMLFormElement>('[data-testid="edit-form"]')!.dispatchEvent(new Event("submit", { cancelable: true }));
    submit();
    expect(q('[data-testid="edit-error"]')!.textContent).toBe("Nothing changed.");
    expect(api.editPaper).not.toHaveBeenCalled();
    q<HTMLInputElement>('[data-testid="edit-year"]')!.value = "19";
    submit();
    await flush();
    expect(q('[data-testid="edit-error"]')!.textContent).toContain("four digits");
    expect(errors).toHaveLength(1);
  });
  it("lists corrections with revert and undo; an unmatched one says so; PDF text stays text", async () => {
    const p = xssPaper();
    p.corrections = {
      paperId: "7",
      fields: [{ field: "title", value: `${XSS} fixed`, read: `${XSS} Title` }],
      headings: [
        { id: "3", op: "rename", target: "2 Methd", arg: `2 Method ${XSS}`, level: 0, unmatched: false },
        { id: "4", op: "level", target: "2.9 Gone", arg: "", level: 1, unmatched: true },
      ],
    };
    const { api, q, t } = setup({}, p);
    expect(t.el.querySelectorAll('[data-testid="field-edit"]')).toHaveLength(1);
    expect(t.el.querySelector("img")).toBeNull();
    expect(q('[data-testid="corrections-summary"]')!.textContent).toBe("3 corrections by you · 1 not applied");
    expect(q<HTMLDetailsElement>("details.edit-box")!.open).toBe(true); // one needs attention
    const items = t.el.querySelectorAll<HTMLElement>('[data-testid="heading-edit"]');
    expect(items[1].textContent).toContain("not applied");
    expect(items[1].textContent).toContain("no longer in it");
    q<HTMLButtonElement>('[data-testid="revert-field"]')!.click();
    items[0].querySelector<HTMLButtonElement>('[data-testid="undo-heading"]')!.click();
    await flush();
    expect(api.revertEdit).toHaveBeenCalledWith("7", "title");
    expect(api.undoHeadingEdit).toHaveBeenCalledWith("7", "3");
  });
});

describe("heading actions in the tree", () => {
  const cases: [string, (panel: HTMLElement) => void, HeadingEditInput][] = [
    [
      "rename",
      (panel) => {
        panel.querySelector<HTMLInputElement>('[data-testid="rename-text"]')!.value = "1 Background";
        panel.querySelector<HTMLButtonElement>('[data-testid="rename"]')!.click();
      },
      { nodeId: "101", op: "rename", text: "1 Background" },
    ],
    [
      "level",
      (panel) => {
        panel.querySelector<HTMLSelectElement>('[data-testid="level-select"]')!.value = "2";
        panel.querySelector<HTMLButtonElement>('[data-testid="set-level"]')!.click();
      },
      { nodeId: "101", op: "level", level: 2 },
    ],
    ["merge", (panel) => panel.querySelector<HTMLButtonElement>('[data-testid="merge"]')!.click(), { nodeId: "101", op: "merge" }],
    ["not a heading", (panel) => panel.querySelector<HTMLButtonElement>('[data-testid="not-heading"]')!.click(), { nodeId: "101", op: "not_heading" }],
  ];
  it.each(cases)("%s", async (_name, act, want) => {
    const { api, t, reloads } = setup();
    const row = t.el.querySelector<HTMLElement>('[data-node-id="101"]')!;
    row.querySelector<HTMLButtonElement>('[data-testid="heading-edit-open"]')!.click();
    expect(row.getAttribute("aria-expanded")).toBe("false"); // the button does not toggle the section
    const panel = row.querySelector<HTMLElement>('[data-testid="heading-panel"]')!;
    act(panel);
    await flush();
    expect(api.editHeading).toHaveBeenCalledWith("7", want);
    expect(reloads).toEqual(["7"]);
  });
  it("makes a passage's first line a heading", async () => {
    const { api, t } = setup();
    t.toggle("101");
    const leaf = t.el.querySelector<HTMLElement>('[data-node-id="102"]')!;
    leaf.querySelector<HTMLButtonElement>('[data-testid="heading-edit-open"]')!.click();
    expect(leaf.querySelector<HTMLInputElement>('[data-testid="promote-line"]')!.value).toBe("Intro text about trees.");
    leaf.querySelector<HTMLButtonElement>('[data-testid="promote"]')!.click();
    await flush();
    expect(api.editHeading).toHaveBeenCalledWith("7", { nodeId: "102", op: "promote", text: "Intro text about trees." });
  });
  it("marks corrected headings and has no controls without the corrections api", () => {
    const p = xssPaper();
    p.root.children[0].edited = true;
    const t = createTreeView({ editor: createCorrections(fakeApi(), { reload: async () => {}, onError: () => {} }) });
    t.show(p);
    expect(t.el.querySelectorAll('[data-testid="edited-mark"]')).toHaveLength(1);
    expect(t.el.querySelector('[data-testid="heading-edit-open"]')).toBeNull();
    expect(t.el.querySelector('[data-testid="edit-paper"]')).toBeNull();
  });
});

describe("library list", () => {
  it("marks edited papers, and says when corrections were not applied", async () => {
    const base = { authors: [], year: 2019, pages: 3, status: "ready", code: "", message: "", stale: false };
    const api = fakeApi({
      listPapers: async () => [
        { ...base, id: "1", title: "Corrected", file: "/a.pdf", edited: ["title", "year", "key"], citationKey: "k1", headingEdits: 0, unmatchedEdits: 0 },
        { ...base, id: "2", title: "Changed file", file: "/b.pdf", edited: [], headingEdits: 2, unmatchedEdits: 1 },
        { ...base, id: "3", title: "Untouched", file: "/c.pdf" },
      ],
    });
    const el = document.createElement("div");
    document.body.replaceChildren(el);
    await createLibrary(el, api).refresh();
    const marks = el.querySelectorAll<HTMLElement>('[data-testid="paper-edited"]');
    expect(marks).toHaveLength(2);
    expect(marks[0].textContent).toBe("edited");
    expect(marks[0].title).toBe("corrected title, year, key");
    expect(el.querySelector<HTMLElement>(".tag-key")!.title).toBe("Citation key (your correction)");
    expect(marks[1].textContent).toBe("edited · 1 not applied");
  });
});

describe("opening a correction", () => {
  it("puts the focus in the first field of Edit details and in a heading's text box", async () => {
    const { q, t } = setup();
    q<HTMLButtonElement>('[data-testid="edit-paper"]')!.click();
    expect(document.activeElement).toBe(q('[data-testid="edit-title"]'));
    t.el.querySelector<HTMLButtonElement>('[data-testid="heading-edit-open"]')!.click();
    const panel = q('[data-testid="heading-panel"]')!;
    expect(document.activeElement).toBe(panel.querySelector("input"));
  });
});
