// @ts-check
// type_text with blur (actions/keyboard.py), called on the field typed into: focus leaves it (or
// what inside it holds focus), as when a person moves on; the page gets its change and blur events.
// Whether the focus is in it still (a page may take it back on blur).
/** @type {BxSnippets["actions/keyboard_blur.js"]} */
export default function () {
  const active = this.ownerDocument.activeElement;
  (active && this.contains(active) ? active : this).blur();
  const now = this.ownerDocument.activeElement;
  return !!now && this.contains(now);
}
