// `make lint`'s type check of browserx's JavaScript (tsc --strict --allowJs --checkJs --noEmit, JSDoc types).
// The extension's files are checked as they are, one program per place they run (the service
// worker and the scripts it imports, the popup, the options page), with chrome's types; the page
// library's modules (host/browserx/**/*.js) as one program of ES modules, each against
// host/browserx/page_api.d.ts and snippets.d.ts. No file of either is minified: a line longer than
// MAX_LINE characters fails the check too. Then the committed library (page/library.gen.js) must
// be what the modules build to (build.mjs).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { OUT, library } from "./build.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const HOST = join(REPO, "host", "browserx");
const TSC = join(HERE, "node_modules", "typescript", "bin", "tsc");
const MAX_LINE = 160;

/** @param {string} dir @returns {string[]} */
function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsFiles(path) : name.endsWith(".js") ? [path] : [];
  });
}

// Every message fails the check. Where a snippet reads the DOM by duck typing (a `host` or
// `contentDocument` of whatever element it holds), it says so with a JSDoc cast
// (`/** @type {HTMLIFrameElement} */ (el)`), not an instanceof: a node of another frame's document
// is of that frame's realm, and fails this realm's instanceof.
/** @type {string[]} */ const messages = [];

// Source, not minified: every line of a snippet or an extension script a reader can take in.
for (const path of jsFiles(HOST).filter((p) => !p.endsWith(".gen.js"))) {
  readFileSync(path, "utf8").split("\n").forEach((line, i) => {
    if (line.length > MAX_LINE) {
      messages.push(`${relative(REPO, path)}(${i + 1},${MAX_LINE + 1}): error: a line of ${line.length} characters ` +
        `(at most ${MAX_LINE}: browserx's JavaScript is source, never minified)`);
    }
  });
}
for (const project of ["tsconfig.snippets.json", "tsconfig.worker.json", "tsconfig.popup.json", "tsconfig.options.json"]) {
  let output = "";
  try {
    execFileSync(process.execPath, [TSC, "-p", join(HERE, project), "--pretty", "false"], { cwd: REPO, encoding: "utf8" });
  } catch (e) {
    output = String(e.stdout || "") + String(e.stderr || "");
    if (!output) throw e;
  }
  // One message: its first line and the indented ones after it.
  messages.push(...output.split(/\n(?=\S)/).filter((m) => m.trim()));
}
if (readFileSync(OUT, "utf8") !== await library()) {
  messages.push(`${relative(REPO, OUT)}: not what the page modules build to; run \`make page-library\``);
}
for (const m of messages) console.log(m);
process.exit(messages.length ? 1 : 0);
