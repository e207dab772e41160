// @ts-check
// key without an ID (actions/focus_guard.py), in browserx's isolated world of a session's top
// document: where the keys would go — the focused element, through open shadow roots, closed ones
// the host handed in (__browserx.closed) and same-origin frames. Answers {optedOut} (read by
// page/no_ai.js), {frameOwner: key} when focus is in an out-of-process frame (the host asks there), or
// {closedHost: true} when focus is in a shadow root this world cannot see yet. With `blur`, focus
// found in an opted-out part is taken out of it (after a key moved it there: Tab). nowhere: no
// element of the document holds the focus (it may be on its way into an out-of-process frame).
import noAi from "../page/no_ai.js";
/** @type {BxSnippets["actions/focus_guard.js"]} */
export default function (blur) {
  const B = globalThis.__browserx;
  let a = document.activeElement;
  const out = () => { if (blur && document.activeElement) /** @type {HTMLElement} */ (document.activeElement).blur(); return {optedOut: true}; };
  for (let i = 0; a && i < 40; i++) {
    if (noAi(a)) return out();
    const root = a.shadowRoot || (B && B.closed && B.closed.get(a));
    if (root) { if (!root.activeElement) break; a = root.activeElement; continue; }
    if (a.localName === 'iframe' || a.localName === 'frame') {
      let doc = null;
      try { doc = /** @type {HTMLIFrameElement} */ (a).contentDocument; } catch (e) {}
      if (!doc) return {frameOwner: B && B.keyFor ? B.keyFor(a) : 0};
      a = doc.activeElement;
      continue;
    }
    // A custom element holding focus with no root this world knows: a closed one, maybe.
    if (a.localName.includes('-') && !a.matches('input,textarea,select,button,[contenteditable]')) return {closedHost: true};
    break;
  }
  return !!a && noAi(a) ? out() : {optedOut: false, nowhere: !a || a === document.body};
}
