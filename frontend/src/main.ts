import "./style.css";
import { wailsApi } from "./lib/api";
import { createLibrary } from "./views/library";
import { createShell } from "./views/shell";

const root = document.getElementById("app");
if (root) {
  const shell = createShell(root);
  const library = createLibrary(shell.page, wailsApi);
  wailsApi.info().then(shell.setInfo, () => shell.setInfo(null));
  void library.refresh();
}
