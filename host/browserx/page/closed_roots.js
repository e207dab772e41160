// @ts-check
// Walks closed shadow roots the host found through CDP (page/closed_roots.py), called on the
// first host with (opts, ...hosts, ...roots): each root is collected with collector.js
// and remembered in globalThis.__browserx.closed, so the next collector run walks it
// inline. Answers [[host key, collected subtree], ...]; the hosts suspected inside them are left
// in __browserx.suspects for the next round.
import collect from "./collector.js";
/** @type {BxSnippets["page/closed_roots.js"]} */
export default function (opts, ...objs) {
  const B = /** @type {BxRegistry} */ (globalThis.__browserx), n = objs.length / 2, parts = [], suspects = [];
  // Where the host's document sits in this frame: the content-box origins of the same-origin
  // iframes around it (as the document walk adds them).
  const originOf = (/** @type {Element} */ el) => {
    let x = 0, y = 0, w = /** @type {Window | null} */ (el.ownerDocument.defaultView);
    try {
      for (; w && w.frameElement; w = w.parent) {
        const fe = w.frameElement, r = fe.getBoundingClientRect(), cs = /** @type {Window} */ (fe.ownerDocument.defaultView).getComputedStyle(fe);
        x += r.left + fe.clientLeft + parseFloat(cs.paddingLeft || "0");
        y += r.top + fe.clientTop + parseFloat(cs.paddingTop || "0");
      }
    } catch (e) {}
    return [x, y];
  };
  for (let i = 0; i < n; i++) {
    // The root must belong to the host we asked about, on this page: nodes of another document
    // of the same frame (seen after repeated navigations) must never get keys here.
    if (!objs[n + i] || objs[n + i].host !== objs[i] || !B.ours(objs[i])) continue;  // null: gone
    B.closed.set(objs[i], objs[n + i]);  // the next collector run walks it inline
    const data = collect(objs[n + i], Object.assign({}, opts, {origin: originOf(objs[i])}));
    for (const s of /** @type {Element[]} */ (B.suspects)) suspects.push(s);
    parts.push("[" + B.keyOf(objs[i]) + "," + data + "]");
  }
  B.suspects = suspects;
  return "[" + parts.join(",") + "]";
}
