// eslint over browserx's JavaScript (`make lint`): eslint:recommended, the globals of where each
// file runs. The page snippets (host/browserx/**/*.js) are linted wrapped (snippet.mjs), with each
// message moved back to the file's own line and column.
import js from "@eslint/js";
import globals from "globals";
import { wrap } from "./snippet.mjs";

/** @type {Map<string, {line: number, shift: number}>} */
const wrapped = new Map();

const snippets = {
  meta: { name: "browserx-snippets" },
  /** @param {string} text @param {string} filename */
  preprocess(text, filename) {
    const name = filename.split(/[\\/]host[\\/]browserx[\\/]/).pop().split("\\").join("/");
    const out = wrap(name, text);
    wrapped.set(filename, out);
    return [{ text: out.text, filename: "wrapped.snippetjs" }];
  },
  /** @param {import("eslint").Linter.LintMessage[][]} messages @param {string} filename */
  postprocess(messages, filename) {
    const out = wrapped.get(filename);
    return messages[0].map((m) => {
      if (!out) return m;
      const fix = (/** @type {number} */ line, /** @type {number} */ col) => (line === out.line ? Math.max(1, col - out.shift) : col);
      const moved = { ...m, column: fix(m.line, m.column) };
      if (m.endLine !== undefined && m.endColumn !== undefined) moved.endColumn = fix(m.endLine, m.endColumn);
      delete moved.fix; // a fix's offsets are the wrapped text's
      return moved;
    });
  },
  supportsAutofix: false,
};

export default [
  { ignores: ["tools/js/node_modules/**", "tools/js/.gen/**", "tests/**", "bench/**", "demo/**"] },
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
    ignores: ["host/browserx/extension/**"], // the extension's scripts are scripts, not page snippets
    processor: snippets,
  },
  {
    files: ["**/*.snippetjs"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser, __bxSnippet: "readonly" } },
    rules: {
      ...js.configs.recommended.rules,
      "no-empty": ["error", { allowEmptyCatch: true }], // a frame of another origin: `try { ... } catch (e) {}`
      // The wrapper's names (__bxWrapped, __bxSnippet's placeholders) and the snippets' own `catch (e)`.
      "no-unused-vars": ["error", { varsIgnorePattern: "^__", argsIgnorePattern: "^\\$$", caughtErrors: "none" }],
    },
  },
  {
    files: ["tools/js/*.mjs", "tools/js/test/*.mjs"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
