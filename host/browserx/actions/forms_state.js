// @ts-check
// check (actions/forms.py), called on the element: the checked state of a native or ARIA toggle;
// null when the element has none.
/** @type {BxSnippets["actions/forms_state.js"]} */
export default function () {
  // A label standing in for a hidden native toggle (custom checkboxes) answers with its control's.
  const el = this.localName === 'label' && this.control ? this.control : this;
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
    // Screen-reader-only (a pixel or less: MUI Rating's "Empty"): reached with the keyboard.
    const r = el.getBoundingClientRect();
    return {checked: el.checked, radio: el.type === 'radio', disabled: el.disabled,
            keyboard: el === this && (r.width <= 1 || r.height <= 1)};
  }
  for (const a of ['aria-checked', 'aria-pressed', 'aria-selected']) {
    const v = el.getAttribute(a);
    if (v !== null) return {checked: v === 'true', radio: el.getAttribute('role') === 'radio',
                            disabled: el.getAttribute('aria-disabled') === 'true'};
  }
  return null;
}
