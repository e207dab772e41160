// @ts-check
// actions/navigation.py, in the page's own world (sent whole: it imports nothing): the document's
// readyState, asked until it is "complete".
/** @type {BxSnippets["actions/navigation_ready.js"]} */
export default function () {
  return document.readyState;
}
