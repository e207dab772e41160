// @ts-check
// control/person/sensitive.py, called in browserx's isolated world on the element an action targets
// (``this``; none for a key press without an ID: the focused element, through shadow roots and
// same-origin frames; none with a point (x, y): what is there, for click_at): whether the action
// would submit the element's form (a click on a submit button; Enter in a field, when ``enter``),
// what that form's fields say they hold (the host's redaction.field_secret reads them: a password
// or payment field), the page's host, and the control as it is now: its name (read as a person
// sees it: aria-label, the label, the text; never a field's value) and whether a click, Enter or
// Space on it acts (a button, link, checkbox, switch...). Reads no value.
/** @type {BxSnippets["control/person/sensitive_facts.js"]} */
export default function (enter, x, y) {
  const B = globalThis.__browserx;
  const rootOf = (/** @type {BxDuck} */ n) => n.shadowRoot || (B && B.closed && B.closed.get(n)) || null;  // closed ones the host handed in
  let el = this;
  if ((!el || el.nodeType !== 1) && typeof x === 'number' && typeof y === 'number') {
    el = document.elementFromPoint(x, y);
    for (let i = 0; el && rootOf(el) && i < 20; i++) {
      const inner = rootOf(el).elementFromPoint(x, y);
      if (!inner || inner === el) break;
      el = inner;
    }
  } else if (!el || el.nodeType !== 1) {
    el = document.activeElement;
    for (let i = 0; el && i < 50; i++) {
      const inner = rootOf(el) ? rootOf(el).activeElement
        : (el.localName === 'iframe' || el.localName === 'frame')
          ? (() => { try { return el.contentDocument && el.contentDocument.activeElement; } catch (e) { return null; } })()
        : null;
      if (!inner || inner === el) break;
      el = inner;
    }
  }
  const host = (() => { try { return (el && el.ownerDocument || document).location.hostname; } catch (e) { return ''; } })();
  if (!el || el.nodeType !== 1) return {submits: false, fields: [], host, name: '', activates: false};
  const ACTS = 'button, a[href], summary, input[type=button i], input[type=submit i], input[type=reset i], input[type=image i], '
    + 'input[type=checkbox i], input[type=radio i], [role=button], [role=link], [role=checkbox], [role=switch], '
    + '[role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=tab], [role=option], [role=radio]';
  const label = el.closest ? el.closest('label') : null;
  const control = (el.closest && el.closest(ACTS)) || (label && label.control) || el;
  const activates = !!(control.matches && control.matches(ACTS));
  const said = (/** @type {BxDuck} */ n) => {
    const byIds = (n.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean)
      .map((/** @type {string} */ id) => { const t = n.ownerDocument.getElementById(id); return t ? t.textContent || '' : ''; }).join(' ');
    const labels = n.labels ? Array.from(n.labels).map((l) => l.textContent || '').join(' ') : '';
    const own = n.localName === 'input' ? (['button', 'submit', 'reset'].includes(n.type) ? n.value : n.getAttribute('alt') || '')
      : n.localName === 'select' || n.localName === 'textarea' ? '' : n.textContent || '';
    return [n.getAttribute('aria-label') || '', byIds, labels, own, n.getAttribute('title') || ''].join(' ');
  };
  const name = said(control).replace(/\s+/g, ' ').trim().slice(0, 300);
  // A frame whose page this world cannot read (another site's: a checkout's "Pay"): the host asks.
  if (el.localName === 'iframe' || el.localName === 'frame') {
    let inner = null;
    try { inner = /** @type {HTMLIFrameElement} */ (el).contentDocument; } catch (e) {}
    if (!inner) return {submits: false, fields: [], host, name: '', activates: false, opaque: true};
  }
  // The browser's states, not the attributes: an unknown input type is text, an unknown button type submit.
  const tag = el.localName, type = tag === 'input' || tag === 'button' ? String(el.type || '').toLowerCase() : '';
  let form = null, submits = false;
  if (tag === 'button' || tag === 'input') form = el.form || null;
  if (!form && el.closest) form = el.closest('form');
  let maySubmit = false;  // a script button of the form: its handler may send it (form.submit())
  if (!enter) {
    const button = el.closest ? el.closest('button, input[type=submit i], input[type=image i], input[type=button i]') : null;
    if (button) {
      const bt = String(button.type || 'submit').toLowerCase();
      const isSubmit = button.localName === 'input' ? bt !== 'button' : !['button', 'reset', 'menu'].includes(bt);
      if (isSubmit && button.form) { form = button.form; submits = true; }
      else if (bt === 'button' && button.form) { form = button.form; maySubmit = true; }
    }
  } else if (tag === 'input' && form && !['button', 'checkbox', 'radio', 'reset', 'file', 'color', 'range', 'hidden'].includes(type)) {
    submits = true;  // implicit submission: Enter in a form's field
  } else if ((tag === 'button' || (tag === 'input' && ['submit', 'image'].includes(type))) && form) {
    submits = type !== 'button' && type !== 'reset';  // Enter on a focused submit button
  }
  const secrets = globalThis.__browserxSecret || (globalThis.__browserxSecret = new WeakSet());
  const fields = [];
  for (const f of form && (submits || maySubmit) ? Array.from(form.elements).slice(0, 300) : []) {
    if (!['input', 'select', 'textarea'].includes(f.localName)) continue;
    if (f.localName === 'input' && f.type === 'password') secrets.add(f);
    const attrs = /** @type {Record<string, string>} */ ({});
    for (const n of ['type', 'autocomplete', 'name', 'id', 'placeholder', 'aria-label']) {
      const v = f.getAttribute(n); if (v) attrs[n] = v.slice(0, 200);
    }
    const label = f.labels && f.labels[0] ? (f.labels[0].textContent || '').trim().slice(0, 200) : '';
    fields.push({attrs, inputType: f.localName === 'input' ? f.type : '', wasPassword: secrets.has(f), label});
  }
  return {submits, maySubmit, fields, host, name, activates};
}
