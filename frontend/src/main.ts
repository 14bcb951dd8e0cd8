import "./style.css";
import { wailsApi } from "./lib/api";
import { createCompareView } from "./views/compare";
import { createLibrary } from "./views/library";
import { openSettings } from "./views/settings";
import { createShell } from "./views/shell";
import { createWorkspace } from "./views/workspace";
import { watchDisplayed } from "./lib/shown";
import { createLlmBanner } from "./views/llmbanner";

const root = document.getElementById("app");
if (root) {
  const shell = createShell(root);
  // Says so while the configured LLM server does not answer (views/llmbanner.ts).
  shell.page.before(createLlmBanner(wailsApi).el);
  const libraryEl = document.createElement("div");
  const compare = createCompareView(wailsApi);
  const show = (view: "library" | "workspace" | "compare") => {
    shell.page.replaceChildren(view === "library" ? libraryEl : view === "compare" ? compare.el : workspace.el);
    shell.page.classList.toggle("page-workspace", view !== "library");
    if (view === "compare") void compare.open([]);
  };
  // onEdited: a correction changes the list too (title, year, "edited" mark).
  const workspace = createWorkspace(wailsApi, { onBack: () => show("library"), onEdited: () => void library.refresh() });
  const library = createLibrary(libraryEl, wailsApi, {
    openPaper: (id) => {
      show("workspace");
      void workspace.openPaper(id);
    },
    openPaperAt: (id, nodeId) => {
      show("workspace");
      void workspace.openPaperAt(id, nodeId);
    },
    ask: (selected) => {
      workspace.openAsk(selected);
      show("workspace");
    },
  });
  shell.onSettings(() =>
    openSettings(document.body, wailsApi, {
      onReindex: () => {
        show("library");
        void wailsApi
          .reopenLibrary()
          .then(() => wailsApi.reindexAll())
          .catch(() => {})
          .finally(() => void library.refresh());
      },
    }),
  );
  shell.onNav((v) => show(v));
  show("library");
  wailsApi.info().then(shell.setInfo, () => shell.setInfo(null));
  // The status bar follows the LLM watch too, so it never says "offline" while a server answers.
  let llmEvents = 0;
  wailsApi.onLlmHealth?.((x) => {
    llmEvents++;
    shell.setLlm(x);
  });
  void wailsApi.llmHealth?.().then((x) => {
    if (!llmEvents) shell.setLlm(x); // an event that came meanwhile is newer
  }, () => {});
  void library.refresh();
  // Every error the page shows (role="alert", any view) goes to the app log.
  watchDisplayed(document.body, (kind, text) => wailsApi.logDisplayed?.(kind, text));
}
