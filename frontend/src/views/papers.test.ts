import { describe, expect, it } from "vitest";
import { fakeApi, xssAnswer } from "../test/fakeapi";
import { createWorkspace } from "./workspace";

describe("which-papers answers", () => {
  it("lists the papers, each with its sentence, path and citation", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    const a = xssAnswer();
    await ws.showAnswer({
      ...a,
      question: "Which papers use six-layer encoders?",
      text: "2 papers of the library state it:\n1. A: \u201cThe encoder has six layers.\u201d [1]\n2. B: \u201cIntro text about trees.\u201d [2]",
      papers: [
        { paperId: "7", title: "<img src=x onerror=alert(1)> Title", sentence: "The encoder has six layers.", path: a.evidence[0].path, pages: [3], nodeId: "105", score: 1.2, cite: 1 },
        { paperId: "7", title: "Second", sentence: "Intro text about trees.", path: a.evidence[1].path, pages: [1], nodeId: "102", score: 0.8, cite: 2 },
      ],
      diag: { ...a.diag, route: "which-papers", routeWhy: "asks for the papers that have a property" },
    });
    const items = ws.el.querySelectorAll<HTMLElement>("[data-testid=paper-finding]");
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain("The encoder has six layers.");
    expect(items[0].textContent).toContain("2.1 Encoder");
    expect(items[0].textContent).toContain("<img");
    expect(ws.el.querySelector("img")).toBeNull();
    const chip = items[1].querySelector<HTMLButtonElement>("[data-testid=citation]");
    expect(chip?.dataset.evidenceIndex).toBe("2");
    chip?.click();
    expect(ws.el.querySelector("[data-testid=paper-finding] [data-testid=citation].cite-on, .cite-on")?.textContent).toBe("2");
  });

  it("keeps the plain answer text for other answers", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    await ws.showAnswer(xssAnswer());
    expect(ws.el.querySelector("[data-testid=paper-list]")).toBeNull();
    expect(ws.el.querySelector("[data-testid=answer-text]")?.textContent).toContain("The encoder has six layers");
  });
});
