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
  };
  const obs = new MutationObserver(scan);
  obs.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["data-shown"] });
  scan();
  return () => obs.disconnect();
}
