// @ts-check
// actions/page_changes.py: [DOM changes counted since START, URL], the counter (globalThis.__bxmo)
// left running; -1 when there is none (a new document).
/** @type {BxSnippets["actions/page_changes_peek.js"]} */
export default function () {
  const s = globalThis.__bxmo; if (!s) return [-1, location.href];
  s.n += s.o.takeRecords().length; return [s.n, location.href];
}
