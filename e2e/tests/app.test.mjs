// The desktop app end to end (issue 4 acceptance): the real Go backend
// behind the Wails dev server, the real frontend in Debian chromium.
// The steps build on each other (one app, one library, one browser page) and
// run in order: open the library, open a paper, ask, follow a citation,
// reopen the answer from history, and the hostile-markup fixture.
//
// The Go side is used as the oracle where the UI alone cannot say what is
// right: the bound methods (window.go.app.App) tell which papers exist, which
// node ids form a paper's tree and which path an answer cites; the tests then
// check that the UI shows exactly that.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";

import { FIXTURE, XSS, callGo, env, openApp, shot, skipUnlessUi, tid, uiHas, waitFor } from "../lib/harness.mjs";

let app; // { browser, context, page, problems, bundle }
const state = { papers: [], paper: null, answer: null };

/** The library rows: by data-testid, or the first UI's markup before it had test ids. */
function rowSelector() {
  return uiHas(app.bundle, "paper-row") ? tid("paper-row") : "li.paper:not(.paper-ghost)";
}

async function rowTexts(page) {
  return page.$$eval(rowSelector(), (rows) => rows.map((r) => r.innerText));
}

/** Opens a paper from the library (its paper-open button, else the row). */
async function openPaper(page, title) {
  if (uiHas(app.bundle, "nav-library")) {
    const nav = page.locator(tid("nav-library"));
    if (await nav.isVisible()) await nav.click();
  }
  const row = page.locator(rowSelector(), { hasText: title }).first();
  await row.waitFor({ timeout: 15000 });
  const open = row.locator(tid("paper-open"));
  if (uiHas(app.bundle, "paper-open") && (await open.count())) await open.first().click();
  else await row.click();
  await page.locator(tid("tree-node")).first().waitFor({ timeout: 15000 });
}

/** Clicks a tree node's own row (its first child), not the middle of its subtree. */
async function clickNode(node) {
  await node.locator(":scope > *").first().click();
}

/** The highlighted nodes, for failure messages. */
async function highlightState(page) {
  const marked = await page.$$eval(tid("tree-node"), (els) =>
    els.filter((e) => e.classList.contains("on-path") || e.hasAttribute("aria-current")).map((e) => `${e.dataset.nodeId}${e.hasAttribute("aria-current") ? "(current)" : ""}`),
  );
  const title = await page.$$eval(tid("paper-title"), (els) => els.map((e) => e.textContent));
  return `paper ${JSON.stringify(title)}, marked nodes [${marked.join(" ")}]`;
}

/** Every node of a tree (TreeNode from the Paper binding), depth first. */
function* walk(node, parents = []) {
  yield { node, parents };
  for (const c of node.children ?? []) yield* walk(c, [...parents, node]);
}

/** Elements that would exist if PDF text had been inserted as HTML. */
async function injectedMarkup(page, root = "body") {
  return page.evaluate((sel) => {
    const scope = document.querySelector(sel) ?? document.body;
    const found = [];
    for (const img of scope.querySelectorAll("img")) {
      if (img.getAttribute("src") === "x" || img.hasAttribute("onerror")) found.push(img.outerHTML);
    }
    for (const s of document.querySelectorAll("script")) {
      if (s.textContent.includes("__xss")) found.push(s.outerHTML);
    }
    for (const el of scope.querySelectorAll("[onerror]")) found.push(el.outerHTML);
    return found;
  }, root);
}

before(async () => {
  app = await openApp();
});

after(async () => {
  await app?.browser.close();
});

describe("PaperTree desktop app", () => {
  test("the page is served by the app with live Go bindings", async () => {
    const { page } = app;
    await waitFor(() => page.evaluate(() => Boolean(window.go?.app?.App)), { timeout: 20000, what: "window.go.app.App" });
    const methods = await page.evaluate(() => Object.keys(window.go.app.App));
    for (const m of ["Info", "ListPapers", "IndexFolder"]) assert.ok(methods.includes(m), `binding ${m} missing; have ${methods}`);
    const info = await callGo(page, "Info");
    assert.equal(info.backend, true, "the app runs without its backend");
    assert.equal(info.libraryDir, env.library, "the app did not take --library");
  });

  test("1. opens the fixture library given by --library and indexes it", async () => {
    const { page } = app;
    const methods = await page.evaluate(() => Object.keys(window.go.app.App));
    let reloaded = false;
    if (methods.includes("Folders")) {
      // The library remembers the fixture folder (folders.json, written by
      // scripts/e2e.sh); the app re-scans remembered folders on start.
      const folders = await callGo(page, "Folders");
      assert.deepEqual(folders, [env.papers], "the remembered folders of the fixture library");
    } else {
      // A build without remembered folders: index the fixture folder the
      // way the "Open a folder" button does after the native dialog.
      console.log("# note: this build has no remembered folders; indexing through IndexFolder");
      await callGo(page, "IndexFolder", env.papers);
      await page.reload();
      reloaded = true;
    }
    // Backend truth: every fixture paper is listed, none still working.
    const papers = await waitFor(
      async () => {
        const ps = await callGo(page, "ListPapers");
        return ps.length === FIXTURE.count && ps.every((p) => p.status === "ready" || p.status === "failed") && ps;
      },
      { timeout: 120000, what: `${FIXTURE.count} indexed papers in ListPapers` },
    );
    state.papers = papers;
    const byFile = Object.fromEntries(papers.map((p) => [basename(p.file), p]));
    assert.equal(byFile[FIXTURE.paperFile]?.status, "ready", JSON.stringify(byFile[FIXTURE.paperFile]));
    assert.equal(byFile[XSS.file]?.status, "ready", JSON.stringify(byFile[XSS.file]));
    assert.equal(byFile[FIXTURE.encryptedFile]?.status, "failed", JSON.stringify(byFile[FIXTURE.encryptedFile]));

    // The UI: one row per paper, the encrypted file with its reason in plain words.
    if (!reloaded && !uiHas(app.bundle, "paper-row")) {
      // The first library view only listed papers on load and after its own job.
      await page.reload();
    }
    await page.waitForFunction(
      ([sel, n]) => document.querySelectorAll(sel).length === n,
      [rowSelector(), FIXTURE.count],
      { timeout: 30000 },
    );
    if (uiHas(app.bundle, "index-progress")) {
      // Finished: no progress panel left, or one that says it is done.
      await waitFor(
        () =>
          page.$$eval(tid("index-progress"), (els) =>
            els.every((e) => e.offsetParent === null || e.getAttribute("data-stage") === "done"),
          ),
        { timeout: 30000, what: "the index progress to finish" },
      );
    }
    if (uiHas(app.bundle, "paper-row")) {
      const statuses = await page.$$eval(tid("paper-row"), (rows) => rows.map((r) => [r.innerText, r.getAttribute("data-status")]));
      for (const [text, st] of statuses) assert.ok(st === "ready" || st === "failed", `row "${text}" has status ${st}`);
      const encStatus = statuses.find(([text]) => FIXTURE.encryptedReason.test(text))?.[1];
      assert.equal(encStatus, "failed", "the encrypted file's row is not marked failed");
    }
    const rows = await rowTexts(page);
    const row = (re) => rows.find((t) => re.test(t));
    assert.ok(row(new RegExp(FIXTURE.paperTitle)), `no row shows "${FIXTURE.paperTitle}": ${JSON.stringify(rows)}`);
    const enc = row(/encrypted/i) ?? row(FIXTURE.encryptedReason);
    assert.ok(enc, `no row for ${FIXTURE.encryptedFile}: ${JSON.stringify(rows)}`);
    assert.match(enc, FIXTURE.encryptedReason, "the encrypted file's row does not say why it failed");
    // The watcher's first check of the folder may queue its files again right after the index job ended
    // (they come out "unchanged"); wait for the rows to settle, then no row may show work in progress.
    const busy = /\b(queued|parsing|embedding)\b/i;
    await waitFor(async () => !busy.test((await rowTexts(page)).join("\n")), {
      timeout: 30000,
      what: "every row to show its final state",
    });
    assert.doesNotMatch((await rowTexts(page)).join("\n"), busy, "a row still shows work in progress");
    console.log(`# screenshot ${await shot(page, "1-library")}`);
  });

  test("2. opens a paper and expands a section", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["paper-row", "tree-node"], "paper view")) return;
    const { page } = app;
    const paper = state.papers.find((p) => basename(p.file) === FIXTURE.paperFile);
    assert.ok(paper, "fixture paper not indexed (step 1 failed)");
    state.paper = await callGo(page, "Paper", paper.id);

    await openPaper(page, FIXTURE.paperTitle);
    assert.match(await page.locator(tid("tree-node")).first().innerText(), /Introduction|Method/, "the tree shows no sections");

    // A section with segments, from the Go tree: "1 Introduction".
    const hit = [...walk(state.paper.root)].find(({ node }) => node.kind === "section" && /Introduction/.test(node.title));
    assert.ok(hit, "the fixture tree has no Introduction section");
    const section = hit.node;
    const segIds = (section.children ?? []).filter((c) => c.kind !== "section").map((c) => c.id);
    assert.ok(segIds.length > 0, "the Introduction has no segments");

    const node = page.locator(`${tid("tree-node")}[data-node-id="${section.id}"]`);
    await node.waitFor({ timeout: 10000 });
    assert.equal(await node.getAttribute("data-kind"), "section");
    if ((await node.getAttribute("aria-expanded")) === "true") {
      await clickNode(node); // collapse first so that the click below is an expand
      await waitFor(async () => (await node.getAttribute("aria-expanded")) === "false", { timeout: 5000, what: "collapse" });
    }
    const seg = page.locator(`${tid("tree-node")}[data-node-id="${segIds[0]}"]`);
    await clickNode(node);
    await waitFor(async () => (await node.getAttribute("aria-expanded")) === "true", { timeout: 5000, what: "aria-expanded=true" });
    await seg.waitFor({ state: "visible", timeout: 5000 });
    const segText = await seg.innerText();
    assert.match(segText, /Structured documents carry their own outline/, "the segment's text is not shown");
    console.log(`# screenshot ${await shot(page, "2-paper-tree")}`);

    // And it collapses again.
    await clickNode(node);
    await waitFor(async () => (await node.getAttribute("aria-expanded")) === "false", { timeout: 5000, what: "aria-expanded=false" });
    await seg.waitFor({ state: "hidden", timeout: 5000 });
  });

  test("2b. the tree filters as you type and works from the keyboard", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["tree-node", "tree-filter", "tree"], "tree filter and keyboard")) return;
    assert.ok(state.paper, "no paper open (step 2 failed)");
    const { page } = app;
    const titles = () =>
      page.$$eval(`${tid("tree-node")}[data-kind="section"]`, (els) => els.filter((e) => e.offsetParent !== null).map((e) => e.firstElementChild?.textContent ?? ""));
    const all = await titles();
    assert.ok(all.some((x) => /References/.test(x)), `sections before filtering: ${all}`);
    await page.locator(tid("tree-filter")).fill("Glyph Grouping");
    await waitFor(async () => {
      const now = await titles();
      return now.some((x) => /Glyph Grouping/.test(x)) && !now.some((x) => /References/.test(x));
    }, { timeout: 5000, what: "the filter to keep 2.1 Glyph Grouping and drop References", describe: async () => JSON.stringify(await titles()) });
    await page.locator(tid("tree-filter")).fill("");
    await waitFor(async () => (await titles()).length === all.length, { timeout: 5000, what: "all sections back after clearing the filter" });

    // Keyboard: focus a section's row; Left collapses, Right expands, Down moves on.
    const sec = [...walk(state.paper.root)].find(({ node }) => node.kind === "section" && /Introduction/.test(node.title)).node;
    const node = page.locator(`${tid("tree-node")}[data-node-id="${sec.id}"]`);
    await node.locator(":scope > *").first().focus();
    if ((await node.getAttribute("aria-expanded")) !== "true") {
      await page.keyboard.press("ArrowRight");
      await waitFor(async () => (await node.getAttribute("aria-expanded")) === "true", { timeout: 3000, what: "ArrowRight to expand" });
    }
    await page.keyboard.press("ArrowLeft");
    await waitFor(async () => (await node.getAttribute("aria-expanded")) === "false", { timeout: 3000, what: "ArrowLeft to collapse" });
    await page.keyboard.press("ArrowRight");
    await waitFor(async () => (await node.getAttribute("aria-expanded")) === "true", { timeout: 3000, what: "ArrowRight to expand" });
    const before = await page.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press("ArrowDown");
    const after = await page.evaluate(() => document.activeElement?.textContent);
    assert.notEqual(after, before, "ArrowDown did not move the focus");
    assert.match(after ?? "", /Structured documents carry/, "ArrowDown from a section should reach its first passage");
  });

  test("3. asks a question and gets an extractive answer with citations", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["ask-input", "ask-submit", "answer-text", "citation"], "ask")) return;
    const { page } = app;
    await page.locator(tid("ask-input")).fill(FIXTURE.question);
    await page.locator(tid("ask-submit")).click();
    const answer = page.locator(tid("answer-text"));
    await waitFor(async () => (await answer.count()) > 0 && (await answer.first().innerText()).includes(FIXTURE.answerQuote), {
      timeout: 60000,
      what: `an answer quoting "${FIXTURE.answerQuote}"`,
    });
    // No LLM is configured in the test profile: the answer must say it is extractive.
    const label = uiHas(app.bundle, "answer-mode") ? await page.locator(tid("answer-mode")).first().innerText() : await page.locator("body").innerText();
    assert.match(label, /extractive/i, "the answer is not labelled extractive");
    const chips = page.locator(tid("citation"));
    assert.ok((await chips.count()) >= 1, "the answer has no citation chip");
    // The saved answer (history) is the oracle for the next steps.
    const hist = await callGo(page, "History", 5);
    assert.ok(hist.length >= 1, "the answer was not saved in the history");
    const latest = hist[0];
    state.answer = await callGo(page, "Answer", latest.id);
    assert.equal(state.answer.question, FIXTURE.question);
    assert.equal(state.answer.mode, "extractive");
    assert.ok(state.answer.evidence.length >= 1, "the saved answer has no evidence");
    if (uiHas(app.bundle, "evidence-row")) {
      assert.equal(await page.locator(tid("evidence-row")).count(), state.answer.evidence.length, "one evidence row per saved passage");
    }
    if (uiHas(app.bundle, "diagnostics")) {
      const diag = await page.locator(tid("diagnostics")).first().innerText();
      assert.match(diag, /entropy/i, `diagnostics without section entropy: ${diag}`);
      assert.match(diag, new RegExp(`${state.answer.diag.tokensUsed}\\s*/\\s*${state.answer.diag.budget}`), `diagnostics without tokens used/budget: ${diag}`);
    }
    console.log(`# screenshot ${await shot(page, "3-answer")}`);
  });

  test("4. a citation highlights its path from the paper title to the segment", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["citation", "tree-node"], "citation path highlight")) return;
    if (skipUnlessUi(t, app.bundle, ["on-path"], "citation path highlight")) return;
    assert.ok(state.answer, "no answer (step 3 failed)");
    const { page } = app;
    // The first citation is highlighted as soon as the answer shows, so the
    // click must be seen to do something: take another passage's chip when
    // there is one, else collapse the cited section first.
    const chips = page.locator(tid("citation"));
    let chip = chips.first();
    const firstLeaf = await chips.first().getAttribute("data-node-id");
    for (let i = 0; i < (await chips.count()); i++) {
      if ((await chips.nth(i).getAttribute("data-node-id")) !== firstLeaf) {
        chip = chips.nth(i);
        break;
      }
    }
    const label = (await chip.getAttribute("data-evidence-index")) ?? (await chip.innerText());
    const n = Number(String(label).match(/\d+/)?.[0]);
    assert.ok(n >= 1 && n <= state.answer.evidence.length, `citation chip "${label}" does not name an evidence passage`);
    const ev = state.answer.evidence[n - 1];
    // The expected path comes from the paper's tree itself: the root (the
    // paper title), every section above the segment, and the segment.
    const tree = await callGo(page, "Paper", ev.paperId);
    const found = [...walk(tree.root)].find(({ node }) => node.id === ev.nodeId);
    assert.ok(found, `cited node ${ev.nodeId} is not in paper ${ev.paperId}`);
    const pathIds = [...found.parents.map((p) => p.id), ev.nodeId];
    assert.deepEqual([...ev.pathIds, ev.nodeId].slice(-pathIds.length), pathIds, "the answer's path ids disagree with the paper tree");
    if (ev.nodeId === firstLeaf && pathIds.length > 2) {
      const section = page.locator(`${tid("tree-node")}[data-node-id="${pathIds[1]}"]`);
      if ((await section.count()) === 1 && (await section.getAttribute("aria-expanded")) === "true") {
        await clickNode(section);
        await waitFor(async () => (await page.locator(`${tid("tree-node")}[data-node-id="${ev.nodeId}"]`).count()) === 0, {
          timeout: 5000,
          what: "the cited section to collapse",
        });
      }
    }
    await chip.click();

    const leaf = page.locator(`${tid("tree-node")}[data-node-id="${ev.nodeId}"]`);
    await waitFor(async () => (await leaf.count()) === 1 && (await leaf.getAttribute("aria-current")) !== null, {
      timeout: 10000,
      what: `segment ${ev.nodeId} marked aria-current`,
    });
    // Every node from the title down to the segment is on the path, and
    // expanded where it can be; no node outside the path is marked.
    const marks = await page.$$eval(tid("tree-node"), (els) =>
      els.map((e) => ({ id: e.getAttribute("data-node-id"), on: e.classList.contains("on-path"), exp: e.getAttribute("aria-expanded") })),
    );
    for (const id of pathIds) {
      const m = marks.find((x) => x.id === id);
      assert.ok(m, `path node ${id} is not in the tree view`);
      assert.ok(m.on, `path node ${id} is not marked on-path`);
      if (id !== ev.nodeId && m.exp !== null) assert.equal(m.exp, "true", `path node ${id} is not expanded`);
    }
    const stray = marks.filter((x) => x.on && !pathIds.includes(x.id)).map((x) => x.id);
    assert.deepEqual(stray, [], "nodes outside the cited path are marked on-path");
    if (uiHas(app.bundle, "paper-title")) {
      const titleMarked = await page.locator(tid("paper-title")).first().evaluate((e) => e.classList.contains("on-path"));
      assert.ok(titleMarked, "the paper title is not marked as the start of the path");
    }
    if (uiHas(app.bundle, "cited-text")) {
      assert.ok((await leaf.locator(tid("cited-text")).count()) >= 1, "the cited text is not marked in the segment");
    }
    // The segment was scrolled into view: it is on screen and not covered.
    const visible = await leaf.evaluate((el) => {
      const r = el.getBoundingClientRect();
      if (r.height === 0 || r.bottom <= 0 || r.top >= window.innerHeight) return false;
      const x = Math.min(Math.max(r.left + 8, 0), window.innerWidth - 1);
      const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 10), 0), window.innerHeight - 1);
      const at = document.elementFromPoint(x, y);
      return Boolean(at && (el === at || el.contains(at) || at.contains(el)));
    });
    assert.ok(visible, "the cited segment is not scrolled into view");
    console.log(`# screenshot ${await shot(page, "4-answer-path")}`);
  });

  test("4b. the evidence page view draws the PDF page with the passage's boxes on its text", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["evidence-page", "pdf-view", "pdf-page", "pdf-highlight"], "PDF page view")) return;
    assert.ok(state.answer, "no answer (step 3 failed)");
    const { page } = app;
    // The passage of the first citation chip, else any passage with boxes.
    const cited = await page.locator(tid("citation")).first().getAttribute("data-node-id");
    let i = state.answer.evidence.findIndex((e) => e.nodeId === cited && (e.boxes ?? []).length > 0);
    if (i < 0) i = state.answer.evidence.findIndex((e) => (e.boxes ?? []).length > 0);
    assert.ok(i >= 0, "no evidence passage of the fixture answer has stored boxes");
    const ev = state.answer.evidence[i];
    const row = page.locator(`${tid("evidence-row")}[data-evidence-index="${i + 1}"]`);
    await row.locator(tid("evidence-page")).click();
    const view = page.locator(tid("pdf-view"));
    await view.waitFor({ timeout: 15000 });
    const marks = page.locator(`${tid("pdf-page")} ${tid("pdf-highlight")}`);
    await marks.first().waitFor({ timeout: 30000 });
    const shown = Number(await marks.first().getAttribute("data-page"));
    const want = ev.boxes.filter((b) => b.page === shown);
    // Pages are shown one under the other (a passage over two pages is
    // highlighted on both): count the first page's highlights.
    const onShown = page.locator(`${tid("pdf-page")}[data-page="${shown}"] ${tid("pdf-highlight")}`);
    assert.equal(await onShown.count(), want.length, `highlights on page ${shown} vs the passage's stored boxes`);
    assert.equal(await marks.count(), ev.boxes.length, "highlights on all pages shown vs the passage's stored boxes");
    // Each box sits on ink: more than 6% of the canvas pixels under it are
    // dark (a box over a line or paragraph of the fixture measures 12-17%;
    // the same box moved 250 pt down measured 2%), and far more than in the
    // top margin.
    const ink = await page.evaluate((sel) => {
      const wrap = document.querySelector(sel);
      const canvas = wrap.querySelector("canvas");
      const ctx = canvas.getContext("2d");
      const cr = canvas.getBoundingClientRect();
      const sx = canvas.width / cr.width, sy = canvas.height / cr.height;
      const dark = (x, y, w, h) => {
        w = Math.max(1, Math.floor(w)); h = Math.max(1, Math.floor(h));
        const d = ctx.getImageData(Math.floor(x), Math.floor(y), w, h).data;
        let n = 0;
        for (let k = 0; k < d.length; k += 4) if (d[k] + d[k + 1] + d[k + 2] < 3 * 128) n++;
        return n / (w * h);
      };
      const boxes = [...wrap.querySelectorAll('[data-testid="pdf-highlight"]')].map((m) => {
        const r = m.getBoundingClientRect();
        return dark((r.left - cr.left) * sx, (r.top - cr.top) * sy, r.width * sx, r.height * sy);
      });
      return { boxes, margin: dark(2, 2, canvas.width - 4, Math.min(30, canvas.height / 20)), w: canvas.width, h: canvas.height };
    }, tid("pdf-page"));
    assert.ok(ink.w > 200 && ink.h > 200, `the page canvas is ${ink.w}x${ink.h}`);
    for (const [k, f] of ink.boxes.entries()) assert.ok(f > 0.06 && f > 4 * ink.margin, `highlight ${k} is not on text: ${(f * 100).toFixed(1)}% dark pixels (margin ${(ink.margin * 100).toFixed(1)}%)`);
    console.log(`# page ${shown}: ${want.length} highlight(s) on text (${ink.boxes.map((f) => `${(f * 100).toFixed(0)}%`).join(", ")} dark pixels)`);
    console.log(`# screenshot ${await shot(page, "4b-pdf-page")}`);
    await page.keyboard.press("Escape");
    await view.waitFor({ state: "detached", timeout: 5000 });
  });

  test("5. reopens the answer from history", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["history-row", "answer-text"], "history")) return;
    assert.ok(state.answer, "no answer (step 3 failed)");
    const { page } = app;
    // A fresh page: nothing of the answer is left in memory.
    await page.reload();
    await waitFor(() => page.evaluate(() => Boolean(window.go?.app?.App)), { timeout: 20000, what: "bindings after reload" });
    for (const nav of ["history-open", "nav-ask"]) {
      if (uiHas(app.bundle, nav)) {
        await page.locator(tid(nav)).first().click();
        break;
      }
    }
    const row = page.locator(tid("history-row"), { hasText: FIXTURE.question }).first();
    await row.waitFor({ timeout: 10000 });
    assert.equal(await row.getAttribute("data-answer-id"), state.answer.id, "the newest history row is not the saved answer");
    await row.locator("button, [role=button]").first().click();
    const answer = page.locator(tid("answer-text")).first();
    await waitFor(async () => (await answer.innerText()).includes(FIXTURE.answerQuote), { timeout: 10000, what: "the reopened answer" });
    assert.ok((await page.locator(tid("citation")).count()) >= 1, "the reopened answer lost its citations");
    // Reopening highlights the first cited passage's path again.
    const firstId = await page.locator(tid("citation")).first().getAttribute("data-node-id");
    assert.ok(state.answer.evidence.some((e) => e.nodeId === firstId), `the first chip cites ${firstId}, not in the saved evidence`);
    await waitFor(
      async () => (await page.locator(`${tid("tree-node")}[data-node-id="${firstId}"][aria-current="true"]`).count()) === 1,
      { timeout: 10000, what: `segment ${firstId} highlighted after reopening`, describe: () => highlightState(page) },
    );
    if (uiHas(app.bundle, "evidence-row")) {
      assert.equal(await page.locator(tid("evidence-row")).count(), state.answer.evidence.length, "evidence rows vs the saved evidence");
    }
    console.log(`# screenshot ${await shot(page, "5-history")}`);
  });

  test("5b. a question the papers do not answer is shown honestly", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["ask-input", "ask-submit", "answer-not-found"], "not-answered state")) return;
    const { page } = app;
    const q = "What is the boiling point of tungsten at sea level?";
    await page.locator(tid("ask-input")).fill(q);
    await page.locator(tid("ask-submit")).click();
    const box = page.locator(tid("answer-not-found"));
    await box.first().waitFor({ timeout: 60000 });
    const saved = (await callGo(page, "History", 1))[0];
    assert.equal(saved.question, q);
    const full = await callGo(page, "Answer", saved.id);
    assert.equal(full.notFound, true, "the saved answer is not marked not-found");
    // The box and the reply speak of the scope asked: one selected paper is "this paper".
    const one = (full.paperIds ?? []).length === 1;
    assert.match(await box.first().innerText(), one ? /not answered by this paper/i : /not answered by these papers/i);
    assert.match(full.text, one ? /^This paper does not seem to answer/ : /^These papers do not seem to answer/);
  });

  test("6. PDF text with HTML markup is shown as text and runs nothing", async () => {
    const { page } = app;
    // The detectors below must be able to fail: in a scratch page without
    // the app's CSP, the same markup inserted as HTML is found and runs.
    const scratch = await app.context.newPage();
    try {
      await scratch.setContent(`<div id="probe"></div>`);
      await scratch.evaluate((html) => { document.getElementById("probe").innerHTML = html; }, XSS.title);
      assert.ok((await injectedMarkup(scratch)).length > 0, "the injected-markup detector is blind");
      await scratch.waitForFunction(() => window.__xss === 1, null, { timeout: 5000 });
    } finally {
      await scratch.close();
    }
    await page.evaluate(() => { window.__cspViolations.length = 0; });

    // The library lists the paper by its hostile title, as literal text.
    if (!(await page.locator(rowSelector()).count())) await page.reload();
    await page.locator(rowSelector()).first().waitFor({ timeout: 15000 });
    const xssRow = page.locator(rowSelector(), { hasText: XSS.title });
    await xssRow.first().waitFor({ timeout: 10000 });
    assert.ok(await xssRow.first().isVisible(), "the title with markup is not visible as text");
    const checks = [];

    // The paper view shows the body payload as text, when there is one.
    if (uiHas(app.bundle, "tree-node")) {
      await openPaper(page, XSS.title);
      if (uiHas(app.bundle, "paper-title")) {
        assert.match(await page.locator(tid("paper-title")).first().innerText(), /onerror="window\.__xss=1"/, "the paper title with markup is not shown as text");
      }
      const paper = state.papers.find((p) => basename(p.file) === XSS.file);
      const tree = await callGo(page, "Paper", paper.id);
      const intro = [...walk(tree.root)].find(({ node }) => node.kind === "section" && /Introduction/.test(node.title))?.node;
      assert.ok(intro, "the markup fixture has no Introduction section");
      const node = page.locator(`${tid("tree-node")}[data-node-id="${intro.id}"]`);
      if ((await node.getAttribute("aria-expanded")) !== "true") await clickNode(node);
      const leaf = page.locator(`${tid("tree-node")}[data-kind="segment"]`, { hasText: XSS.body }).first();
      await leaf.waitFor({ state: "visible", timeout: 10000 });
      checks.push("paper view");
    }
    // An extractive answer quoting the payload shows it as text, too.
    if (uiHas(app.bundle, "ask-input") && uiHas(app.bundle, "answer-text")) {
      await page.locator(tid("ask-input")).fill("Which sentence must appear with its angle brackets intact?");
      await page.locator(tid("ask-submit")).click();
      await waitFor(async () => (await page.locator(tid("answer-text")).first().innerText()).includes("window.__xss"), {
        timeout: 60000,
        what: "an answer quoting the markup",
      });
      checks.push("answer");
    }
    await page.waitForTimeout(500); // let any (wrongly) inserted image fail to load
    assert.deepEqual(await injectedMarkup(page), [], "PDF text was inserted as HTML");
    assert.equal(await page.evaluate(() => typeof window.__xss), "undefined", "a payload from the PDF ran");
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], "the page tried to run or load something the CSP blocked");
    console.log(`# markup shown as text in: library${checks.map((c) => `, ${c}`).join("")}`);
    console.log(`# screenshot ${await shot(page, "6-markup-as-text")}`);
  });

  test("7. the library follows PDFs added to and removed from the watched folder", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["paper-row", "folders"], "watched folders")) return;
    const { page } = app;
    if (!(await page.locator(rowSelector()).count())) {
      await page.locator(tid("nav-library")).click();
      await page.locator(rowSelector()).first().waitFor({ timeout: 15000 });
    }
    const before = await page.locator(rowSelector()).count();
    // A real PDF under a new name (backend/pdf/testdata/rotated.pdf).
    const added = join(env.papers, "watched-added.pdf");
    copyFileSync(join(env.root, "backend/pdf/testdata/rotated.pdf"), added);
    try {
      const paper = await waitFor(async () => (await callGo(page, "ListPapers")).find((p) => p.file === added), {
        timeout: 60000,
        what: "the watcher to index the added PDF",
      });
      // The list updates by itself (library:changed), no reload.
      await page.locator(`${rowSelector()}[data-paper-id="${paper.id}"]`).waitFor({ timeout: 15000 });
      assert.equal(await page.locator(rowSelector()).count(), before + 1);
      console.log(`# screenshot ${await shot(page, "7-library-watched")}`);
    } finally {
      rmSync(added, { force: true });
    }
    await waitFor(async () => (await page.locator(rowSelector()).count()) === before, {
      timeout: 60000,
      what: "the removed PDF's row to go",
    });
  });

  test("7b. ranked search opens a paper at its passage; Remove with Undo; a removed file stays out of its folder until added back", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["paper-row", "search-hit", "paper-remove", "undo-remove", "removed-item"], "ranked search and remove")) return;
    const { page } = app;
    await page.locator(tid("nav-library")).click();
    await page.locator(rowSelector()).first().waitFor({ timeout: 15000 });
    const paper = (await callGo(page, "ListPapers")).find((p) => p.title === FIXTURE.paperTitle);
    assert.ok(paper, "the fixture paper is not in the library");

    // Ranked search: the fixture paper first, its passage's words marked, and
    // clicking it opens the paper with that node highlighted.
    const box = page.locator(tid("library-search"));
    await box.fill("glyph grouping baseline");
    const first = page.locator(tid("search-hit")).first();
    await first.waitFor({ timeout: 15000 });
    assert.equal(await first.getAttribute("data-paper-id"), paper.id, "the fixture paper is not ranked first");
    assert.ok((await first.locator("mark.hit-mark").count()) > 0, "the snippet marks no matched word");
    const nodeId = await first.getAttribute("data-node-id");
    assert.ok(nodeId, "the first hit names no node");
    await first.locator(tid("hit-open")).click();
    const node = page.locator(`${tid("tree-node")}[data-node-id="${nodeId}"]`);
    await node.waitFor({ timeout: 15000 });
    await waitFor(async () => (await node.getAttribute("class"))?.includes("on-path") || (await node.getAttribute("aria-current")) !== null, {
      timeout: 10000,
      what: "the matched node to be highlighted",
      describe: () => highlightState(page),
    });
    console.log(`# screenshot ${await shot(page, "7b-search-opened")}`);

    // Remove, then Undo: the row goes at once and comes back.
    await page.locator(tid("nav-library")).click();
    await page.locator(tid("library-search")).fill("");
    const row = page.locator(`${rowSelector()}[data-paper-id="${paper.id}"]`);
    await row.locator(tid("paper-remove")).click();
    await page.locator(tid("undo-remove")).waitFor({ timeout: 10000 });
    await row.waitFor({ state: "detached", timeout: 10000 });
    assert.ok(!(await callGo(page, "ListPapers")).some((p) => p.id === paper.id), "ListPapers still lists the paper being removed");
    console.log(`# screenshot ${await shot(page, "7b-remove-undo")}`);
    await page.locator(tid("undo-remove")).getByText("Undo", { exact: true }).click();
    await row.waitFor({ timeout: 10000 });
    assert.deepEqual(await callGo(page, "RemovedFiles"), [], "an undone removal was written");

    // Remove for good (the undo time passes): a re-index of the watched
    // folder leaves the file out; Add back indexes it again.
    await row.locator(tid("paper-remove")).click();
    await waitFor(async () => (await callGo(page, "RemovedFiles")).some((r) => r.file === paper.file), { timeout: 30000, what: "the removal to be written" });
    await callGo(page, "ReindexAll");
    assert.ok(!(await callGo(page, "ListPapers")).some((p) => p.file === paper.file), "the folder re-index brought the removed file back");
    const item = page.locator(tid("removed-item"), { hasText: FIXTURE.paperTitle });
    await waitFor(async () => (await item.count()) > 0, { timeout: 15000, what: "the removed paper in the library's foot" });
    const details = page.locator(tid("removed-papers"));
    if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
    // Enabled once no index job runs (the re-index's watcher job may follow it).
    await item.first().locator("button", { hasText: "Add back" }).click({ timeout: 60000 });
    await waitFor(async () => (await callGo(page, "ListPapers")).some((p) => p.file === paper.file && p.status === "ready"), { timeout: 60000, what: "the paper to be added back" });
    await page.locator(`${rowSelector()}`, { hasText: FIXTURE.paperTitle }).first().waitFor({ timeout: 15000 });
    assert.deepEqual(await callGo(page, "RemovedFiles"), [], "added back but still listed as removed");
  });

  test("8. settings: a failed connection test says what failed; the API key is never stored in plain text next to the library", async (t) => {
    if (skipUnlessUi(t, app.bundle, ["settings-open", "settings-dialog", "set-llm.provider", "set-api-key", "llm-test", "llm-status", "settings-save"], "settings")) return;
    const { page } = app;
    const key = `sk-e2e-${Math.random().toString(36).slice(2)}-not-a-real-key`;
    const deadURL = "http://127.0.0.1:9/v1"; // discard port: nothing listens
    await page.locator(tid("settings-open")).click();
    const dialog = page.locator(tid("settings-dialog"));
    await dialog.waitFor({ timeout: 10000 });
    assert.equal(await page.locator(tid("set-llm.provider")).inputValue(), "none", "a fresh profile should have no LLM");
    await page.locator(tid("set-llm.provider")).selectOption("openai");
    if (await page.locator(tid("set-llm.base_url")).count()) await page.locator(tid("set-llm.base_url")).fill(deadURL);
    await page.locator(tid("set-api-key")).fill(key);
    await page.locator(tid("llm-test")).click();
    const status = page.locator(tid("llm-status"));
    const said = await waitFor(async () => {
      const txt = (await status.innerText()).trim();
      return txt && !/^Testing/i.test(txt) && txt;
    }, { timeout: 30000, what: "the connection test result" });
    assert.match(said, /127\.0\.0\.1:9|refused|not reach|cannot reach|could not connect|unreachable/i, `the connection test does not say what failed: ${said}`);
    assert.ok(!said.includes(key), "the connection test shows the API key");
    await page.locator(tid("settings-save")).click();
    await waitFor(async () => /Saved/.test(await dialog.innerText()), { timeout: 15000, what: "Saved." });
    console.log(`# screenshot ${await shot(page, "8-settings")}`);

    // Where did the key go? Never into the library folder or the settings
    // file; only into a file that only the user can read (or the keyring).
    const files = (dir) =>
      readdirSync(dir, { recursive: true })
        .map((f) => join(dir, f))
        .filter((f) => statSync(f).isFile());
    const holders = files(env.work).filter((f) => readFileSync(f).includes(key));
    for (const f of holders) {
      assert.ok(!f.startsWith(env.library + "/"), `the API key is in the library folder: ${f}`);
      assert.ok(!/settings\.json$/.test(f), `the API key is in the settings file: ${f}`);
      assert.equal(statSync(f).mode & 0o077, 0, `the file holding the API key is readable by others: ${f}`);
    }
    const view = await callGo(page, "GetSettings");
    assert.equal(view.apiKeySet, true, "the app does not know it has a key");
    assert.ok(holders.length > 0 || /keyring/i.test(view.keyWhere), `the key is neither in a private file nor in the keyring (${view.keyWhere})`);
    console.log(`# API key kept in: ${holders.map((f) => f.slice(env.work.length + 1)).join(", ") || view.keyWhere}`);

    // Back to no LLM; clearing the key removes it from disk.
    const cur = (await callGo(page, "GetSettings")).settings;
    cur.llm.provider = "none";
    cur.llm.base_url = "";
    await callGo(page, "SaveSettings", { settings: cur, apiKey: "", clearKey: true });
    assert.equal((await callGo(page, "GetSettings")).apiKeySet, false, "the API key was not cleared");
    assert.deepEqual(files(env.work).filter((f) => readFileSync(f).includes(key)), [], "the cleared API key is still on disk");
    await page.locator(tid("settings-close")).click();
  });

  test("no page errors during the session", () => {
    assert.deepEqual(app.problems, []);
  });
});
