// A page snippet (host/browserx/**/*.js: browserx/page_js.py) made checkable. A snippet file is a
// `//` header and ONE anonymous function declaration, expression or (page_watch_early.js) run of
// statements, with `__NAME__` placeholders the host replaces at import: none of which a type
// checker or a linter can read as a script. wrap() turns it into one they can, line for line:
//
//   <header, unchanged>
//   /** @param {BxPlaceholders[FILE]} $ */ function __bxWrapped($) { const {__A__, ...} = $; return __bxSnippet(FILE, <first code line>
//   <the other code lines, unchanged>
//   ); }
//
// A file of declarations (actions/effects.js) is checked as they are, its first one typed; a run of
// statements (page/page_watch_early.js) as it is.
//
// The snippet's type (its `this`, parameters and answer: the contract with the host module that
// sends it) and each placeholder's (the type of the snippet or constant spliced in) are declared
// once, in host/browserx/snippets.d.ts; the globals the snippets share, in host/browserx/page_api.d.ts.
// Only the first code line moves (by `shift` columns), so a message's line is the file's own.

const HEADER = (line) => line.startsWith("//") || !line.trim();
const PLACEHOLDER = /__[A-Z][A-Z0-9_]*__/g;
const STATEMENTS = /^(if|for|while|const|let|var|try|switch|do)\b/;

/**
 * @param {string} name the file's path under host/browserx ("actions/resolve.js")
 * @param {string} text the file's text
 * @param {{module?: boolean}} [how] module: end with `export {}` (each file its own scope for tsc)
 * @returns {{text: string, line: number, shift: number}} line: 1-based line of the first code line
 */
export function wrap(name, text, how = {}) {
  const lines = text.split("\n");
  let start = 0;
  while (start < lines.length && HEADER(lines[start])) start++;
  const code = lines.slice(start).join("\n");
  const names = [...new Set(code.match(PLACEHOLDER) || [])].sort();
  const key = JSON.stringify(name);
  let prefix = `/** @param {BxPlaceholders[${key}]} $ */ function __bxWrapped($) { `;
  if (names.length) prefix += `const {${names.join(", ")}} = $; `;
  let suffix;
  const named = /^function (\w+)\(/.exec(code);
  if (named && /\n(function|const|let) /.test(code)) {
    // declarations, the first the entry point (actions/effects.js: spliced into a function body)
    suffix = `\nreturn __bxSnippet(${key}, ${named[1]}); }\n`;
  } else if (STATEMENTS.test(code)) {
    suffix = "\n}\n"; // statements: checked as they are (and they answer nothing)
  } else {
    prefix += `return __bxSnippet(${key}, `;
    suffix = "\n); }\n";
  }
  if (!names.length) prefix = prefix.replace("function __bxWrapped($)", "function __bxWrapped()").replace(/^\/\*\* @param \{[^}]*\} \$ \*\/ /, "");
  lines[start] = prefix + (lines[start] || "");
  const body = lines.join("\n").replace(/\n+$/, "");
  return { text: body + suffix + (how.module ? "export {};\n" : ""), line: start + 1, shift: prefix.length };
}
