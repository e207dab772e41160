// `make lint`'s type check of browserx's JavaScript (tsc --strict --allowJs --checkJs --noEmit, JSDoc types).
// The extension's files are checked as they are, one program per place they run (the service
// worker and the scripts it imports, the popup, the options page), with chrome's types. The page
// snippets under host/browserx are not scripts (snippet.mjs): each is wrapped into .gen/ line for
// line, checked there against host/browserx/page_api.d.ts and snippets.d.ts, and every message is
// printed with the snippet file's own path, line and column. No file of either is minified: a line
// longer than MAX_LINE characters fails the check too.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { wrap } from "./snippet.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const HOST = join(REPO, "host", "browserx");
const EXTENSION = join(HOST, "extension"); // the browser extension: scripts, not page snippets
const GEN = join(HERE, ".gen");
const TSC = join(HERE, "node_modules", "typescript", "bin", "tsc");
const MAX_LINE = 160;

/** @param {string} dir @returns {string[]} */
function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsFiles(path) : name.endsWith(".js") ? [path] : [];
  });
}

rmSync(GEN, { recursive: true, force: true });
/** @type {Map<string, {source: string, line: number, shift: number}>} generated path → where it came from */
const origin = new Map();
for (const path of jsFiles(HOST).filter((p) => !p.startsWith(EXTENSION))) {
  const name = relative(HOST, path).split("\\").join("/");
  const out = wrap(name, readFileSync(path, "utf8"), { module: true });
  const target = join(GEN, name);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, out.text);
  origin.set(relative(REPO, target), { source: relative(REPO, path), line: out.line, shift: out.shift });
}

// Every message fails the check. Where a snippet reads the DOM by duck typing (a `host` or
// `contentDocument` of whatever element it holds), it says so with a JSDoc cast
// (`/** @type {HTMLIFrameElement} */ (el)`), not an instanceof: a node of another frame's document
// is of that frame's realm, and fails this realm's instanceof.
/** @type {string[]} */ const messages = [];

// Source, not minified: every line of a snippet or an extension script a reader can take in.
for (const path of jsFiles(HOST)) {
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
  for (const message of output.split(/\n(?=\S)/).filter((m) => m.trim())) {
    // tools/js/.gen/actions/x.js(3,40): error ... → host/browserx/actions/x.js(3,10): error ...
    const where = /^(\S+?)\((\d+),(\d+)\)/.exec(message);
    const from = where && origin.get(where[1]);
    let text = message;
    if (from) {
      const line = Number(where[2]), col = Number(where[3]);
      const c = line === from.line ? Math.max(1, col - from.shift) : col;
      text = `${from.source}(${line},${c})` + message.slice(where[0].length);
    }
    messages.push(text);
  }
}
for (const m of messages) console.log(m);
process.exit(messages.length ? 1 : 0);
