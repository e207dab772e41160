// scroll (actions/scroll.py), shared by page and container scrolling; `this` is an element or null
// (the page). Scrolls by `amount` px (a negative amount: __PAGE_FRACTION__ of a page) unless
// measureOnly; answers the scroller, the positions before and after and what is left in each
// direction.
function(direction, amount, measureOnly) {
  let el = this && this.nodeType === 1 ? this : null;
  const doc = el ? el.ownerDocument : document, win = doc.defaultView;
  const page = (d) => d.scrollingElement || d.documentElement;
  const canScroll = (e, vertical) => {
    const cs = e.ownerDocument.defaultView.getComputedStyle(e);
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
  const before = pos();
  if (!measureOnly) {
    const size = vertical ? s.clientHeight || win.innerHeight : s.clientWidth || win.innerWidth;
    const px = amount < 0 ? Math.round(size * __PAGE_FRACTION__) : amount;
    const sign = direction === 'down' || direction === 'right' ? 1 : -1;
    const opts = vertical ? {top: sign * px, behavior: 'instant'} : {left: sign * px, behavior: 'instant'};
    el ? el.scrollBy(opts) : win.scrollBy(opts);
  }
  const after = pos();
  return {label, before, after, remaining: {
    up: s.scrollTop, down: Math.max(0, s.scrollHeight - s.clientHeight - s.scrollTop),
    left: s.scrollLeft, right: Math.max(0, s.scrollWidth - s.clientWidth - s.scrollLeft)}};
}
