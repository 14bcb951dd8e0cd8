/// <reference types="vitest" />
import { defineConfig, type Plugin } from "vite";

// The CSP in index.html is strict for the built app. Vite's dev server injects
// styles as <style> elements and talks to its HMR socket, so while serving (and
// only then) this plugin widens style-src and connect-src. Production output is
// untouched.
function devCsp(): Plugin {
  return {
    name: "papertree-dev-csp",
    apply: "serve",
    transformIndexHtml(html) {
      return html
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:* http://localhost:*");
    },
  };
}

export default defineConfig({
  plugins: [devCsp()],
  build: {
    // No inline polyfill script; the webview supports modulepreload.
    modulePreload: { polyfill: false },
    sourcemap: false,
    emptyOutDir: true,
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts"],
  },
});
