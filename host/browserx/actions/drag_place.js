// @ts-check
// drag (actions/drag.py), called on the dragged element before and after the drop: where it is
// in the page (its container's collector key, its rank among the container's elements, the
// centre of its box in its frame's viewport), so the result can say what the drop changed.
/** @type {BxSnippets["actions/drag_place.js"]} */
export default function () {
  const el = this, B = globalThis.__browserx;
  const parent = el.parentElement || (el.parentNode && el.parentNode.host) || null;
  const r = el.getBoundingClientRect();
  const desc = (/** @type {Element | null} */ n) => {
    if (!n) return '';
    const cls = typeof n.className === 'string' ? n.className.trim().split(/\s+/).filter(Boolean) : [];
    return n.localName + (n.id ? '#' + n.id : '') + (cls.length ? '.' + cls.slice(0, 2).join('.') : '');
  };
  return {
    connected: el.isConnected,
    parent: parent && B ? B.keyOf(parent) : 0,
    parentDesc: desc(parent),
    index: el.parentNode ? Array.prototype.indexOf.call(el.parentNode.children, el) : -1,
    x: r.left + r.width / 2,
    y: r.top + r.height / 2,
  };
}
