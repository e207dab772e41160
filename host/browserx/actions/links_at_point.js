// @ts-check
// click (actions/links.py), called on the target element with the point the click will land at, in
// its session's root viewport: the link the click would follow — of the element hit there (the
// target, a child of it, or with force whatever covers it), or of the target itself — as
// {href, download, page}; null when no link is involved. Same-origin frames are walked as in
// pointer_hit.js; shadow roots are crossed upward through their hosts.
function(x, y) {
  const el = this, chain = [];
  let w = el.ownerDocument.defaultView;
  try { while (w && w.frameElement) { chain.unshift(w.frameElement); w = w.parent; } } catch (e) {}
  const scopeOf = (n) => { const r = n.getRootNode(); return r.elementFromPoint ? r : n.ownerDocument; };
  let lx = x, ly = y;
  for (const fe of chain) {
    const r = fe.getBoundingClientRect(), cs = fe.ownerDocument.defaultView.getComputedStyle(fe);
    lx -= r.left + fe.clientLeft + parseFloat(cs.paddingLeft);
    ly -= r.top + fe.clientTop + parseFloat(cs.paddingTop);
  }
  let hit = null;
  try { hit = scopeOf(el).elementFromPoint(lx, ly); } catch (e) {}
  const linkOf = (n) => {
    for (; n; n = n.parentNode || n.host) {
      if (n.nodeType !== 1) continue;
      const name = n.localName;
      if ((name === 'a' || name === 'area') && (n.hasAttribute('href') || n.hasAttribute('xlink:href'))) return n;
    }
    return null;
  };
  const link = (hit && linkOf(hit)) || linkOf(el);
  if (!link) return null;
  const raw = link.getAttribute('href') ?? link.getAttribute('xlink:href') ?? '';
  let href = raw;
  try { href = new URL(raw, link.ownerDocument.baseURI).href; } catch (e) {}
  return {href: href, download: link.hasAttribute('download'), page: link.ownerDocument.URL};
}
