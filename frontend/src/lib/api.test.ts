import { afterEach, describe, expect, it } from "vitest";
import { ApiError, toApiError, wailsApi } from "./api";

describe("toApiError", () => {
  it("keeps the Go side's code and message", () => {
    const e = toApiError({ code: "encrypted", message: "This PDF is password-protected." });
    expect(e).toBeInstanceOf(ApiError);
    expect(e.code).toBe("encrypted");
    expect(e.message).toBe("This PDF is password-protected.");
  });

  it.each([
    ["plain string from Wails", "error parsing arguments", "internal", "error parsing arguments"],
    ["JS error", new TypeError("x is undefined"), "internal", "x is undefined"],
    ["object without message", { code: "invalid" }, "internal", "Something went wrong."],
    ["nothing", undefined, "internal", "Something went wrong."],
  ])("%s", (_n, input, code, message) => {
    const e = toApiError(input);
    expect([e.code, e.message]).toEqual([code, message]);
  });
});

describe("wailsApi outside the app", () => {
  afterEach(() => {
    delete (window as unknown as { go?: unknown }).go;
  });

  it("rejects with a clear error when the backend is not connected", async () => {
    await expect(wailsApi.listPapers()).rejects.toMatchObject({ code: "unavailable" });
    expect(wailsApi.onIndexProgress(() => {})).toBeTypeOf("function");
  });

  it("calls the bound Go method and normalises its rejection", async () => {
    (window as unknown as { go: unknown }).go = {
      app: {
        App: {
          ListPapers: () => Promise.resolve(null),
          IndexFolder: (dir: string) => Promise.reject({ code: "invalid", message: `No PDF files were found in ${dir}.` }),
        },
      },
    };
    await expect(wailsApi.listPapers()).resolves.toEqual([]);
    await expect(wailsApi.indexFolder("empty")).rejects.toMatchObject({
      code: "invalid",
      message: "No PDF files were found in empty.",
    });
  });
});
