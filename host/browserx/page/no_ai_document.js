// @ts-check
// actions/network.py, in browserx's world of a frame: whether its document, or a frame around it
// of this process, opted out of AI agents (data-no-ai, read by no_ai.js).
import noAi from "./no_ai.js";
/** @type {BxSnippets["page/no_ai_document.js"]} */
export default function () {
  return noAi(document);
}
