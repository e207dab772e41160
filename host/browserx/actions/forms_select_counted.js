// @ts-check
// select (actions/forms.py), called on the element in the top document with the wanted option, in
// the round trip of its lookup (resolve's early call) or after it: the choice made (forms_select.js)
// and, when it was, the page's changes counted at once (page_changes_peek.js),
// without a settling turn: the value is the choice's effect, its handlers have run, and right after
// input a task's turn waits for the next frame; what the page does later is the next snapshot's to
// wait for. forms_select.js's answer, with settled (0 ms) and counted ([changes, URL]).
import peek from "./page_changes_peek.js";
import select from "./forms_select.js";
/** @type {BxSnippets["actions/forms_select_counted.js"]} */
export default function (want) {
  const out = select.call(this, want);
  if (!out.native || out.error) return out;
  return Object.assign(out, {settled: 0, counted: peek()});
}
