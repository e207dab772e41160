// @ts-check
// The opt-out as an input meets it, imported by the snippets that aim an input at a
// node (resolve, the hit test of click_at): the node's own (page/no_ai.js), and that of
// the control a click on it would change — a <label>'s control: pressing "Remember me" toggles a
// checkbox that may have opted out while its label did not.
import noAi from "./no_ai.js";
/** @type {BxSnippets["page/no_ai_input.js"]} */
export default function (n) {
  if (noAi(n)) return true;
  const el = n && n.nodeType === 1 ? /** @type {Element} */ (n) : n && /** @type {Node} */ (n).parentElement;
  const label = el && el.closest ? /** @type {HTMLLabelElement | null} */ (el.closest("label")) : null;
  const control = label ? label.control : null;
  return !!control && noAi(control);
}
