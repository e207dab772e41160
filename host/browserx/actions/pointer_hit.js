// @ts-check
// click / hover (actions/pointer.py), called on the element (or an owning <iframe>) with a point in
// its session's root viewport. Walks down same-origin frames (their quads are already top-level),
// then hit-tests in the element's own tree scope (a closed shadow root too: we hold the element).
// null = clear; else what is hit instead ({outside: true}: nothing; pinned: a fixed or sticky bar).
/** @type {BxSnippets["actions/pointer_hit.js"]} */
export default function (x, y) {
  const el = this, chain = [];
  let w = el.ownerDocument.defaultView;
  try { while (w && w.frameElement) { chain.unshift(w.frameElement); w = w.parent; } } catch (e) {}
  const inside = (/** @type {Node} */ outer, /** @type {BxDuck} */ n) => { for (; n; n = n.parentNode || n.host) if (n === outer) return true; return false; };
  const desc = (/** @type {BxDuck} */ n) => {
    let s = n.localName + (n.id ? '#' + n.id : '');
    const cls = typeof n.className === 'string' ? n.className.trim().split(/\s+/).filter(Boolean) : [];
    if (cls.length) s += '.' + cls.slice(0, 2).join('.');
    const text = ((n.getAttribute && n.getAttribute('aria-label')) || n.innerText || n.textContent || '')
      .replace(/\s+/g, ' ').trim().slice(0, 60);
    return {desc: s, text: text};
  };
  const scopeOf = (/** @type {BxDuck} */ n) => { const r = n.getRootNode(); return r.elementFromPoint ? r : n.ownerDocument; };
  let lx = x, ly = y;
  for (const fe of chain) {
    const hit = scopeOf(fe).elementFromPoint(lx, ly);
    if (hit && hit !== fe) return desc(hit);
    const r = fe.getBoundingClientRect(), cs = fe.ownerDocument.defaultView.getComputedStyle(fe);
    lx -= r.left + fe.clientLeft + parseFloat(cs.paddingLeft);
    ly -= r.top + fe.clientTop + parseFloat(cs.paddingTop);
  }
  const hit = scopeOf(el).elementFromPoint(lx, ly);
  if (!hit) return {desc: '', text: '', outside: true};
  if (hit === el || inside(el, hit) || inside(hit, el)) return null;
  if (el.labels && Array.prototype.some.call(el.labels, l => inside(l, hit))) return null;
  return pinned(hit) ? {...desc(hit), pinned: true} : desc(hit);
  // Whether what covers it is held in place by a fixed or sticky box the target is not in (a bar, a
  // toolbar, a modal's backdrop): scrolling the target may take it out from under that.
  function pinned(/** @type {BxDuck} */ n) {
    for (let a = n; a && a.nodeType === 1; a = a.parentElement || (a.parentNode && a.parentNode.host)) {
      const position = a.ownerDocument.defaultView.getComputedStyle(a).position;
      if (position === 'fixed' || position === 'sticky') return !inside(a, el);
    }
    return false;
  }
}
