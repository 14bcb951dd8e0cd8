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

// The Wails v2.16 runtime (internal/frontend/runtime/desktop/calls.js, bundled
// into runtime_prod_desktop.js) settles a bound call like this when Go reports
// an error: JSON from the dispatcher, then `new Error(message.error)`. This is
// a verbatim copy of that branch, so the test runs on a fresh clone; the test
// below also runs the real file from the Go module cache when it is there.
function wailsCallback(incoming: string, reject: (e: unknown) => void, resolve: (v: unknown) => void) {
  const message = JSON.parse(incoming);
  if (message.error) {
    const err = message.error instanceof Error ? message.error : new Error(message.error);
    reject(err);
  } else {
    resolve(message.result);
  }
}

/** What the Go dispatcher sends for a failed call (CallbackMessage), with app.FormatError's value as error. */
function goErrorCallback(callbackid: string, formatted: unknown): string {
  return JSON.stringify({ result: null, error: formatted, callbackid });
}

/** A bound method that fails the way the production runtime makes it fail. */
function rejectingBinding(formatted: unknown): () => Promise<never> {
  return () =>
    new Promise<never>((resolve, reject) =>
      wailsCallback(goErrorCallback("App.IndexFolder-1", formatted), reject, resolve as (v: unknown) => void),
    );
}

describe("errors as the Wails production runtime delivers them", () => {
  afterEach(() => {
    delete (window as unknown as { go?: unknown }).go;
  });

  const view = { code: "invalid", message: "No PDF files were found in /home/r/empty." };

  it.each([
    // app.FormatError sends a JSON string: the message survives new Error().
    ["ErrorView as JSON text (what app.FormatError sends)", JSON.stringify(view), "invalid", view.message],
    // An object (what FormatError sent before): new Error() makes it
    // "[object Object]"; the user must never see that.
    ["ErrorView object (lost by new Error)", view, "internal", "Something went wrong."],
    ["plain string", "error parsing arguments", "internal", "error parsing arguments"],
  ])("%s", async (_n, formatted, code, message) => {
    (window as unknown as { go: unknown }).go = { app: { App: { IndexFolder: rejectingBinding(formatted) } } };
    const err = await wailsApi.indexFolder("/home/r/empty").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).code, (err as ApiError).message]).toEqual([code, message]);
    expect((err as ApiError).message).not.toContain("[object");
  });

  it("decodes the rejection of the real runtime's Callback (Go module cache)", async (ctx) => {
    const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
    const file = `${env.GOMODCACHE || `${env.HOME}/go/pkg/mod`}/github.com/wailsapp/wails/v2@v2.16.0/internal/frontend/runtime/desktop/calls.js`;
    type Calls = { Call(name: string, args: unknown[]): Promise<unknown>; Callback(msg: string): void };
    let source: string;
    try {
      const fs = (await import(/* @vite-ignore */ "node:" + "fs")) as { readFileSync(p: string, enc: string): string };
      source = fs.readFileSync(file, "utf8");
    } catch {
      ctx.skip(); // no Go module cache: the verbatim copy above still runs
      return;
    }
    // The module as the runtime bundles it: drop `export`, return the two functions.
    const calls = new Function(`${source.replace(/^export /gm, "")}\nreturn { Call, Callback };`)() as Calls;
    let sent = "";
    (window as unknown as { WailsInvoke: (m: string) => void }).WailsInvoke = (m) => (sent = m);
    const pending = calls.Call("app.App.IndexFolder", ["/home/r/empty"]);
    const { callbackID } = JSON.parse(sent.slice(1)) as { callbackID: string };
    calls.Callback(goErrorCallback(callbackID, JSON.stringify(view)));
    const err = toApiError(await pending.catch((e: unknown) => e));
    expect([err.code, err.message]).toEqual(["invalid", view.message]);
  });
});
