// @ts-check
// actions/resolve.py, in browserx's isolated world of the element's frame, with a collector key:
// the element (__browserx.nodeOf), or null when it is gone or no longer of this page
// (__browserx.ours); 'no-ai' when it, an element around it (through shadow roots and same-origin
// frames) or its document opted out of AI agents (data-no-ai, read by page/no_ai_input.js): nothing of it is
// touched. It runs before every action.
import noAiInput from "../page/no_ai_input.js";
/** @type {BxSnippets["actions/resolve.js"]} */
export default function (key) {
  const B = globalThis.__browserx;
  const el = B && B.nodeOf(key);
  if (!el || !el.isConnected || !B.ours(el)) return null;
  return noAiInput(el) ? 'no-ai' : el;
}
