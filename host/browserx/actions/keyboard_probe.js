// type and clear_field (actions/keyboard.py), called on the element with the text input types: what
// kind of text target it is (input, textarea, editable or null), and its value.
function(types) {
  const el = this, tag = el.localName;
  let kind = null, type = '';
  if (tag === 'input') { type = (el.getAttribute('type') || '').toLowerCase(); if (types.includes(type)) kind = 'input'; }
  else if (tag === 'textarea') kind = 'textarea';
  else if (el.isContentEditable) kind = 'editable';
  const value = kind === 'editable' ? el.innerText : kind ? el.value : null;
  const root = el.getRootNode();
  return {kind, tag, type, disabled: !!el.disabled || el.getAttribute('aria-disabled') === 'true',
          readonly: !!el.readOnly, value, focused: root.activeElement === el ||
          (kind === 'editable' && el.contains(root.activeElement))};
}
