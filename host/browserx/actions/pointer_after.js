// @ts-check
// actions/pointer.py (click_target), called on the target in the top document right after the
// mouse events: disarm the interceptor and say what it stopped (pointer_verdict.js);
// when nothing was stopped, let the page react (page_changes_settle.js) and count its
// changes so far (page_changes_peek.js), in the same call:
// {bad, seen} or {bad: null, seen, settled: ms, counted: [changes, URL]}. Without settle, the
// changes are counted at once (a list opened to pick from: the host looks for the option itself).
import peek from "./page_changes_peek.js";
import settleChanges from "./page_changes_settle.js";
import verdictOf from "./pointer_verdict.js";
/** @type {BxSnippets["actions/pointer_after.js"]} */
export default function (settle = true) {
  const verdict = verdictOf.call(this);
  if (verdict.bad) return verdict;
  if (!settle) return {bad: null, seen: verdict.seen, settled: 0, counted: peek()};
  return settleChanges(false).then((ms) => ({bad: null, seen: verdict.seen, settled: ms, counted: peek()}));
}
