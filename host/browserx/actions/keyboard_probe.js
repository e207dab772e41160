// @ts-check
// type and clear_field (actions/keyboard.py), called on the element with the text input types: what
// kind of text target it is (input, textarea, editable or null), and its value. `types`: the input
// states that take text, as the browser names them (HTMLInputElement.type).
/** @type {BxSnippets["actions/keyboard_probe.js"]} */
export default function (types) {
  const el = this, tag = el.localName;
  let kind = null, type = '';
  // The type the browser gives it, not the attribute: an unknown or missing type is text.
  if (tag === 'input') { type = String(el.type || '').toLowerCase(); if (types.includes(type)) kind = 'input'; }
  else if (tag === 'textarea') kind = 'textarea';
  else if (el.isContentEditable) kind = 'editable';
  const value = kind === 'editable' ? el.innerText : kind ? el.value : null;
  const root = el.getRootNode();
  // A field seen as a password once stays one (the collector's memory: docs/PAGE_API.md), and
  // what the field says it holds: the host's redaction.field_secret decides what may be shown.
  const secrets = globalThis.__browserxSecret || (globalThis.__browserxSecret = new WeakSet());
  if (tag === 'input' && el.type === 'password') secrets.add(el);
  const attrs = /** @type {Record<string, string>} */ ({});
  for (const n of ['type', 'autocomplete', 'name', 'id', 'placeholder', 'aria-label']) {
    const v = el.getAttribute(n); if (v) attrs[n] = v.slice(0, 200);
  }
  return {kind, tag, type, attrs, wasPassword: secrets.has(el),
          disabled: !!el.disabled || el.getAttribute('aria-disabled') === 'true',
          readonly: !!el.readOnly, value, focused: root.activeElement === el ||
          (kind === 'editable' && el.contains(root.activeElement))};
}
