// @ts-check
// focus (actions/keyboard.py), called on the element: whether it (or, for an editable region,
// something inside it) has focus.
/** @type {BxSnippets["actions/keyboard_focus.js"]} */
export default function () {
  const r = this.getRootNode();
  return r.activeElement === this || this.contains(r.activeElement);
}
