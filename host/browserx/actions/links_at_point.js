// @ts-check
// click (actions/links.py), called on the target element with the point the click will land at, in
// its session's root viewport: the link the click would follow — of the element hit there (the
// target, a child of it, or with force whatever covers it), or of the target itself — as
// {href, download, page}; a submit button the click would press as its form's address, with form:
// true; null when neither is involved. Same-origin frames are walked as in
// pointer_hit.js; shadow roots are crossed upward through their hosts.
/** @type {BxSnippets["actions/links_at_point.js"]} */
export default function (x, y) {
  const el = this, chain = [];
  let w = el.ownerDocument.defaultView;
  try { while (w && w.frameElement) { chain.unshift(w.frameElement); w = w.parent; } } catch (e) {}
  const scopeOf = (/** @type {BxDuck} */ n) => { const r = n.getRootNode(); return r.elementFromPoint ? r : n.ownerDocument; };
  let lx = x, ly = y;
  for (const fe of chain) {
    const r = fe.getBoundingClientRect(), cs = fe.ownerDocument.defaultView.getComputedStyle(fe);
    lx -= r.left + fe.clientLeft + parseFloat(cs.paddingLeft);
    ly -= r.top + fe.clientTop + parseFloat(cs.paddingTop);
  }
  let hit = null;
  try { hit = scopeOf(el).elementFromPoint(lx, ly); } catch (e) {}
  const linkOf = (/** @type {BxDuck} */ n) => {
    for (; n; n = n.parentNode || n.host) {
      if (n.nodeType !== 1) continue;
      const name = n.localName;
      if ((name === 'a' || name === 'area') && (n.hasAttribute('href') || n.hasAttribute('xlink:href'))) return n;
    }
    return null;
  };
  const link = (hit && linkOf(hit)) || linkOf(el);
  if (!link) return submission((hit && submitOf(hit)) || submitOf(el));
  const raw = link.getAttribute('href') ?? link.getAttribute('xlink:href') ?? '';
  let href = raw;
  try { href = new URL(raw, link.ownerDocument.baseURI).href; } catch (e) {}
  return {href: href, download: link.hasAttribute('download'), page: link.ownerDocument.URL};

  // A submit button (of a form that navigates: not method=dialog) and the address it sends its form
  // to: formaction, else the form's action attribute (read as an attribute: a field named "action"
  // shadows form.action), resolved as the browser does; the page itself when neither is set.
  function submitOf(/** @type {any} */ n) {
    for (; n; n = n.parentNode || n.host) {
      if (n.nodeType !== 1) continue;
      const name = n.localName, type = String(n.type || '').toLowerCase(); // the browser's state: a button of
      // an unknown type submits
      if ((name === 'button' && type === 'submit') || (name === 'input' && (type === 'submit' || type === 'image'))) return n.form ? n : null;
      if (name === 'form' || name === 'a') return null;
    }
    return null;
  }
  function submission(/** @type {any} */ button) {
    if (!button) return null;
    const form = button.form;
    const method = (button.getAttribute('formmethod') || form.getAttribute('method') || '').toLowerCase();
    if (method === 'dialog') return null;
    const raw = button.getAttribute('formaction') ?? form.getAttribute('action') ?? '';
    let href = button.ownerDocument.URL;
    try { href = new URL(raw, button.ownerDocument.baseURI).href; } catch (e) {}
    return {href: href, download: false, page: button.ownerDocument.URL, form: true};
  }
}
