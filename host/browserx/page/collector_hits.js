// @ts-check
// page/collector.js's occlusion pass, after its walk and its box and flag passes: which of the
// elements a person might act on are covered, and by what (bx.cover), with the last walk's
// answers used again while nothing that could cover anything has moved. Its loops are the
// collector's own, over the walk's columns (BxWalk), handed in. Unit tests:
// tools/js/test/collector.test.mjs.

/**
 * The columns of a walk the pass reads (page/collector.js): per node its key (the small part, 0
 * for text), parent index, tag, flags, attributes and state (sparse), 4 numbers of box each in
 * bx4; per element kept for the passes (eNode, walk order) its node index, its box's place in
 * bx4, its computed style and its frame's offset.
 * @typedef {{ k: number[], p: number[], t: string[], fl: number[], at: Record<number, Record<string, string>>,
 *   st: Record<number, BxState>, bx4: number[], eNode: BxDuck[], eIdx: number[], eBox: number[],
 *   eCs: CSSStyleDeclaration[], eX: number[], eY: number[] }} BxWalk
 */

// Hit-testing candidates (see the occlusion pass): tags and attributes that may make an element a control.
const ACTIVE_TAGS = new Set(["a", "area", "button", "input", "select", "textarea", "summary", "option", "label",
  "details", "video", "audio"]);
const ACTIVE_ATTRS = new Set(["role", "tabindex", "contenteditable", "onclick", "onmousedown", "onpointerdown",
  "ng-click", "x-on:click", "@click", "v-on:click", "jsaction", "draggable"]);
const LIST_TAGS = new Set(["ul", "ol", "menu", "table", "tbody", "thead", "tfoot", "dl"]);
const SECTIONS = new Set(["tbody", "thead", "tfoot"]);

// The part of a box (its left, top, right, bottom) in a viewport of w × h, [left, top, right,
// bottom], or null when less than a pixel of it is in view either way.
/** @param {DOMRect} b @param {number} w @param {number} h */
export function inViewport(b, w, h) {
  const x1 = Math.max(b.left, 0), y1 = Math.max(b.top, 0);
  const x2 = Math.min(b.right, w), y2 = Math.min(b.bottom, h);
  return x2 - x1 >= 1 && y2 - y1 >= 1 ? [x1, y1, x2, y2] : null;
}
// The signature of what could cover anything, for the occlusion pass below: the viewport, the
// scroll, the element count, and each positioned element's key, flags (but the pass's own bit
// 131072), box and z-index (the first ne of the walk's elements).
/**
 * @param {number} vw @param {number} vh @param {number} scrollX @param {number} scrollY @param {number} ne
 * @param {Pick<BxWalk, "eIdx" | "fl" | "eBox" | "k" | "bx4" | "eCs">} walk
 */
export function coverSig(vw, vh, scrollX, scrollY, ne, walk) {
  const { eIdx, fl, eBox, k, bx4, eCs } = walk;
  let sig = (Math.imul(vw, 31) + vh + Math.imul(scrollX | 0, 961) + Math.imul(scrollY | 0, 29791) + Math.imul(ne, 7919)) | 0;
  for (let j = 0; j < ne; j++) {
    const i = eIdx[j], f = fl[i];
    if (!(f & 512)) continue;
    const b = eBox[j];
    sig = Math.imul(sig ^ (k[i] | 0), 16777619);
    sig = Math.imul(sig ^ (f & ~131072), 16777619);
    sig = Math.imul(sig ^ ((bx4[b] * 8191 + bx4[b + 1] * 131 + bx4[b + 2] * 37 + bx4[b + 3]) | 0), 16777619);
    const z = eCs[j].zIndex; // "auto" apart from every number (-1 included)
    sig = Math.imul(sig ^ (z === "auto" ? 1 : 0), 16777619);
    sig = Math.imul(sig ^ (+z | 0), 16777619);
  }
  return sig;
}

// Occlusion, tested here rather than in a second call once the host knows what it lists: every
// element a person might act on (a superset of what the host calls interactive: native
// controls, elements with a role, a tabindex, click attributes or a framework handler, where
// the pointer cursor starts, and nodes that listened for clicks at the last capture and their
// items), if its box meets the viewport. Tested ones get bit 131072; what covers them goes
// in `hits` by key. The host tests what it lists beyond these in a call of its own.
// Called when the host asked for it (opts.hitTest), on the walk's columns: sets bit 131072 in fl
// and fills hits; answers how many elements it tested, and how many of their last answers it used.
/**
 * @param {BxRegistry} bx @param {Document | ShadowRoot} root the walked root @param {Window} view0 its window
 * @param {BxCollectOptions} opts @param {number} n the nodes walked @param {BxWalk} walk
 * @param {Record<number, BxCover>} hits what covers each element tested, by key
 * @returns {[number, number]}
 */
export function hitTest(bx, root, view0, opts, n, walk, hits) {
  const { k, p, t, fl, at, st, bx4, eNode, eIdx, eBox, eX, eY } = walk, ne = eNode.length;
  let hitTested = 0, reused = 0;
  const base = bx.base, listening = opts.listening && opts.listening.length ? new Set(opts.listening) : null;
  // Listening nodes, and the items of lists (list elements, elements with a role, rows of
  // one kind of child) up to three levels inside one: the host's delegation rules give those
  // items the clicks (rows through a table section).
  let near = null, lists = null;
  if (listening) {
    near = new Uint8Array(n).fill(9); // levels below the nearest listening node, 9: none near
    lists = new Uint8Array(n);
    const kids = new Map(); // element children per node: tag → count
    for (let j = 0; j < ne; j++) {
      const i = eIdx[j], pi = p[i];
      if (pi < 0) continue;
      let m = kids.get(pi);
      if (m === undefined) kids.set(pi, (m = new Map()));
      m.set(t[i], (m.get(t[i]) || 0) + 1);
    }
    for (let i = 0; i < n; i++) {
      if (k[i] && listening.has(base + k[i]) && t[i] !== "body" && t[i] !== "html") near[i] = 0;
      else if (p[i] >= 0 && near[p[i]] < 4) near[i] = near[p[i]] + 1;
      const m = kids.get(i);
      if (LIST_TAGS.has(t[i]) || (at[i] !== undefined && at[i].role !== undefined) ||
          (m !== undefined && m.size === 1 && m.values().next().value >= 2)) lists[i] = 1;
    }
  }
  const memo = new Map();
  const vw = view0.innerWidth, vh = view0.innerHeight;
  // What can cover an element is a positioned box (absolute, fixed, sticky, relative with a
  // z-index: menus, dialogs, toasts, a grid's pinned parts). While none of them moved, changed
  // its flags or stacking, came or went, an element still in the same place is covered or not
  // as it was: its last answer holds, and the hit test (most of the walk's time on a big app,
  // and all of it again at every snapshot of a live page) is spared. A cover that has left the
  // page since (it need not be positioned) has the element tested again.
  // (The element count too: an element that came or went in the flow moves others, or not.)
  const sig = coverSig(vw, vh, view0.scrollX, view0.scrollY, ne, walk);
  const memos = bx.uncovered || (bx.uncovered = new WeakMap()); // per walked root (document, closed root)
  const prev = memos.get(root), kept = prev !== undefined && prev.sig === sig ? prev.map : new WeakMap();
  memos.set(root, { sig, map: kept });
  // Whether an overflow box is among a node's ancestors (parents come before their children).
  // Without one, the part of an element a person sees is its box within the viewport, and
  // visibleRect's walk up the ancestors (a computed style each) can be spared.
  const clipAbove = new Uint8Array(n);
  for (let i = 1; i < n; i++) { const pi = p[i]; if (pi >= 0) clipAbove[i] = clipAbove[pi] | (fl[pi] & 56 ? 1 : 0); }
  for (let j = 0; j < ne; j++) {
    const i = eIdx[j], f = fl[i];
    if (f & 1 || bx4[eBox[j] + 2] === 0 || bx4[eBox[j] + 3] === 0) continue;
    if (eX[j] === 0 && eY[j] === 0) { // a box of the top document wholly out of view: nothing to hit
      const x = bx4[eBox[j]], y = bx4[eBox[j] + 1];
      if (x >= vw || y >= vh || x + bx4[eBox[j] + 2] <= 0 || y + bx4[eBox[j] + 3] <= 0) continue;
    }
    let maybe = /** @type {boolean | number} */ (ACTIVE_TAGS.has(t[i]) || (f & 65536) !== 0); // a list's 0 or 1 may decide it
    if (!maybe) {
      const a = at[i];
      if (a !== undefined) for (const name in a) if (ACTIVE_ATTRS.has(name) || name.startsWith("hx-")) { maybe = true; break; }
    }
    if (!maybe && f & 2) { const pi = p[i]; maybe = pi < 0 || t[pi][0] === "#" || !(fl[pi] & 2); }
    if (!maybe && st[i] !== undefined && st[i].editable) maybe = true;
    if (!maybe && near !== null) {
      const pi = p[i];
      maybe = near[i] === 0 || (pi >= 0 && ((/** @type {Uint8Array} */ (lists)[pi] && near[pi] <= 3) ||
        (SECTIONS.has(t[pi]) && p[pi] >= 0 && /** @type {Uint8Array} */ (lists)[p[pi]] && near[p[pi]] <= 3))); // lists: set with near
    }
    if (!maybe) continue;
    fl[i] |= 131072;
    hitTested++;
    const el = eNode[j];
    let rect;
    if (!clipAbove[i]) {
      const v = el.ownerDocument.defaultView;
      rect = inViewport(el.getBoundingClientRect(), v.innerWidth, v.innerHeight);
    } else {
      rect = bx.visibleRect(el, memo);
    }
    if (rect === null) continue;
    const last = kept.get(el);
    if (last !== undefined && last[0] === rect[0] && last[1] === rect[1] && last[2] === rect[2] && last[3] === rect[3] &&
        (last[4] === null || (last[4][0] !== 0 && bx.nodeOf(last[4][0]) !== null && bx.nodeOf(last[4][0]).isConnected))) {
      reused++;
      if (last[4] !== null) hits[base + k[i]] = last[4];
      continue;
    }
    const c = bx.cover(el, rect, memo);
    if (c !== null) hits[base + k[i]] = c;
    kept.set(el, [rect[0], rect[1], rect[2], rect[3], c]);
  }
  return [hitTested, reused];
}
