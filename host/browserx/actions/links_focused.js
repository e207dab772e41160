// @ts-check
// key Enter (actions/links.py), evaluated in browserx's world of the main frame: the link Enter would
// follow — the focused element (through open shadow roots and same-origin frames) or its link
// ancestor — as {href, download, page}; null when focus is on no link.
(() => {
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
  return null;
})()
