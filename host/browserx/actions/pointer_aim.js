// @ts-check
// actions/pointer.py (click_target), called on the target in the top document (or a same-origin
// frame of it): everything decided before the mouse events, in one call. Its visible part
// (pointer_visible_area.js); when not wholly in view, {scroll: true} and nothing else
// (the caller scrolls and measures the slow way). Else the point: the center of the largest
// visible part of its boxes (an inline element wrapping over lines has several), in the session's
// root viewport; the link a click there would follow (links_at_point.js); then the hit
// test and, when the point is the target's, the interceptor armed (pointer_guard.js):
// {area, point, link, cover} (cover null: armed).
import guard from "./pointer_guard.js";
import linkAtPoint from "./links_at_point.js";
import visibleArea from "./pointer_visible_area.js";
/** @type {BxSnippets["actions/pointer_aim.js"]} */
export default function () {
  const area = visibleArea.call(this);
  if (!area) return null;
  if (!area.whole) return {area: area, scroll: true};
  const rect = area.rect;
  let point = null;
  if (!area.inner) {
    let best = 0;
    for (const r of this.getClientRects()) {
      const x1 = Math.max(r.left, rect[0]), y1 = Math.max(r.top, rect[1]);
      const x2 = Math.min(r.right, rect[2]), y2 = Math.min(r.bottom, rect[3]);
      const a = (x2 - x1) * (y2 - y1);
      if (x2 > x1 && y2 > y1 && a >= 1 && a > best) { best = a; point = [(x1 + x2) / 2, (y1 + y2) / 2]; }
    }
  }
  if (!point) point = [(rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2];
  const link = linkAtPoint.call(this, point[0], point[1]);
  const cover = guard.call(this, point[0], point[1]);
  return {area: area, point: point, link: link, cover: cover};
}
