// @ts-check
// key Enter (actions/links.py), evaluated in browserx's world of the main frame: the link Enter would
// follow — the focused element (through open shadow roots and same-origin frames) or its link
// ancestor — as {href, download, page}; a form Enter would send, as its address with form: true;
// null when focus is on neither.
/** @type {BxSnippets["actions/links_focused.js"]} */
export default function () {
  let n = document.activeElement;
  try {
    for (;;) {
      const frame = /** @type {HTMLIFrameElement} */ (n); // any element: contentDocument is undefined but on a frame
      if (n && n.shadowRoot && n.shadowRoot.activeElement) n = n.shadowRoot.activeElement;
      else if (frame && frame.contentDocument && frame.contentDocument.activeElement) n = frame.contentDocument.activeElement;
      else break;
    }
  } catch (e) {}
  for (let x = /** @type {Node} */ (n); x; x = x.parentNode || /** @type {ShadowRoot} */ (x).host) {
    if (x.nodeType !== 1) continue;
    const n = /** @type {Element} */ (x);
    const name = n.localName;
    if ((name === 'a' || name === 'area') && (n.hasAttribute('href') || n.hasAttribute('xlink:href'))) {
      const raw = n.getAttribute('href') ?? n.getAttribute('xlink:href') ?? '';
      let href = raw;
      try { href = new URL(raw, n.ownerDocument.baseURI).href; } catch (e) {}
      return {href: href, download: n.hasAttribute('download'), page: n.ownerDocument.URL};
    }
  }
  // Not a link: Enter on a submit button, or in a one-line field of a form (implicit submission),
  // sends the form, to formaction or the form's action attribute (a field named "action" shadows
  // form.action), resolved as the browser does; with form: true. Not a form of method=dialog.
  const el = /** @type {any} */ (n);
  // The browser's states (HTMLInputElement.type, HTMLButtonElement.type): an unknown type is text, or submit.
  const type = el && el.localName === 'input' ? String(el.type || '').toLowerCase() : '';
  const submits = el && el.form && (
    (el.localName === 'button' && String(el.type).toLowerCase() === 'submit')
    || ['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'month', 'week', 'time',
        'datetime-local', 'submit', 'image'].includes(type));
  if (!submits) return null;
  const form = el.form, button = el.localName === 'button' || type === 'submit' || type === 'image' ? el : null;
  const method = ((button && button.getAttribute('formmethod')) || form.getAttribute('method') || '').toLowerCase();
  if (method === 'dialog') return null;
  const raw = (button && button.getAttribute('formaction')) ?? form.getAttribute('action') ?? '';
  let href = el.ownerDocument.URL;
  try { href = new URL(raw, el.ownerDocument.baseURI).href; } catch (e) {}
  return {href: href, download: false, page: el.ownerDocument.URL, form: true};
}
