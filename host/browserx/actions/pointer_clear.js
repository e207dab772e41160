// @ts-check
// actions/pointer.py, called on the target when a fixed or sticky box covers it (a sticky header, a
// fixed footer or toolbar: pointer_hit.js says `pinned`): the target scrolled to the middle of its
// scrollers, then their end, then their start, instantly, until the middle of what shows of it is
// clear (pointer_hit.js) — as a person scrolls a checkbox out from under a "Save" bar. Answers
// whether one was; a cover no scroll clears (a modal's backdrop) stays for the caller to report.
import hitAt from "./pointer_hit.js";
import visibleArea from "./pointer_visible_area.js";
/** @type {BxSnippets["actions/pointer_clear.js"]} */
export default function () {
  for (const block of /** @type {ScrollLogicalPosition[]} */ (['center', 'end', 'start'])) {
    this.scrollIntoView({block, inline: 'nearest', behavior: 'instant'});
    const area = visibleArea.call(this);
    if (!area) continue;
    const r = area.rect;
    if (!hitAt.call(this, (r[0] + r[2]) / 2, (r[1] + r[3]) / 2)) return true;
  }
  return false;
}
