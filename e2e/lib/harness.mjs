// Shared plumbing of the end-to-end tests: where the app and the fixtures
// are (scripts/e2e.sh exports them), the browser (Debian chromium through
// playwright-core: never a downloaded browser), selectors by data-testid
// (docs/ui-testids.md), and the rule that decides "not built yet" (skip)
// versus "broken" (fail).
//
// That rule: a test skips a step only when the served frontend bundle does
// not contain the data-testid the step needs, i.e. the UI part does not exist
// in this build. If the bundle has it but the element never shows up, the
// step fails. So a skip can never hide a regression of a shipped feature.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the tests with scripts/e2e.sh (make e2e)`);
  return v;
}

export const env = {
  url: need("E2E_URL"),
  papers: need("E2E_PAPERS"),
  library: need("E2E_LIBRARY"),
  shots: process.env.E2E_SHOTS || "build/e2e",
  root: process.env.E2E_ROOT || new URL("../..", import.meta.url).pathname,
  home: process.env.E2E_HOME || "", // the app's private HOME (XDG dirs inside)
  work: process.env.E2E_WORK || "", // everything the run wrote: library, papers, home, settings
};

/** The hostile strings of e2e/xsspdf (keep in sync with its constants). */
export const XSS = {
  title: `<img src=x onerror="window.__xss=1">`,
  body: `<script>window.__xss=2</script>`,
  file: "markup-injection.pdf",
};

/** The fixture papers (copied from backend/pdf/testdata by scripts/e2e.sh). */
export const FIXTURE = {
  paperTitle: "Recovering Paper Structure from Glyphs",
  paperFile: "twocolumn.pdf",
  encryptedFile: "encrypted.pdf",
  // The plain-words reason backend/pdf gives for encrypted files.
  encryptedReason: /password-protected/i,
  question: "How are glyphs grouped into words?",
  // A sentence of the fixture the extractive answer must quote.
  answerQuote: "group them into words on one baseline",
  count: 3,
};

export const BROWSER_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/**
 * Starts chromium with a fresh profile (launchPersistentContext would keep
 * one; a plain launch uses a new temporary user-data-dir every time) and
 * opens the app page. Console errors and page errors are collected so that
 * tests can assert there were none.
 */
export async function openApp() {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: BROWSER_ARGS, headless: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  // Record CSP violations from the first script on: an injected inline
  // handler or script would be blocked by the CSP and show up here.
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI || "inline"} ${e.sample || ""}`);
    });
  });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => {
    // Wails' own dev-server client (/wails/ipc.js, a bundled Svelte
    // overlay) throws in chromium; that is not the app's code.
    if (/\/wails\/ipc\.js/.test(e.stack ?? "")) return;
    problems.push(`page error: ${e.message}\n${e.stack ?? ""}`);
  });
  page.on("console", (m) => {
    if (m.type() === "error" && !/favicon|Failed to load resource/.test(m.text())) problems.push(`console error: ${m.text()}`);
  });
  await page.goto(env.url, { waitUntil: "load" });
  const bundle = await page.evaluate(async () => {
    const srcs = [...document.querySelectorAll("script[src]")].map((s) => s.src);
    const texts = await Promise.all(srcs.map((s) => fetch(s).then((r) => r.text(), () => "")));
    return texts.join("\n");
  });
  return { browser, context, page, problems, bundle };
}

/** A CSS selector for a data-testid. */
export const tid = (id) => `[data-testid="${id}"]`;

/** Whether the served frontend has a data-testid at all (see the rule above). */
export function uiHas(bundle, id) {
  return bundle.includes(`"${id}"`) || bundle.includes(`'${id}'`) || bundle.includes(`\`${id}\``);
}

/**
 * Skips t with a message naming the missing UI parts when the bundle lacks
 * any of ids; returns true when the caller should stop.
 */
export function skipUnlessUi(t, bundle, ids, what) {
  const missing = ids.filter((id) => !uiHas(bundle, id));
  if (missing.length === 0) return false;
  const msg = `${what}: not in this build's UI yet (no data-testid ${missing.join(", ")})`;
  console.log(`# SKIP ${msg}`);
  t.skip(msg);
  return true;
}

/** Calls a bound Go method of App from the page (window.go.app.App). */
export function callGo(page, method, ...args) {
  return page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);
}

/**
 * Polls fn (async, returns a truthy value when done) until timeout; on
 * timeout the error says what was awaited and, with describe, the state.
 */
export async function waitFor(fn, { timeout = 60000, interval = 250, what = "condition", describe = null } = {}) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) {
      const state = describe ? `; ${await describe().catch((e) => `(describe failed: ${e.message})`)}` : "";
      throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})${state}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** Saves a screenshot of the page under build/e2e/NAME.png and returns its path. */
export async function shot(page, name) {
  mkdirSync(env.shots, { recursive: true });
  const path = join(env.shots, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
