// @ts-check
// actions/pointer.py, called on the target right before the mouse events are dispatched, with the
// point in its session's root viewport (a Playwright-like hit-target interceptor). First the hit
// test of pointer_hit.js : what is under the point now; anything
// but the target is returned and nothing is armed. Then, armed: until disarmed (or 3 s), every
// trusted press/release/click in the target's window whose target is not the element (nor inside
// it, nor its label) is stopped before the page sees it (capture phase on window, default
// prevented) and remembered, until the press has reached the target: a page that moves another
// control under the point between this check and the dispatch gets no click at all.
import hitAt from "./pointer_hit.js";
/** @type {BxSnippets["actions/pointer_guard.js"]} */
export default function (x, y) {
  const hit = hitAt.call(this, x, y);
  if (hit) return hit;
  const el = this, w = /** @type {Window} */ (el.ownerDocument.defaultView);
  if (w.__bxGuard) w.__bxGuard.off();
  const inside = (/** @type {Node} */ outer, /** @type {BxDuck} */ n) => { for (; n; n = n.parentNode || n.host) if (n === outer) return true; return false; };
  // A label's own control is clicked by the browser as the label's activation (a custom
  // checkbox's label standing in for its hidden input, a styled "Add photos" span in the label of
  // a hidden file input): that click is the target's.
  const label = el.closest ? el.closest('label') : null;
  const ok = (/** @type {BxDuck} */ t) => !t || t === el || inside(el, t) || inside(t, el) ||
    (el.labels && Array.prototype.some.call(el.labels, l => inside(l, t))) ||
    (!!label && t === label.control);
  const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
  const g = /** @type {BxGuard} */ ({seen: 0, bad: null, pressed: false});
  const on = (/** @type {Event} */ e) => {
    if (!e.isTrusted) return;
    const t = /** @type {BxDuck} */ (e.composedPath()[0] || e.target);
    if (ok(t)) { g.seen++; if (e.type === 'pointerdown' || e.type === 'mousedown') g.pressed = true; return; }
    // The press reached the target: what the page put under the pointer since is its own reaction
    // to it (MUI's select opens its menu, backdrop and all, on mousedown): the release is let be.
    // (The click then goes to what both have in common, an ancestor of the target: ok above.)
    if (g.pressed && (e.type === 'pointerup' || e.type === 'mouseup')) return;
    e.preventDefault(); e.stopImmediatePropagation();
    if (!g.bad) g.bad = {desc: (t.localName || '#text') + (t.id ? '#' + t.id : ''),
      text: ((t.getAttribute && t.getAttribute('aria-label')) || t.innerText || t.textContent || '')
        .replace(/\s+/g, ' ').trim().slice(0, 60)};
  };
  for (const t of types) w.addEventListener(t, on, true);
  g.off = () => { clearTimeout(g.timer); for (const t of types) w.removeEventListener(t, on, true); };
  g.timer = setTimeout(g.off, 3000);
  w.__bxGuard = g;
  return null;
}
