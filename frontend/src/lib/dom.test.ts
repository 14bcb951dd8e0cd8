import { describe, expect, it, vi } from "vitest";
import { h, isSafeUrl, mount, svg } from "./dom";

const XSS = "<img src=x onerror=alert(1)>";

describe("h", () => {
  it("inserts hostile text as text, never as markup", () => {
    const el = h("p", { class: "title" }, XSS);
    expect(el.textContent).toBe(XSS);
    expect(el.querySelector("img")).toBeNull();
    expect(el.childNodes).toHaveLength(1);
    expect(el.firstChild?.nodeType).toBe(Node.TEXT_NODE);
    // Serialised, the markup characters are escaped.
    expect(el.innerHTML).toBe("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("keeps hostile attribute values inert", () => {
    const el = h("span", { title: `"><script>alert(1)</script>` }, "x");
    expect(el.getAttribute("title")).toBe(`"><script>alert(1)</script>`);
    expect(el.querySelector("script")).toBeNull();
    expect(el.children).toHaveLength(0);
  });

  it("flattens nested children and skips empty ones", () => {
    const el = h("ul", null, [h("li", null, "a"), null, false, [h("li", null, "b", 2)]], undefined);
    expect(Array.from(el.children).map((c) => c.textContent)).toEqual(["a", "b2"]);
  });

  it("attaches listeners from the on map", () => {
    const fn = vi.fn();
    const b = h("button", { on: { click: fn } }, "go");
    b.click();
    expect(fn).toHaveBeenCalledOnce();
    expect(b.getAttribute("onclick")).toBeNull();
  });

  it("maps booleans to present or absent attributes", () => {
    expect(h("button", { disabled: true }).hasAttribute("disabled")).toBe(true);
    expect(h("button", { disabled: false }).hasAttribute("disabled")).toBe(false);
  });

  it.each([
    ["inline handler", { onclick: "alert(1)" }],
    ["inline handler, odd case", { OnMouseOver: "alert(1)" }],
    ["style attribute", { style: "background:url(javascript:alert(1))" }],
    ["srcdoc", { srcdoc: XSS }],
    ["javascript URL", { href: "javascript:alert(1)" }],
    ["javascript URL with tab", { href: "java\tscript:alert(1)" }],
    ["data URL in src", { src: "data:text/html,<script>alert(1)</script>" }],
  ])("refuses %s", (_name, attrs) => {
    expect(() => h("a", attrs as Record<string, string>)).toThrow(/refusing/);
  });
});

describe("isSafeUrl", () => {
  it.each([
    ["#section-3", true],
    ["/assets/logo.svg", true],
    ["./page.html", true],
    ["paper.pdf", true],
    ["https://aclanthology.org/P19-1001.pdf", true],
    ["mailto:a@b.org", true],
    ["javascript:alert(1)", false],
    [" JavaScript:alert(1)", false],
    ["vbscript:x", false],
    ["data:text/html;base64,PHNjcmlwdD4=", false],
    ["//evil.example/x.js", false],
  ])("%s -> %s", (url, ok) => {
    expect(isSafeUrl(url)).toBe(ok);
  });
});

describe("svg and mount", () => {
  it("creates SVG elements in the SVG namespace", () => {
    const s = svg("svg", { viewBox: "0 0 1 1" }, svg("circle", { r: 1 }));
    expect(s.namespaceURI).toBe("http://www.w3.org/2000/svg");
    expect(s.firstElementChild?.tagName).toBe("circle");
  });

  it("replaces existing children, text stays text", () => {
    const root = h("div", null, h("b", null, "old"));
    mount(root, XSS, h("i", null, "new"));
    expect(root.querySelector("b")).toBeNull();
    expect(root.querySelector("img")).toBeNull();
    expect(root.textContent).toBe(XSS + "new");
  });
});
