// @ts-check
// type_text with blur (actions/keyboard.py), called on the field typed into: focus leaves it (or
// what inside it holds focus), as when a person moves on; the page gets its change and blur events.
function() {
  const active = this.ownerDocument.activeElement;
  (active && this.contains(active) ? active : this).blur();
  return true;
}
