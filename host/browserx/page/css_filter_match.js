// @ts-check
// page/css_filter.py, in browserx's isolated world of a frame: the collector keys of the
// elements a CSS selector matches in the document and in the shadow roots and frame documents the
// snapshot holds (rootKeys, through __browserx.nodeOf), as JSON; {error} for a selector the browser
// rejects.
/** @type {BxSnippets["page/css_filter_match.js"]} */
export default function (selector, rootKeys) {
  const B = globalThis.__browserx;
  if (!B) return JSON.stringify({keys: []});
  const roots = new Set([document]);
  for (const key of rootKeys) { const root = B.nodeOf(key); if (root) roots.add(root); }
  const keys = [];
  try {
    for (const root of roots) for (const el of root.querySelectorAll(selector)) { const k = B.keyOf(el); if (k) keys.push(k); }
  } catch (e) { return JSON.stringify({error: String(e && /** @type {Error} */ (e).message || e)}); }
  return JSON.stringify({keys});
}
