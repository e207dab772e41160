// `make lint`'s type check of browserx's JavaScript (tsc --allowJs --checkJs --noEmit, JSDoc types).
// The extension's files are checked as they are, one program per place they run (the service
// worker and the scripts it imports, the popup, the options page), with chrome's types. The page
// snippets under host/browserx are not scripts (snippet.mjs): each is wrapped into .gen/ line for
// line, checked there against host/browserx/page_api.d.ts and snippets.d.ts, and every message is
// printed with the snippet file's own path, line and column.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { wrap } from "./snippet.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const HOST = join(REPO, "host", "browserx");
const GEN = join(HERE, ".gen");
const TSC = join(HERE, "node_modules", "typescript", "bin", "tsc");

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
for (const path of jsFiles(HOST)) {
  const name = relative(HOST, path).split("\\").join("/");
  const out = wrap(name, readFileSync(path, "utf8"), { module: true });
  const target = join(GEN, name);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, out.text);
  origin.set(relative(REPO, target), { source: relative(REPO, path), line: out.line, shift: out.shift });
}

// Snippets whose bodies still read the DOM by duck typing past what their declared types say (a
// `host` or `contentDocument` of an Element, a Node's attributes): their messages are printed but
// do not fail the check yet. Their contract (snippets.d.ts) is checked all the same where the
// messages are about it. Take a file off this list once it is clean.
const NOT_YET_CLEAN = new Set([
  "actions/at_point_hit.js", "actions/focus_guard.js", "actions/forms_select.js", "actions/links_focused.js",
  "actions/navigation_wait.js", "snapshot/collector.js", "snapshot/framework_probe.js", "snapshot/page_watch.js",
  "snapshot/page_watch_settle.js",
].map((name) => join("host", "browserx", name)));

let failed = false;
/** @type {string[]} */ const quiet = [], loud = [];
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
    const known = from && NOT_YET_CLEAN.has(from.source);
    if (!known) failed = true;
    (known ? quiet : loud).push(text);
  }
}
if (quiet.length) console.log(`${quiet.length} message(s) in snippets not yet clean (tools/js/check.mjs NOT_YET_CLEAN); run \`node tools/js/check.mjs --all\` to see them`);
if (process.argv.includes("--all")) for (const m of quiet) console.log(m);
for (const m of loud) console.log(m);
process.exit(failed ? 1 : 0);
