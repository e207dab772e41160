// @ts-check
// actions/page_changes.py: [DOM changes counted since START, URL], and the counter
// (globalThis.__bxmo) stopped and dropped; -1 when there was none (a new document).
/** @type {BxSnippets["actions/page_changes_read.js"]} */
export default function () {
  const s = globalThis.__bxmo; if (!s) return [-1, location.href];
  s.n += s.o.takeRecords().length; s.o.disconnect(); globalThis.__bxmo = null;
  return [s.n, location.href];
}
