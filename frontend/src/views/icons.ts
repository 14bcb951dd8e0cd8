// Small inline icons, built with the safe DOM helpers (no HTML strings).
import { svg } from "../lib/dom";

function icon(size: number, ...paths: SVGElement[]): SVGElement {
  return svg(
    "svg",
    { width: size, height: size, viewBox: "0 0 24 24", fill: "none", "aria-hidden": "true", class: "icon" },
    ...paths,
  );
}

const stroke = { stroke: "currentColor", "stroke-width": 1.8, "stroke-linecap": "round", "stroke-linejoin": "round" };

/** The PaperTree mark: a root with sections and leaves. */
export function logo(size = 28): SVGElement {
  return svg(
    "svg",
    { width: size, height: size, viewBox: "0 0 48 48", "aria-hidden": "true", class: "logo" },
    svg("rect", { x: 1, y: 1, width: 46, height: 46, rx: 11, fill: "#2f6b5a" }),
    svg("path", {
      d: "M24 15v7.5M15 32V22.5h18V28M28 33.5V28h9.5v5.5",
      stroke: "#f7f6f2",
      "stroke-width": 2.6,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
      fill: "none",
    }),
    svg("circle", { cx: 24, cy: 11.5, r: 4.4, fill: "#f7f6f2" }),
    svg("rect", { x: 10.8, y: 31, width: 8.4, height: 6.2, rx: 1.5, fill: "#f7f6f2" }),
    svg("rect", { x: 24.6, y: 33, width: 6.8, height: 5.2, rx: 1.3, fill: "#e8c07a" }),
    svg("rect", { x: 34.2, y: 33, width: 6.8, height: 5.2, rx: 1.3, fill: "#e8c07a" }),
  );
}

export function folderIcon(size = 18): SVGElement {
  return icon(size, svg("path", { ...stroke, d: "M3 7.5A1.5 1.5 0 0 1 4.5 6h4l2 2h9A1.5 1.5 0 0 1 21 9.5v8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" }));
}

export function treeIcon(size = 18): SVGElement {
  return icon(
    size,
    svg("path", { ...stroke, d: "M12 7v4M6 17v-6h12v6" }),
    svg("circle", { ...stroke, cx: 12, cy: 5, r: 2 }),
    svg("rect", { ...stroke, x: 4, y: 17, width: 4, height: 3, rx: 0.8 }),
    svg("rect", { ...stroke, x: 16, y: 17, width: 4, height: 3, rx: 0.8 }),
  );
}

export function askIcon(size = 18): SVGElement {
  return icon(
    size,
    svg("path", { ...stroke, d: "M4 5.5A1.5 1.5 0 0 1 5.5 4h13A1.5 1.5 0 0 1 20 5.5v9a1.5 1.5 0 0 1-1.5 1.5H10l-4 4v-4h-.5A1.5 1.5 0 0 1 4 14.5z" }),
    svg("path", { ...stroke, d: "M8.5 8.5h7M8.5 11.5h4.5" }),
  );
}

export function docIcon(size = 18): SVGElement {
  return icon(
    size,
    svg("path", { ...stroke, d: "M7 3.5h7l4 4v12a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1v-15a1 1 0 0 1 1-1z" }),
    svg("path", { ...stroke, d: "M14 3.5v4h4M9 12h6M9 15h6" }),
  );
}
