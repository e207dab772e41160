// @ts-check
// page/framework.py: the framework probe, in the page's MAIN world (framework props are
// expandos only that world sees). Installed once per document (marked by document.__bxProbe); every
// call answers how many elements the document has. On the event `browserx-scan` (dispatched by the
// collector from browserx's isolated world) it dispatches `browserx-clickable` at every element
// whose React props hold a click-like handler (at most `max` elements). With `answerDocument` it
// answers the document itself (a handle for the host) instead of the count.
/** @type {BxSnippets["page/framework_probe.js"]} */
export default function (max, answerDocument) {
  const d = document, count = d.getElementsByTagName("*").length;
  if (d.__bxProbe) return answerDocument ? d : count;
  Object.defineProperty(d, "__bxProbe", { value: true });
  const HANDLERS = ["onClick", "onClickCapture", "onMouseDown", "onMouseUp", "onPointerDown",
    "onPointerUp", "onDoubleClick", "onTouchStart", "onTouchEnd"];
  d.addEventListener("browserx-scan", (e) => {
    e.stopImmediatePropagation();
    let key = null, marked = 0;
    const roots = /** @type {(Document | ShadowRoot)[]} */ ([d]);
    while (roots.length && marked < max) {
      const all = /** @type {Document | ShadowRoot} */ (roots.pop()).querySelectorAll("*");
      for (let i = 0; i < all.length && marked < max; i++) {
        const el = all[i];
        if (el.shadowRoot) roots.push(el.shadowRoot);
        if (key === null) {
          const own = Object.keys(el);
          for (let j = 0; j < own.length; j++) {
            const k = own[j];
            if (k.startsWith("__reactProps$") || k.startsWith("__reactEventHandlers$")) { key = k; break; }
          }
          if (key === null) continue;
        }
        const props = /** @type {Record<string, Record<string, unknown> | undefined>} */ (/** @type {unknown} */ (el))[key];
        if (!props) continue;
        for (let h = 0; h < HANDLERS.length; h++) {
          if (typeof props[HANDLERS[h]] === "function") {
            el.dispatchEvent(new Event("browserx-clickable", { composed: true }));
            marked++;
            break;
          }
        }
      }
    }
  });
  return answerDocument ? d : count;
}
