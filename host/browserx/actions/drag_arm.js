// @ts-check
// drag (actions/drag.py), called on the dragged element before the mouse is pressed: listens on
// its window for the page's dragstart, so after the first move the host knows whether an HTML5
// drag began (and the page did not cancel it) without waiting for an event that may never come.
/** @type {BxSnippets["actions/drag_arm.js"]} */
export default function () {
  const w = /** @type {Window} */ (this.ownerDocument.defaultView);
  /** @type {{event: Event | null, off: () => void}} */
  const rec = {event: null, off: () => {}};
  const onStart = (/** @type {Event} */ e) => { rec.event = e; };
  w.addEventListener('dragstart', onStart, {capture: true, once: true});
  rec.off = () => w.removeEventListener('dragstart', onStart, {capture: true});
  w.__bxDrag = rec;
  return true;
}
