// @ts-check
// click_at / hover_at (actions/at_point.py): what is at a point. Run in browserx's isolated world
// of a session's top document with (x, y) in that document's viewport: the element there, through
// open shadow roots (and closed ones the host handed in: __browserx.closed) and same-origin frames;
// at an out-of-process frame, that frame's <iframe> (its key: frameOwner) and the point inside it
// (local). Keys are the collector's (__browserx.keyOf), nearest first, up to the frame's document;
// link: the page a click there would open (links_at_point.js), or null.
import linkAtPoint from "./links_at_point.js";
import noAi from "../page/no_ai_input.js";
/** @type {BxSnippets["actions/at_point_hit.js"]} */
export default function (x, y) {
  const B = globalThis.__browserx;
  const key = (/** @type {Node} */ n) => (B && B.keyOf ? B.keyOf(n) : 0);
  const view = [innerWidth, innerHeight];
  // data-no-ai on the element there or around it (through shadow roots, slots and same-origin
  // frames), or on its document: answered as optedOut alone, nothing of it read.
  if (noAi(document)) return {view, optedOut: true};
  let doc = document, lx = x, ly = y, el = null;
  for (let depth = 0; depth < 20; depth++) {
    let hit = doc.elementFromPoint(lx, ly);
    if (!hit) break;
    for (let i = 0; i < 20; i++) {
      const root = /** @type {ShadowRoot | null | undefined} */ (hit.shadowRoot || (B && B.closed && B.closed.get(hit)));
      const inner = /** @type {Element | null} */ (root && root.elementFromPoint ? root.elementFromPoint(lx, ly) : null);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    el = hit;
    if (noAi(hit)) return {view, optedOut: true};
    if (hit.localName !== 'iframe' && hit.localName !== 'frame') break;
    const r = hit.getBoundingClientRect(), cs = /** @type {Window} */ (hit.ownerDocument.defaultView).getComputedStyle(hit);
    const ix = lx - (r.left + hit.clientLeft + parseFloat(cs.paddingLeft));
    const iy = ly - (r.top + hit.clientTop + parseFloat(cs.paddingTop));
    let inner = null;
    try { inner = /** @type {HTMLIFrameElement} */ (hit).contentDocument; } catch (e) {}
    if (!inner) return {view, frameOwner: B && B.keyFor ? B.keyFor(hit) : 0, local: [ix, iy]};
    doc = inner; lx = ix; ly = iy;
  }
  if (!el) return {view, keys: [], desc: '', text: ''};
  const keys = [];
  for (let n = /** @type {Node} */ (el); n && keys.length < 60; n = n.parentNode || /** @type {ShadowRoot} */ (n).host) if (n.nodeType === 1) keys.push(key(n));
  let desc = el.localName + (el.id ? '#' + el.id : '');
  const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean) : [];
  if (cls.length) desc += '.' + cls.slice(0, 2).join('.');
  const text = ((el.getAttribute && el.getAttribute('aria-label')) || /** @type {HTMLElement} */ (el).innerText || el.textContent || '')
    .replace(/\s+/g, ' ').trim().slice(0, 60);
  // The page a click there would open (a link, a form's submit button), for the host's checks.
  const link = linkAtPoint.call(el, x, y);
  return {view, keys, desc, text: /** @type {HTMLInputElement} */ (el).type === 'password' ? '' : text, link};
}
