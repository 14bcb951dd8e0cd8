import "./style.css";
import { wailsApi } from "./lib/api";
import { createCompareView } from "./views/compare";
import { createLibrary } from "./views/library";
import { openSettings } from "./views/settings";
import { createShell } from "./views/shell";
import { createWorkspace } from "./views/workspace";
import { watchDisplayed } from "./lib/shown";

const root = document.getElementById("app");
if (root) {
  const shell = createShell(root);
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
  void library.refresh();
  // Every error the page shows (role="alert", any view) goes to the app log.
  watchDisplayed(document.body, (kind, text) => wailsApi.logDisplayed?.(kind, text));
}
