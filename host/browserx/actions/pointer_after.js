// @ts-check
// actions/pointer.py (click_target), called on the target in the top document right after the
// mouse events: disarm the interceptor and say what it stopped (pointer_verdict.js, __VERDICT__);
// when nothing was stopped, let the page react (page_changes_settle.js, __SETTLE__) and count its
// changes so far (page_changes_peek.js, __PEEK__), in the same call:
// {bad, seen} or {bad: null, seen, settled: ms, counted: [changes, URL]}. Without settle, the
// changes are counted at once (a list opened to pick from: the host looks for the option itself).
function(settle = true) {
  const verdict = (__VERDICT__).call(this);
  if (verdict.bad) return verdict;
  if (!settle) return {bad: null, seen: verdict.seen, settled: 0, counted: (__PEEK__)};
  return (__SETTLE__).then((ms) => ({bad: null, seen: verdict.seen, settled: ms, counted: (__PEEK__)}));
}
