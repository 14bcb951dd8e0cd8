// Records what the page shows as an error: every element with role="alert"
// (error notices in every view) that appears or changes its text is reported
// once to log, e.g. Api.logDisplayed, which writes it to the app log. Tests of
// the production binary read that log to check what a researcher saw. The
// same goes for elements carrying a data-shown record (kind "view"): a
// which-papers answer shown as a list, a comparison table, an opened page.

/** The element's text nodes joined by spaces (blocks read apart, as on screen). */
function textOf(el: Element): string {
  const parts: string[] = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) parts.push(n.nodeValue ?? "");
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

/**
 * Watches root for alerts; returns a function that stops watching. An alert
 * re-rendered with the same text (views re-mount on every state change) is
 * not reported again while it stays on screen.
 */
export function watchDisplayed(root: Element, log: (kind: "error" | "view", text: string) => void): () => void {
  let shown = new Set<string>();
  const scan = () => {
    const now = new Set<string>();
    for (const el of Array.from(root.querySelectorAll('[role="alert"]'))) {
      const t = textOf(el);
      if (t === "") continue;
      now.add(t);
      if (!shown.has(t)) log("error", t);
    }
    // Views mark what they render in a form tests must see (a list of
    // papers, a comparison table, an opened page) with data-shown.
    for (const el of Array.from(root.querySelectorAll("[data-shown]"))) {
      const t = "view:" + (el.getAttribute("data-shown") ?? "");
      if (t === "view:") continue;
      now.add(t);
      if (!shown.has(t)) log("view", t.slice(5));
    }
    shown = now;
    startPending();
  };
  const obs = new MutationObserver(scan);
  obs.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["data-shown"] });
  scan();
  return () => obs.disconnect();
}

/** The latest markAt call on an element: an older call's updates are dropped (views re-render into the same element). */
const marks = new WeakMap<HTMLElement, number>();

/**
 * Records with targets re-measure when anything scrolls (a target that
 * stays in view moves with its pane): one listener for all, each record's
 * measure runs once per frame and drops out when its record is replaced.
 */
const measures = new Set<{ current(): boolean; measure(): void }>();
let scrollFrame = 0;
function onScroll() {
  if (scrollFrame) return;
  scrollFrame = requestAnimationFrame(() => {
    scrollFrame = 0;
    for (const m of Array.from(measures)) {
      if (m.current()) m.measure();
      else measures.delete(m);
    }
  });
}

/**
 * Records made while their view was out of the page (views are built before
 * they are shown): measured once it is in the page, when watchDisplayed
 * sees the page change. At most the newest 100 wait (a view re-rendered
 * while hidden leaves old ones that never come back).
 */
const pending = new Set<{ el: HTMLElement; mine: number; start(): void }>();
function startPending() {
  for (const p of Array.from(pending)) {
    if (!p.el.isConnected) continue;
    pending.delete(p);
    if (marks.get(p.el) === p.mine) p.start();
  }
}

/** A click target of a record: its name in the record and how to find it once laid out. */
export type MarkTarget = [name: string, find: () => HTMLElement | null | undefined];

/**
 * Sets el's data-shown record to what, then, once the page is laid out, adds
 * where each target sits in the window: "; NAME at X,Y" (its centre, in CSS
 * pixels from the window's top left), so a test of the production binary
 * can click it. Only a target wholly in view is named (a click elsewhere
 * would miss or hit what covers it): an IntersectionObserver, which counts
 * the clipping of scrolled panes, says which; the record is updated when a
 * target comes into view or leaves it (a view shown later, a pane
 * scrolled). Targets are looked up once laid out, in the page as mounted,
 * not in the one being replaced; a later markAt on el replaces this one.
 */
export function markAt(el: HTMLElement, what: string, targets: MarkTarget[]) {
  const mine = (marks.get(el) ?? 0) + 1;
  marks.set(el, mine);
  const current = () => el.isConnected && marks.get(el) === mine;
  el.setAttribute("data-shown", what);
  if (targets.length === 0) return;
  const start = () =>
    requestAnimationFrame(() => {
      if (marks.get(el) !== mine) return;
      if (!el.isConnected) {
        pending.add({ el, mine, start });
        if (pending.size > 100) pending.delete(pending.values().next().value!);
        return;
      }
      watch(el, what, targets, current);
    });
  start();
}

/** Measures el's targets now and whenever they come into view, leave it or move. */
function watch(el: HTMLElement, what: string, targets: MarkTarget[], current: () => boolean) {
  const found = targets.map(([name, find]) => [name, find()] as const).filter((t): t is readonly [string, HTMLElement] => !!t[1]?.isConnected);
  const inView = new Map<Element, boolean>();
  let io: IntersectionObserver | null = null;
  const measure = () => {
    const at: string[] = [];
    for (const [name, t] of found) {
      const r = t.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      const x = Math.round(r.left + r.width / 2);
      const y = Math.round(r.top + r.height / 2);
      // With an observer, only what it saw wholly in view; without (jsdom), what is inside the window.
      const visible = io ? inView.get(t) === true : x >= 0 && y >= 0 && x <= window.innerWidth && y <= window.innerHeight;
      if (visible) at.push(`; ${name} at ${x},${y}`);
    }
    const next = what + at.join("");
    if (el.getAttribute("data-shown") !== next) el.setAttribute("data-shown", next);
  };
  if (typeof IntersectionObserver === "undefined") {
    measure();
    return;
  }
  io = new IntersectionObserver(
    (entries) => {
      if (!current()) {
        io?.disconnect();
        return;
      }
      for (const e of entries) inView.set(e.target, e.isIntersecting && e.intersectionRatio >= 0.99);
      measure();
    },
    { threshold: [0, 0.99, 1] },
  );
  for (const m of Array.from(measures)) if (!m.current()) measures.delete(m);
  if (measures.size === 0) document.addEventListener("scroll", onScroll, { capture: true, passive: true });
  measures.add({ current, measure });
  for (const [, t] of found) io.observe(t);
}
