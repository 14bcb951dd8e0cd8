import { afterEach, describe, expect, it } from "vitest";
import { markAt, watchDisplayed } from "./shown";

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

describe("markAt", () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
  /** A button laid out at x,y (w x h): jsdom has no layout, so its box is given. */
  const target = (x: number, y: number, w = 40, h = 20) => {
    const b = document.createElement("button");
    b.getBoundingClientRect = () => ({ left: x, top: y, width: w, height: h, right: x + w, bottom: y + h, x, y, toJSON: () => ({}) }) as DOMRect;
    return b;
  };
  afterEach(() => document.body.replaceChildren());

  it("adds where each target in the window sits, and leaves out one outside it or not laid out", async () => {
    const el = document.createElement("section");
    const inside = target(100, 200);
    const below = target(100, window.innerHeight + 50);
    const hidden = target(0, 0, 0, 0);
    el.append(inside, below, hidden);
    document.body.append(el);
    markAt(el, "answer: 1 evidence", [
      ["export md", () => inside],
      ["two-page chip", () => below],
      ["page chip", () => hidden],
      ["missing", () => null],
    ]);
    expect(el.getAttribute("data-shown")).toBe("answer: 1 evidence");
    await frame();
    expect(el.getAttribute("data-shown")).toBe("answer: 1 evidence; export md at 120,210");
  });

  it("measures a record made before its view was in the page once watchDisplayed sees it there", async () => {
    const got: string[] = [];
    const stop = watchDisplayed(document.body, (_k, t) => got.push(t));
    const ul = document.createElement("ul");
    const row = target(300, 400);
    ul.append(row);
    markAt(ul, "history: 1 answers", [["first open", () => row]]);
    await frame(); // built, not shown: nothing to measure yet
    expect(ul.getAttribute("data-shown")).toBe("history: 1 answers");
    document.body.append(ul);
    await tick();
    await frame();
    await tick();
    stop();
    expect(got).toEqual(["history: 1 answers", "history: 1 answers; first open at 320,410"]);
  });

  it("lets the latest record of an element win over an older one's late updates", async () => {
    // jsdom has no IntersectionObserver: a stand-in whose callbacks the test
    // calls, as the browser does when a target enters or leaves the view.
    const observers: { cb: IntersectionObserverCallback; targets: Element[] }[] = [];
    class FakeIO {
      targets: Element[] = [];
      constructor(cb: IntersectionObserverCallback) {
        observers.push({ cb, targets: this.targets });
      }
      observe(t: Element) {
        this.targets.push(t);
      }
      disconnect() {}
    }
    const saved = (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
    (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIO;
    try {
      const see = (o: (typeof observers)[number]) =>
        o.cb(o.targets.map((target) => ({ target, isIntersecting: true, intersectionRatio: 1 }) as unknown as IntersectionObserverEntry), {} as IntersectionObserver);
      const el = document.createElement("ul");
      const a = target(10, 10);
      const b = target(50, 60);
      el.append(a, b);
      document.body.append(el);
      markAt(el, "paper view: Old title", [["edit details", () => a]]);
      await frame();
      see(observers[0]);
      expect(el.getAttribute("data-shown")).toBe("paper view: Old title; edit details at 30,20");
      markAt(el, "paper view: New title", [["edit details", () => b]]); // the view re-rendered into el
      await frame();
      see(observers[1]);
      document.dispatchEvent(new Event("scroll")); // a scroll re-measures every live record
      await frame();
      see(observers[0]); // a late update of the old record
      expect(el.getAttribute("data-shown")).toBe("paper view: New title; edit details at 70,70");
    } finally {
      (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = saved;
    }
  });
});
