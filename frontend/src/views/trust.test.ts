import { describe, expect, it } from "vitest";
import { fakeApi, xssAnswer, xssPaper } from "../test/fakeapi";
import { createTreeView } from "./tree";
import { createWorkspace } from "./workspace";

describe("trust in evidence", () => {
  it("labels not-found passages as closest, but not an answer", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    await ws.showAnswer({ ...xssAnswer(), paperIds: [], text: "These papers do not seem to answer this question.", notFound: true });
    expect(ws.el.querySelector("[data-testid=answer-not-found]")?.textContent).toContain("Not in these papers");
    const rows = ws.el.querySelectorAll("[data-testid=evidence-closest]");
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toBe("closest, but not an answer");
    expect(ws.el.querySelector("[data-testid=answer-verdict]")).toBeNull();
  });

  it("says 'this paper' when the question was asked of one paper", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    await ws.showAnswer({ ...xssAnswer(), paperIds: ["3"], text: "This paper does not seem to answer this question.", notFound: true });
    const box = ws.el.querySelector("[data-testid=answer-not-found]")?.textContent ?? "";
    expect(box).toContain("Not in this paper");
    expect(box).toContain("Not answered by this paper");
    expect(box).not.toContain("these papers");
  });

  it.each([
    ["yes", "Yes"],
    ["no", "No"],
    ["unclear", "Unclear from the evidence"],
  ])("shows the %s verdict", async (verdict, text) => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    await ws.showAnswer({ ...xssAnswer(), question: "Does the encoder have six layers?", verdict });
    const v = ws.el.querySelector<HTMLElement>("[data-testid=answer-verdict]");
    expect(v?.dataset.verdict).toBe(verdict);
    expect(v?.textContent).toContain(text);
    expect(ws.el.querySelectorAll("[data-testid=evidence-closest]")).toHaveLength(0);
  });

  it("marks the quoted sentence inside its passage", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    const a = xssAnswer();
    a.evidence[0].text = "Some context first. The encoder has six layers. More context after.";
    await ws.showAnswer({ ...a, text: "The encoder has six layers. [1]" });
    const marks = ws.el.querySelectorAll("[data-testid=evidence-quote]");
    expect(marks).toHaveLength(1);
    expect(marks[0].textContent).toBe("The encoder has six layers.");
    expect(marks[0].parentElement?.textContent).toBe("Some context first. The encoder has six layers. More context after.");
  });

  it("shows no verdict for other questions", async () => {
    const ws = createWorkspace(fakeApi(), { onBack() {} });
    await ws.showAnswer(xssAnswer());
    expect(ws.el.querySelector("[data-testid=answer-verdict]")).toBeNull();
  });

  it("shows node roles as small badges in the tree", () => {
    const p = xssPaper();
    p.root.children.push({ id: "110", kind: "section", role: "references", title: "References", number: "", level: 1, text: "", pageStart: 9, pageEnd: 9, boxes: [], children: [] });
    p.root.children[0].role = "";
    const t = createTreeView();
    t.show(p);
    const badges = t.el.querySelectorAll<HTMLElement>("[data-testid=node-role]");
    expect(badges).toHaveLength(1);
    expect(badges[0].dataset.role).toBe("references");
    expect(badges[0].textContent).toBe("References");
  });

  it("names a paper without a title by its file, as the library list does", () => {
    const p = xssPaper();
    p.title = " ";
    p.root.title = "";
    p.file = "/lib/turing1936_on_computable_numbers.pdf";
    const t = createTreeView();
    t.show(p);
    expect(t.el.querySelector("[data-testid=paper-title]")?.textContent).toBe("turing1936_on_computable_numbers.pdf");
  });
});
