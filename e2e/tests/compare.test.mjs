// The Compare view end to end (issue 9): the real Go backend behind the
// Wails dev server, the real frontend in chromium. Runs after app.test.mjs
// (--test-concurrency=1) on the same app and library, in its own page.
// Builds a table for the fixture paper, checks that every cell either quotes
// a passage of that paper or says "Not found", and that clicking a cell
// highlights the passage's root-to-leaf path and opens its page like a
// citation. The Go side (Paper, Compare bindings) is the oracle.

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
    await shot(page, "9-compare");
    assert.deepEqual(app.problems, [], "console or page errors");
  });
});
