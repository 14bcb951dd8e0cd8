// Safe DOM building for the whole frontend.
//
// SECURITY: text that comes from PDFs (titles, authors, headings, passages) and
// from file names is untrusted. It must never be interpreted as HTML. This module
// is the only place that creates elements, and it inserts every string as a Text
// node (the equivalent of setting textContent), so `<img src=x onerror=...>` in a
// paper title is shown as those characters and never becomes an element.
// Do not use innerHTML, outerHTML, insertAdjacentHTML or document.write with data
// anywhere in the frontend; build nodes with h() and svg() instead.

/** A child is a node, a string (always inserted as text) or nothing. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** Attribute values; event handlers go in `on`, never as "on*" attributes. */
export type Attrs = {
  [name: string]: string | number | boolean | null | undefined | Record<string, EventListener>;
  on?: Record<string, EventListener>;
};

const SAFE_URL = /^(?:#|\/(?!\/)|\.\.?\/|[a-z0-9._-]+(?:[/?#]|$)|(?:https?|mailto|wails):)/i;

/** Reports whether a URL may be put into href/src: relative paths and a few safe schemes only. */
export function isSafeUrl(url: string): boolean {
  const trimmed = url.trim();
  // Control characters and whitespace inside a scheme can smuggle "javascript:".
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return false;
  return SAFE_URL.test(trimmed);
}

function setAttrs(el: Element, attrs: Attrs): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "on") {
      for (const [event, fn] of Object.entries(value as Record<string, EventListener>)) {
        el.addEventListener(event, fn);
      }
      continue;
    }
    if (/^on/i.test(name)) {
      throw new Error(`dom: refusing inline event attribute "${name}"; use the "on" map`);
    }
    if (/^(?:srcdoc|style)$/i.test(name)) {
      throw new Error(`dom: refusing attribute "${name}"`);
    }
    if (value === null || value === undefined || value === false) continue;
    const str = value === true ? "" : String(value);
    if (/^(?:href|src|action|formaction|xlink:href)$/i.test(name) && !isSafeUrl(str)) {
      throw new Error(`dom: refusing unsafe URL in "${name}"`);
    }
    el.setAttribute(name, str);
  }
}

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
    return;
  }
  if (typeof child === "string" || typeof child === "number") {
    parent.appendChild(document.createTextNode(String(child)));
    return;
  }
  parent.appendChild(child);
}

/** Creates an HTML element. Strings among the children become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) setAttrs(el, attrs);
  for (const c of children) append(el, c);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Creates an SVG element (icons). Same rules as h(). */
export function svg(tag: string, attrs?: Attrs | null, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  if (attrs) setAttrs(el, attrs);
  for (const c of children) append(el, c);
  return el;
}

/** Replaces all children of el; strings become text nodes. */
export function mount(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  for (const c of children) append(el, c);
}
