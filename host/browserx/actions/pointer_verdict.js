// @ts-check
// actions/pointer.py, after the mouse events: disarm pointer_guard.js and say what it stopped
// ({bad: {desc, text}} when an event hit another element, else {bad: null, seen: n}).
/** @type {BxSnippets["actions/pointer_verdict.js"]} */
export default function () {
  const w = /** @type {Window} */ (this.ownerDocument.defaultView), g = w.__bxGuard;
  if (!g) return {bad: null, seen: -1};
  g.off(); w.__bxGuard = null;
  return {bad: g.bad, seen: g.seen};
}
