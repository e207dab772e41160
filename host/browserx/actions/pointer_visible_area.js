// @ts-check
// actions/pointer.py, called on the element: its visible part in its frame's viewport, clipped by
// the rules the snapshot's visibility follows (__browserx.visibleRect), so an element the view
// lists is one a click reaches. Without a visible box of its own (display: contents, a zero-size
// wrapper whose content overflows it) the largest visible box inside it is where a person would
// click. In the coordinates of the session's root viewport (CDP's quads).
/** @type {BxSnippets["actions/pointer_visible_area.js"]} */
export default function () {
  const B = globalThis.__browserx;
  if (!B || !B.visibleRect) return null;
  const own = B.visibleRect(this);
  let best = own, area = 0, seen = 0;
  const stack = own ? [] : [...this.children, ...(this.shadowRoot ? this.shadowRoot.children : [])];
  while (stack.length && seen++ < 300) {
    const c = stack.pop(), r = B.visibleRect(c);
    if (r && (r[2] - r[0]) * (r[3] - r[1]) > area) { area = (r[2] - r[0]) * (r[3] - r[1]); best = r; }
    stack.push(...c.children);
  }
  if (!best) return null;
  // Into the coordinates of the session's root viewport (CDP's quads), through same-origin frames.
  let w = this.ownerDocument.defaultView;
  try {
    for (; w && w.frameElement; w = w.parent) {
      const fe = w.frameElement, r = fe.getBoundingClientRect(), cs = fe.ownerDocument.defaultView.getComputedStyle(fe);
      const dx = r.left + fe.clientLeft + parseFloat(cs.paddingLeft), dy = r.top + fe.clientTop + parseFloat(cs.paddingTop);
      best = [best[0] + dx, best[1] + dy, best[2] + dx, best[3] + dy];
    }
  } catch (e) {}
  const b = this.getBoundingClientRect(), view = this.ownerDocument.defaultView;
  // Wholly visible already: no scrolling needed (and no waiting for the compositor after it).
  const whole = !!own && own[0] <= b.left + 0.5 && own[1] <= b.top + 0.5 && own[2] >= b.right - 0.5 &&
    own[3] >= b.bottom - 0.5 && view.top === view;
  return {rect: best, inner: !own, whole};
}
