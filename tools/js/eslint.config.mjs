// eslint over browserx's JavaScript (`make lint`): eslint:recommended, the globals of where each
// file runs: the extension's scripts, the page library's modules (host/browserx/**/*.js, ES modules
// run in a page), the tools.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["tools/js/node_modules/**", "host/browserx/**/*.gen.js", "tests/**", "bench/**", "demo/**"] },
  {
    files: ["host/browserx/extension/**/*.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser, ...globals.webextensions } },
    rules: { ...js.configs.recommended.rules, "no-empty": ["error", { allowEmptyCatch: true }] },
  },
  {
    files: ["service-worker.js", "allowlist.js", "controls.js", "asks.js", "site_guard.js", "relay.js", "cdp.js", "tabs.js"]
      .map((f) => `host/browserx/extension/${f}`),
    languageOptions: { globals: { ...globals.serviceworker, ...globals.webextensions } },
  },
  {
    files: ["host/browserx/**/*.js"],
    ignores: ["host/browserx/extension/**", "host/browserx/**/*.gen.js"], // scripts; the built library
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      ...js.configs.recommended.rules,
      "no-empty": ["error", { allowEmptyCatch: true }], // a frame of another origin: `try { ... } catch (e) {}`
      "no-unused-vars": ["error", { caughtErrors: "none" }], // the modules' own `catch (e)`
    },
  },
  {
    files: ["tools/js/*.mjs", "tools/js/test/*.mjs"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
