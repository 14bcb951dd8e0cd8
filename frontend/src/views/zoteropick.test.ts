import { afterEach, describe, expect, it, vi } from "vitest";
import type { ImportResult, ZoteroLibrary } from "../lib/api";
import { XSS, fakeApi } from "../test/fakeapi";
import { createLibrary } from "./library";

const flush = async (n = 4) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0));
};
const result = (imported: number): ImportResult => ({ source: "zotero", imported, unchanged: 0, skipped: [], collections: [], millis: 5 });
const user: ZoteroLibrary = { id: "1", type: "user", name: "My Library", items: 3 };
const group: ZoteroLibrary = { id: "7", type: "group", name: "Lab Reading Group", items: 2 };

afterEach(() => document.body.replaceChildren());

async function start(libs: ZoteroLibrary[]) {
  const importZotero = vi.fn(async () => result(5));
  const importZoteroLibrary = vi.fn(async (_dir: string, id: string) => result(id === "7" ? 2 : 3));
  const api = fakeApi({ chooseZoteroFolder: async () => "/home/r/Zotero", importZotero, zoteroLibraries: async () => libs, importZoteroLibrary });
  const root = document.createElement("div");
  document.body.appendChild(root);
  await createLibrary(root, api).refresh();
  Array.from(root.querySelectorAll<HTMLButtonElement>("button"))
    .find((b) => b.textContent === "Import from Zotero")!
    .click();
  await flush();
  return { importZotero, importZoteroLibrary, root };
}
const picker = () => document.querySelector<HTMLElement>('[data-testid="zotero-libraries"]');
const options = () => Array.from(document.querySelectorAll<HTMLInputElement>('[data-testid="zotero-library"]'));

describe("Zotero library picker", () => {
  it("is not shown for a data directory with one library", async () => {
    const { importZotero, importZoteroLibrary } = await start([user]);
    expect(picker()).toBeNull();
    expect(importZotero).toHaveBeenCalledWith("/home/r/Zotero");
    expect(importZoteroLibrary).not.toHaveBeenCalled();
  });

  it.each([
    { name: "the group", pick: 1, call: ["/home/r/Zotero", "7"], whole: false },
    { name: "the user's library", pick: 0, call: ["/home/r/Zotero", "1"], whole: false },
    { name: "every library", pick: 2, call: ["/home/r/Zotero"], whole: true },
  ])("imports $name when chosen", async ({ pick, call, whole }) => {
    const { importZotero, importZoteroLibrary } = await start([user, group]);
    expect(picker()).not.toBeNull();
    expect(options().map((o) => o.parentElement?.textContent)).toEqual(["My Library · 3 items", "Lab Reading Group (group) · 2 items", "Every library · 5 items"]);
    expect(options()[0].checked).toBe(true);
    options()[pick].click();
    document.querySelector<HTMLButtonElement>('[data-testid="zotero-library-import"]')!.click();
    await flush();
    expect(picker()).toBeNull();
    if (whole) {
      expect(importZotero).toHaveBeenCalledWith(...call);
      expect(importZoteroLibrary).not.toHaveBeenCalled();
    } else {
      expect(importZoteroLibrary).toHaveBeenCalledWith(...call);
      expect(importZotero).not.toHaveBeenCalled();
    }
  });

  it("imports nothing when cancelled with Escape", async () => {
    const { importZotero, importZoteroLibrary } = await start([user, group]);
    picker()!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await flush();
    expect(picker()).toBeNull();
    expect(importZotero).not.toHaveBeenCalled();
    expect(importZoteroLibrary).not.toHaveBeenCalled();
  });

  it("shows a group's name as text", async () => {
    await start([user, { ...group, name: XSS }]);
    expect(options()[1].parentElement?.textContent).toContain(XSS);
    expect(document.querySelector("img")).toBeNull();
  });
});
