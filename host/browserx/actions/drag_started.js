// @ts-check
// drag (actions/drag.py), called on the dragged element after the first move with the button
// down: whether the page began an HTML5 drag it did not cancel (drag_arm.js listened for it).
// Its listener goes either way.
/** @type {BxSnippets["actions/drag_started.js"]} */
export default function () {
  const w = /** @type {Window} */ (this.ownerDocument.defaultView), rec = w.__bxDrag;
  if (!rec) return false;
  rec.off();
  delete w.__bxDrag;
  return !!rec.event && !rec.event.defaultPrevented;
}
