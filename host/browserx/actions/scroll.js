// @ts-check
// scroll (actions/scroll.py), shared by page and container scrolling; `this` is an element or null
// (the page). Scrolls by `amount` px (a negative amount: pageFraction of a page) unless
// measureOnly; answers the scroller, the positions before and after and what is left in each
// direction.
/** @type {BxSnippets["actions/scroll.js"]} */
export default function (direction, amount, measureOnly, pageFraction) {
  let el = this && this.nodeType === 1 ? this : null;
  const doc = el ? el.ownerDocument : document, win = doc.defaultView;
  const page = (/** @type {Document} */ d) => d.scrollingElement || d.documentElement;
  const canScroll = (/** @type {Element} */ e, /** @type {boolean} */ vertical) => {
    const cs = /** @type {Window} */ (e.ownerDocument.defaultView).getComputedStyle(e);
    const ov = vertical ? cs.overflowY : cs.overflowX;
    const room = vertical ? e.scrollHeight - e.clientHeight : e.scrollWidth - e.clientWidth;
    return room > 0 && (ov === 'auto' || ov === 'scroll' || ov === 'overlay' || e === page(e.ownerDocument));
  };
  const vertical = direction === 'up' || direction === 'down';
  let label = 'page';
  if (el) {
    // An item inside a list scrolls its list: climb (through shadow roots) to a scroller.
    let n = el;
    while (n && !(n.nodeType === 1 && canScroll(n, vertical))) n = n.parentNode || n.host;
    el = n && n !== page(doc) ? n : null;
    if (el) label = el.localName + (el.id ? '#' + el.id : '') +
      (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/)[0] : '');
  }
  const s = el || page(doc);
  const pos = () => [s.scrollLeft, s.scrollTop];
  if (el && !measureOnly) {
    // A container out of view (below the fold of the main it scrolls in, or of the page) is
    // brought in first, as a person scrolls to a carousel before scrolling it.
    const apart = (/** @type {BxBox} */ a, /** @type {BxBox} */ b) => a.right <= b.left || a.bottom <= b.top || a.left >= b.right || a.top >= b.bottom;
    const box = el.getBoundingClientRect();
    let out = apart(box, {left: 0, top: 0, right: win.innerWidth, bottom: win.innerHeight});
    for (let a = el.parentNode || el.host; a && !out && a.nodeType !== 9; a = a.parentNode || a.host) {
      if (a.nodeType === 1 && a !== page(doc) && (canScroll(a, true) || canScroll(a, false)))
        out = apart(box, a.getBoundingClientRect());
    }
    if (out) el.scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
  }
  const before = pos();
  if (!measureOnly) {
    const size = vertical ? s.clientHeight || win.innerHeight : s.clientWidth || win.innerWidth;
    const px = amount < 0 ? Math.round(size * pageFraction) : amount;
    const sign = direction === 'down' || direction === 'right' ? 1 : -1;
    const opts = vertical ? {top: sign * px, behavior: 'instant'} : {left: sign * px, behavior: 'instant'};
    el ? el.scrollBy(opts) : win.scrollBy(opts);
  }
  const after = pos();
  return {label, before, after, remaining: {
    up: s.scrollTop, down: Math.max(0, s.scrollHeight - s.clientHeight - s.scrollTop),
    left: s.scrollLeft, right: Math.max(0, s.scrollWidth - s.clientWidth - s.scrollLeft)}};
}
