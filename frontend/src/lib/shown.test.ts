import { describe, expect, it } from "vitest";
import { watchDisplayed } from "./shown";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("watchDisplayed", () => {
  it("reports each alert once while it stays on screen", async () => {
    const root = document.createElement("div");
    const got: string[] = [];
    const stop = watchDisplayed(root, (_k, t) => got.push(t));
    const alert = (text: string) => {
      const el = document.createElement("section");
      el.setAttribute("role", "alert");
      el.innerHTML = `<p>${text}</p>  <button>Dismiss</button>`;
      return el;
    };
    root.replaceChildren(alert("No PDF files were found in /x."));
    await tick();
    root.replaceChildren(alert("No PDF files were found in /x.")); // re-render
    await tick();
    const status = document.createElement("p");
    status.setAttribute("role", "status");
    status.textContent = "Added 2 papers.";
    root.replaceChildren(status);
    await tick();
    root.replaceChildren(alert("The library could not be read."));
    await tick();
    stop();
    expect(got).toEqual(["No PDF files were found in /x. Dismiss", "The library could not be read. Dismiss"]);
  });

  it("reports view records (data-shown) as kind view, also when set after rendering", async () => {
    const root = document.createElement("div");
    const got: string[] = [];
    const stop = watchDisplayed(root, (k, t) => got.push(`${k}: ${t}`));
    const ol = document.createElement("ol");
    ol.setAttribute("data-shown", "which-papers list: 3 papers");
    root.replaceChildren(ol);
    await tick();
    const table = document.createElement("table");
    root.replaceChildren(table);
    await tick();
    table.setAttribute("data-shown", "compare table: 2 papers x 3 aspects, 6 cells with evidence; first cell at 300,320");
    await tick();
    stop();
    expect(got).toEqual(["view: which-papers list: 3 papers", "view: compare table: 2 papers x 3 aspects, 6 cells with evidence; first cell at 300,320"]);
  });
});
