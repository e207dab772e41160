// @ts-check
// select (actions/forms.py), called on the element with the wanted option. A native <select>: pick
// by exact label, then value, then case-insensitive label; fire the events a user's choice fires
// (input, change; bubbling) so frameworks notice. Anything else answers {native: false} (the host
// then treats it as an ARIA list).
/** @type {BxSnippets["actions/forms_select.js"]} */
export default function (want) {
  const el = /** @type {HTMLSelectElement} */ (this); // any element: told by its localName
  if (el.localName !== 'select') return {native: false};
  if (el.disabled) return {native: true, error: 'disabled'};
  // An option (or its optgroup) that opted out of AI agents (data-no-ai) is not there for the agent.
  const norm = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').trim(), opts = Array.from(el.options).filter(o => !o.closest('[data-no-ai]'));
  const o = opts.find(o => norm(o.label) === norm(want)) || opts.find(o => o.value === want) ||
    opts.find(o => norm(o.label).toLowerCase() === norm(want).toLowerCase());
  if (!o) return {native: true, error: 'missing', options: opts.slice(0, 30).map(o => norm(o.label))};
  if (o.disabled) return {native: true, error: 'option_disabled'};
  const before = el.selectedIndex;
  if (el.multiple) o.selected = true; else el.selectedIndex = o.index;
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  const attrs = /** @type {Record<string, string>} */ ({});  // what the list says it holds (the host's redaction.field_secret decides)
  for (const n of ['autocomplete', 'name', 'id', 'aria-label']) {
    const v = el.getAttribute(n); if (v) attrs[n] = v.slice(0, 200);
  }
  return {native: true, label: norm(o.label), value: o.value, changed: before !== el.selectedIndex, attrs};
}
