// @ts-check
// expect (actions/verify.py), called on the acted-on element: its value and states, as a person
// would see them change.
/** @type {BxSnippets["actions/verify_target_state.js"]} */
export default function () {
  const el = this, a = (/** @type {string} */ n) => el.getAttribute && el.getAttribute(n);
  const value = 'value' in el && typeof el.value === 'string' ? el.value
    : el.isContentEditable ? el.textContent : null;
  const state = /** @type {Record<string, unknown>} */ ({});
  if ('checked' in el && (el.type === 'checkbox' || el.type === 'radio')) state.checked = el.checked;
  if (el.indeterminate) state.mixed = true;
  if ('selected' in el && el.localName === 'option') state.selected = el.selected;
  if ('open' in el) state.open = !!el.open;
  if ('disabled' in el) state.disabled = !!el.disabled;
  for (const n of ['aria-checked', 'aria-pressed', 'aria-expanded', 'aria-selected', 'aria-disabled', 'aria-current']) {
    const v = a(n); if (v !== null && v !== undefined) state[n.slice(5)] = v;
  }
  if (el.localName === 'select') state.option = el.selectedIndex;
  return {value, state, password: el.type === 'password'};
}
