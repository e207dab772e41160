// @ts-check
// Called on the array of suspected shadow hosts (globalThis.__browserx.suspects) with the
// positions of those that have a closed shadow root: marks the others plain, so the collector does
// not suspect them again (page/closed_roots.py).
/** @type {BxSnippets["page/mark_plain.js"]} */
export default function (closed) {
  const B = globalThis.__browserx, keep = new Set(closed);
  if (B && B.plain) this.forEach((el, i) => { if (!keep.has(i)) /** @type {WeakSet<Element>} */ (B.plain).add(el); });
}
