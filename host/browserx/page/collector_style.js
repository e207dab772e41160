// @ts-check
// What page/collector.js makes of an element's computed style (read once, by the walk): its
// layout flags (visibility, cursor, pointer events, overflow, position, clipped away), whether it
// holds fixed descendants, a scroll container's state; and the page's :hover rules that make
// transparent content opaque again. Called by the pass after the walk that takes the flags (and
// by the walk for a frame; hoverSelectorOf once per tree scope a transparent element is met in);
// what they use of the walk comes in as arguments. Unit tests: tools/js/test/collector.test.mjs.

// The layout flags of one element (bits 1-64; display's bits are set by the walk).
/** @param {CSSStyleDeclaration} cs */
export function layoutFlags(cs) {
  let f = 0;
  if (cs.visibility !== "visible") f |= 1;
  const cursor = cs.cursor;
  if (cursor === "pointer") f |= 2;
  else if (cursor === "not-allowed") f |= 524288;
  if (cs.pointerEvents === "none") f |= 4;
  // One read for both axes: the shorthand serializes as "x" when they agree, else "x y".
  const ov = cs.overflow, sp = ov.indexOf(" ");
  const ovx = sp < 0 ? ov : ov.slice(0, sp), ovy = sp < 0 ? ov : ov.slice(sp + 1);
  if (ovx === "auto" || ovx === "scroll") f |= 8;
  if (ovy === "auto" || ovy === "scroll") f |= 16;
  if (ovx === "hidden" || ovx === "clip" || ovy === "hidden" || ovy === "clip") f |= 32;
  const position = cs.position;
  if (position !== "static") {
    f |= 512;
    if (position === "absolute") f |= 1024;
    else if (position === "fixed") f |= 2048 | 64;
    else if (position === "sticky") f |= 64;
    // clip applies to absolutely positioned boxes only.
    if (f & 3072) { const c = cs.clip; if (c !== "auto" && rectAway(c)) f |= 16384; }
  }
  const cp = cs.clipPath;
  if (cp !== "none" && pathAway(cp)) f |= 16384;
  return f;
}

// Whether clip: rect(top, right, bottom, left) leaves at most a pixel of the box (the
// screen-reader-only pattern); "auto" edges do not clip.
/** @param {string} c */
export function rectAway(c) {
  const m = /rect\(([^)]*)\)/.exec(c);
  if (!m) return false;
  const v = m[1].split(/[,\s]+/).filter(Boolean).map((x) => (x === "auto" ? NaN : parseFloat(x)));
  return v.length === 4 && (v[1] - v[3] <= 1 || v[2] - v[0] <= 1);
}
// Whether clip-path leaves nothing: inset() of 50 % or more from both sides, a zero circle,
// or a polygon with every point the same.
/** @param {string} cp */
export function pathAway(cp) {
  let m = /^inset\(([^)]*)\)/.exec(cp);
  if (m) {
    const v = m[1].split(/\s+/).filter((x) => x && x !== "round").slice(0, 4).map((x) => (x.endsWith("%") ? parseFloat(x) : NaN));
    const [t, r = t, b = t, l = r] = v;
    return t + b >= 100 || l + r >= 100;
  }
  if (/^circle\(0(px|%)?[\s)]/.test(cp)) return true;
  m = /^polygon\(([^)]*)\)/.exec(cp);
  if (m) return new Set(m[1].split(",").map((x) => x.trim())).size === 1;
  return false;
}
// Whether an element is the containing block of fixed (and absolute) descendants although it
// is not positioned that way: transform, filter, perspective, containment, will-change. Remembered
// in cbMemo (a Map, one per walk: its first answer for an element holds).
/** @param {Element} el @param {CSSStyleDeclaration} cs @param {Map<Element, boolean>} cbMemo */
export function holdsFixed(el, cs, cbMemo) {
  let v = cbMemo.get(el);
  if (v === undefined) {
    v = cs.transform !== "none" || cs.perspective !== "none" || cs.filter !== "none" ||
      cs.backdropFilter !== "none" || /paint|layout|strict|content/.test(cs.contain) ||
      /transform|perspective|filter/.test(cs.willChange);
    cbMemo.set(el, v);
  }
  return v;
}

// A scroll container's state when it has something to scroll, else s unchanged.
/** @param {Element} node @param {BxState | null} s */
export function scrollState(node, s) {
  if (node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1) {
    (s || (s = {})).scroll = [node.scrollLeft, node.scrollTop, node.scrollWidth, node.scrollHeight,
      node.clientWidth, node.clientHeight];
  }
  return s;
}

// Hover-revealed content: the selectors of the page's :hover rules that make something opaque
// again (`tr:hover .actions { opacity: 1 }`), with :hover taken out (`tr .actions`), so the
// walk can tell a row's transparent actions (a person sees them on hover) from content that is
// simply transparent. Per tree scope (document or shadow root), kept until its stylesheets
// change; cross-origin sheets cannot be read and are passed over.
// The selector for a scope: read from its sheets, or hoverMemo's (__browserx.hover) while they are
// the same size.
/** @param {Document | ShadowRoot} scope @param {WeakMap<Document | ShadowRoot, any>} hoverMemo */
export function hoverSelectorOf(scope, hoverMemo) {
  const sheets = scope.styleSheets;
  if (!sheets) return null;
  let size = sheets.length;
  for (let j = 0; j < sheets.length; j++) { try { size += sheets[j].cssRules.length * 1024; } catch (e) {} }
  const known = hoverMemo.get(scope);
  if (known && known.size === size) return known.selector;
  const found = /** @type {string[]} */ ([]);
  const scan = (/** @type {CSSRuleList} */ rules, /** @type {number} */ depth) => {
    for (let j = 0; j < rules.length; j++) {
      // a style rule (selectorText, style) or a grouping one (cssRules: @media, @supports...), told apart by selectorText
      const r = /** @type {CSSRule & Partial<CSSStyleRule & CSSGroupingRule>} */ (rules[j]), sel = r.selectorText;
      if (sel === undefined) { if (r.cssRules && depth < 4) scan(r.cssRules, depth + 1); continue; }
      if (sel.indexOf(":hover") < 0 || !r.style) continue;
      const op = r.style.opacity;
      if (!op || !(parseFloat(op) > 0)) continue;
      for (const part of sel.split(",")) {
        if (part.indexOf(":hover") < 0 || part.indexOf(":not(") >= 0) continue;
        const bare = part.replace(/:hover/g, "").trim();
        try { if (bare) { scope.querySelector(bare); found.push(bare); } } catch (e) {}
      }
    }
  };
  for (let j = 0; j < sheets.length; j++) {
    let rules = null;
    try { rules = sheets[j].cssRules; } catch (e) { rules = null; }
    if (rules) scan(rules, 0);
  }
  const selector = found.length ? found.join(",") : null;
  hoverMemo.set(scope, { size, selector });
  return selector;
}
