// @ts-check
// select (actions/forms.py), called on the element in the top document with the wanted option: the
// choice made (forms_select.js, __SELECT__) and, when it was, the page's reaction settled
// (page_changes_settle.js, __SETTLE__) and counted (page_changes_peek.js, __PEEK__) in the same
// call: forms_select.js's answer, with settled (ms) and counted ([changes, URL]).
function(want) {
  const out = (__SELECT__).call(this, want);
  if (!out.native || out.error) return out;
  return (__SETTLE__)(false).then((ms) => Object.assign(out, {settled: ms, counted: (__PEEK__)}));
}
