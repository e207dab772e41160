// @ts-check
// pixels/screenshot.py, called on the element: its content box (its box without border and padding)
// as [left, top, right, bottom] in the viewport of its session's root frame (the top-level page, or
// an out-of-process iframe's own document), whether that root is the top-level page, and whether it
// is in a frame. On the way up through each frame (same-process ones walked here, out-of-process
// ones by the host), the box is cut to what that frame's viewport shows: pixels outside an iframe's
// box are the parent page's, not the element's.
/** @type {BxSnippets["pixels/screenshot_content_box.js"]} */
export default function () {
  const px = (/** @type {string} */ v) => parseFloat(v) || 0;
  let w = /** @type {Window} */ (this.ownerDocument.defaultView);
  const r = this.getBoundingClientRect(), cs = w.getComputedStyle(this);
  let box = [r.left + px(cs.borderLeftWidth) + px(cs.paddingLeft), r.top + px(cs.borderTopWidth) + px(cs.paddingTop),
    r.right - px(cs.borderRightWidth) - px(cs.paddingRight), r.bottom - px(cs.borderBottomWidth) - px(cs.paddingBottom)];
  let framed = false;
  while (w !== w.top) {
    framed = true;
    const de = w.document.documentElement;
    box = [Math.max(box[0], 0), Math.max(box[1], 0),
      Math.min(box[2], de.clientWidth || w.innerWidth), Math.min(box[3], de.clientHeight || w.innerHeight)];
    let fe = null;
    try { fe = w.frameElement; } catch (e) {}
    if (!fe) break;  // the root of an out-of-process frame: its owner is in another process
    const fr = fe.getBoundingClientRect(), fcs = /** @type {Window} */ (fe.ownerDocument.defaultView).getComputedStyle(fe);
    const dx = fr.left + fe.clientLeft + px(fcs.paddingLeft), dy = fr.top + fe.clientTop + px(fcs.paddingTop);
    box = [box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy];
    w = /** @type {Window} */ (fe.ownerDocument.defaultView);
  }
  return [box, w === w.top, framed];
}
