// The Compare view end to end (issue 9): the real Go backend behind the
// Wails dev server, the real frontend in chromium. Runs after app.test.mjs
// (--test-concurrency=1) on the same app and library, in its own page.
// Builds a table for the fixture paper, checks that every cell either quotes
// a passage of that paper or says "Not found", and that clicking a cell
// highlights the passage's root-to-leaf path and opens its page like a
// citation. The Go side (Paper, Compare bindings) is the oracle.
// Issue 20: the picker's filter shows exactly the papers whose title,
// authors, year or file name hold the typed word; the table takes the full
// width until a cell opens; the paper pane opens beside it and Esc closes
// it; Enter on a focused cell opens it like a click.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FIXTURE, callGo, openApp, shot, skipUnlessUi, tid, waitFor } from "../lib/harness.mjs";

let app;

before(async () => {
  app = await openApp();
});

after(async () => {
  await app?.browser.close();
});

describe("Compare view", () => {
  test("a table whose cells open like citations", async (t) => {
    const { page, bundle } = app;
    if (skipUnlessUi(t, bundle, ["nav-compare", "compare-build", "compare-cell"], "Compare view")) return;
    await waitFor(() => page.evaluate(() => Boolean(window.go?.app?.App)), { timeout: 20000, what: "window.go.app.App" });
    const papers = await waitFor(
      async () => {
        const ps = (await callGo(page, "ListPapers")).filter((p) => p.status === "ready");
        return ps.length ? ps : null;
      },
      { what: "an indexed paper" },
    );
    const paper = papers.find((p) => p.file.endsWith(FIXTURE.paperFile)) ?? papers[0];
    await page.locator(tid("nav-compare")).click();
    const box = page.locator(`${tid("compare-paper")}[data-paper-id="${paper.id}"]`);
    await box.waitFor({ timeout: 15000 });

    // The picker's filter, against ListPapers: a word of the fixture's file
    // name shows the papers that hold it, and only those.
    const word = FIXTURE.paperFile.replace(/\.pdf$/, "").toLowerCase();
    const holds = (p) => [p.title, ...(p.authors ?? []), p.year ? String(p.year) : "", p.file.split("/").pop()].join(" ").toLowerCase().includes(word);
    const want = papers.filter(holds).map((p) => p.id).sort();
    assert.ok(want.includes(paper.id), "the fixture paper holds its own file name");
    await page.locator(tid("compare-filter")).fill(word);
    await waitFor(async () => (await page.locator(tid("compare-paper")).count()) === want.length, { timeout: 5000, what: "the filtered picker" });
    const shown = (await page.locator(tid("compare-paper")).evaluateAll((els) => els.map((e) => e.dataset.paperId))).sort();
    assert.deepEqual(shown, want, "the filter shows exactly the papers that hold the word");
    await page.locator(tid("compare-filter")).fill("zz-no-paper-has-this-zz");
    await waitFor(async () => (await page.locator(tid("compare-paper")).count()) === 0, { timeout: 5000, what: "an empty filtered picker" });
    await page.locator(tid("compare-filter")).fill(word);
    await page.locator(tid("compare-select-shown")).click();
    assert.equal(await box.isChecked(), true, "select all shown ticks the shown paper");
    await page.locator(tid("compare-clear")).click();
    assert.equal(await box.isChecked(), false, "clear unticks it");
    await page.locator(tid("compare-filter")).fill("");
    // The list scrolls vertically only (the old one overflowed sideways).
    const list = await page.locator(tid("compare-papers")).evaluate((e) => ({ sw: e.scrollWidth, cw: e.clientWidth, oy: getComputedStyle(e).overflowY }));
    assert.ok(list.sw <= list.cw + 1 && list.oy === "auto", `the picker overflows sideways: ${JSON.stringify(list)}`);
    await box.check();
    await page.locator(tid("compare-aspects")).fill("Headings; Quantum entanglement");
    await page.locator(tid("compare-build")).click();
    await page.locator(tid("compare-table")).waitFor({ timeout: 30000 });
    const cells = page.locator(tid("compare-cell"));
    assert.equal(await cells.count(), 2, "one row x two aspects");
    assert.equal(await cells.nth(1).getAttribute("data-not-found"), "true", "an aspect the paper never mentions must say so");

    // The oracle: the paper's tree from the backend; the cell's node is a leaf of it.
    const detail = await callGo(page, "Paper", paper.id);
    const parents = new Map();
    const walk = (n, p) => {
      parents.set(n.id, p);
      for (const c of n.children ?? []) walk(c, n.id);
    };
    walk(detail.root, null);
    const nodeId = await cells.nth(0).getAttribute("data-node-id");
    assert.ok(nodeId && parents.has(nodeId), `cell cites node ${nodeId}, not a node of the paper`);
    const path = [];
    for (let id = parents.get(nodeId); id; id = parents.get(id)) path.push(id);

    // No cell open: the table takes the whole width of the view.
    const side = page.locator(tid("compare-side"));
    assert.equal(await side.isVisible(), false, "the paper pane is closed before a cell is opened");
    const widths = async () =>
      page.evaluate(() => ({
        view: document.querySelector('[data-testid="compare-view"]').getBoundingClientRect().width,
        body: document.querySelector('[data-testid="compare-body"]').getBoundingClientRect().width,
      }));
    let w = await widths();
    assert.ok(w.body >= w.view - 60, `the table is not full width: ${JSON.stringify(w)}`);
    await shot(page, "9-compare-full-width");

    await cells.nth(0).click();
    // Its page opens with the passage marked (as for a citation); close it.
    await page.locator(tid("pdf-page")).waitFor({ timeout: 30000 });
    await shot(page, "9-compare-page");
    await page.keyboard.press("Escape");
    // The tree beside the table highlights exactly the cited path.
    const tree = page.locator(".compare .paper-view");
    await waitFor(async () => (await tree.locator(`[data-node-id="${nodeId}"][aria-current]`).count()) === 1, { timeout: 15000, what: "the cited leaf marked current" });
    for (const id of path) {
      const cls = await tree.locator(`[data-node-id="${id}"]`).first().getAttribute("class");
      assert.match(cls ?? "", /on-path/, `ancestor ${id} of the cited passage is not on the highlighted path`);
    }
    assert.equal(await side.isVisible(), true, "the paper pane is open beside the table");
    await shot(page, "9-compare");

    // Esc closes the pane: the table has the full width again and the focus
    // is back on the opened cell; Enter on it opens its page again.
    await page.keyboard.press("Escape");
    await waitFor(async () => !(await side.isVisible()), { timeout: 5000, what: "the pane closed by Esc" });
    w = await widths();
    assert.ok(w.body >= w.view - 60, `the table is not full width after Esc: ${JSON.stringify(w)}`);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), "compare-cell", "the focus is back on the cell");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.evaluate(() => document.activeElement?.dataset?.col), "1", "ArrowRight moves to the next cell");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Enter");
    await page.locator(tid("pdf-page")).waitFor({ timeout: 30000 });
    await page.keyboard.press("Escape");
    assert.equal(await side.isVisible(), true, "Enter opened the cell's paper in the pane");
    assert.deepEqual(app.problems, [], "console or page errors");
  });
});
