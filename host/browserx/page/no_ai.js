// @ts-check
// The one page-side reading of the opt-out (data-no-ai), imported by every snippet
// that meets nodes on its own (collector.js as __browserx.optedOut, the page watch, resolve, hit
// tests, focus): whether a node is inside an element that says data-no-ai, through shadow roots
// (open and closed: a root's host is its parent here), slots and same-origin frames (a document's
// <iframe> in its parent), its own document's <html> and <body> included (<body> for any node of it:
// the point under the content hits <html>).
/** @type {BxSnippets["page/no_ai.js"]} */
export default function (n) {
  for (let d = 0; n && d < 32; d++) {
    for (; n; n = n.assignedSlot || n.parentNode || n.host) {
      if (n.nodeType === 1 && n.hasAttribute("data-no-ai")) return true;
      if (n.nodeType === 9) { if (n.body && n.body.hasAttribute("data-no-ai")) return true; break; }
    }
    try { n = n && n.defaultView && n.defaultView.frameElement; } catch (e) { n = null; }
  }
  return false;
}
