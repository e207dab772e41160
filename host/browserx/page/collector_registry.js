// @ts-check
// The collector's registry (globalThis.__browserx), one per document: the keys the walk gives
// nodes, and the functions the snippets share (what is a node of this page, opted out, inside
// another, seen, covered). page/collector.js sets it up at every walk through registry();
// its members, and which snippets use each: docs/PAGE_API.md.
//
// A node's key is the base the host reserved for a new document (reported back as keyBase: that
// is how the host learns the document is new) plus a small number counted here (past any this
// global handed out before), so a key never names two nodes of a tab. The registry holds only the
// small part: small integers are much cheaper for the engine than numbers past 2^31 (and for the
// transfer). keyOf/nodeOf speak whole keys. (A registry of another layout, left in the page by an
// older host, is replaced: a new host process knows none of its keys anyway.)
import noAiOf from "./no_ai.js";

const LAYOUT = 3;
const HIT_POINTS = [0.5, 0.5, 0.2, 0.2, 0.8, 0.2, 0.2, 0.8, 0.8, 0.8]; // where an element is hit-tested

/**
 * The registry of this document, made now if there is none, or it is another document's or
 * layout's; a member an earlier walk set is kept.
 * @param {number | undefined} freshBase the key range the host reserved for a new document (opts.freshBase)
 * @returns {BxRegistry}
 */
export function registry(freshBase) {
  let bx = globalThis.__browserx;
  if (!bx || bx.doc !== document || bx.layout !== LAYOUT) {
    const same = bx && bx.layout === LAYOUT;
    const base = same ? /** @type {BxRegistry} */ (bx).base : freshBase || 0, next = same ? /** @type {BxRegistry} */ (bx).next : 1;
    // (its methods are set below: typed as the whole registry from here)
    bx = globalThis.__browserx = /** @type {BxRegistry} */ ({ doc: document, keys: new WeakMap(), refs: new Map(), base, next, layout: LAYOUT });
    bx.keyOf = function (n) { const k = this.keys.get(n); return k ? this.base + k : 0; };
    bx.nodeOf = function (key) { const r = this.refs.get(key - this.base); return r ? r.deref() || null : null; };
    // A key for any node of the document, given now if the walk has not met it yet (a hidden
    // listening node: the walk gives it the same key when it shows).
    bx.keyFor = function (n) {
      let key = this.keys.get(n);
      if (key === undefined) { key = this.next++; this.keys.set(n, key); this.refs.set(key, new WeakRef(n)); }
      return this.base + key;
    };
  }
  bx.closed = bx.closed || new WeakMap(); // closed shadow roots handed in by the host: host → root
  // Is a node part of this frame's current page (through shadow roots and same-origin frames)?
  bx.ours = bx.ours || function (n) {
    let d = n.getRootNode({ composed: true });
    while (d && d !== document) {
      const fe = d.defaultView && d.defaultView.frameElement;
      if (!fe) return false;
      d = fe.getRootNode({ composed: true });
    }
    return d === document;
  };
  // Whether a node is inside a subtree (or a document, or a frame of this process) that opted out
  // of AI agents (data-no-ai), through shadow roots, slots and same-origin frames. Shared by the
  // snippets that meet nodes the walk did not (hit tests, focus, page events): docs/PAGE_API.md.
  bx.optedOut = bx.optedOut || noAiOf;
  // Composed containment: whether n is outer or inside it, through shadow roots and slots.
  bx.inside = bx.inside || function (outer, n) {
    for (; n; n = n.assignedSlot || n.parentNode || n.host) if (n === outer) return true;
    return false;
  };
  // The part of an element a person can see in its frame's viewport, [left, top, right,
  // bottom], or null: its box clipped by the viewport and by the overflow boxes of its
  // containing-block chain, by the same rules the host's snapshot/visibility.py follows (the root's
  // and body's overflow belong to the viewport; absolute escapes static boxes up to a positioned
  // one; fixed escapes all but transformed or contained ones).
  // A batch of calls may share a memo (a Map): what the walk up learns of each ancestor (its
  // computed style's few facts, its box) is then read once for all its descendants.
  bx.visibleRect = bx.visibleRect || function (el, memo) {
    const doc = el.ownerDocument, view = doc.defaultView, root = doc.documentElement, body = doc.body;
    const facts = (/** @type {Element} */ a) => {
      let f = memo ? memo.get(a) : undefined;
      if (f === undefined) {
        const cs = view.getComputedStyle(a);
        let open = cs.display === "contents" || (cs.overflowX === "visible" && cs.overflowY === "visible");
        if (!open && a === body) {
          const rs = view.getComputedStyle(root);
          open = rs.overflowX === "visible" && rs.overflowY === "visible";
        }
        f = { cs, pos: cs.position, open, holds: undefined, rect: null };
        if (memo) memo.set(a, f);
      }
      return f;
    };
    const holds = (/** @type {BxRectFacts} */ f) => {
      if (f.holds === undefined) {
        const cs = f.cs;
        f.holds = cs.transform !== "none" || cs.perspective !== "none" || cs.filter !== "none" ||
          /paint|layout|strict|content/.test(cs.contain) || /transform|perspective|filter/.test(cs.willChange);
      }
      return f.holds;
    };
    const b = el.getBoundingClientRect();
    let x1 = Math.max(b.left, 0), y1 = Math.max(b.top, 0);
    let x2 = Math.min(b.right, view.innerWidth), y2 = Math.min(b.bottom, view.innerHeight);
    let pos = memo ? facts(el).pos : view.getComputedStyle(el).position;
    for (let a = el.assignedSlot || el.parentElement || (el.parentNode && el.parentNode.host);
      a && a !== root && x2 > x1 && y2 > y1;
      a = a.assignedSlot || a.parentElement || (a.parentNode && a.parentNode.host)) {
      const f = facts(a);
      if (pos === "fixed" && !holds(f)) continue;
      if (pos === "absolute" && f.pos === "static" && !holds(f)) continue;
      pos = f.pos; // a is in the chain: from here on, its own position decides
      if (f.open) continue;
      const r = f.rect || (f.rect = a.getBoundingClientRect());
      x1 = Math.max(x1, r.left); y1 = Math.max(y1, r.top); x2 = Math.min(x2, r.right); y2 = Math.min(y2, r.bottom);
    }
    return x2 - x1 >= 1 && y2 - y1 >= 1 ? [x1, y1, x2, y2] : null;
  };
  // What covers an element at every point tested, as [its key (0 if it has none), tag#id.class],
  // or null when some point of its visible part shows the element itself, its own content, an
  // ancestor (its shadow host included) or one of its labels (a person's click lands on it).
  bx.cover = bx.cover || /** @this {BxRegistry} */ function (el, rect, memo) {
    const r = rect === undefined ? this.visibleRect(el, memo) : rect;
    if (!r) return null;
    const root = el.getRootNode(), doc = root.elementFromPoint ? root : el.ownerDocument;
    let cover = null;
    for (let q = 0; q < 10; q += 2) {
      const fx = HIT_POINTS[q], fy = HIT_POINTS[q + 1];
      const hit = doc.elementFromPoint(r[0] + (r[2] - r[0]) * fx, r[1] + (r[3] - r[1]) * fy);
      if (!hit || this.inside(el, hit) || this.inside(hit, el) ||
          (el.labels && Array.prototype.some.call(el.labels, (l) => this.inside(l, hit)))) return null;
      if (!cover) cover = hit;
    }
    if (!cover) return null;
    // Opted-out content covering a control is named as such, nothing of it read.
    if (this.optedOut(cover)) return [0, "opted-out content"];
    const desc = cover.localName + (cover.id ? "#" + cover.id : "") +
      (typeof cover.className === "string" && cover.className ? "." + cover.className.trim().split(/\s+/)[0] : "");
    return [this.keyOf(cover), desc];
  };
  return bx;
}
