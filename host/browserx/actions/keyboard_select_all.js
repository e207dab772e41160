// @ts-check
// clear_field (actions/keyboard.py), called on a field whose value survived the keyboard's
// select-all and Backspace: all of its text selected through the DOM (Backspace follows).
/** @type {BxSnippets["actions/keyboard_select_all.js"]} */
export default function () {
  if (this.select) { this.select(); return true; }
  const sel = this.ownerDocument.getSelection(), range = this.ownerDocument.createRange();
  range.selectNodeContents(this); sel.removeAllRanges(); sel.addRange(range); return true;
}
