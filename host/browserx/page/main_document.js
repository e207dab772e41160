// @ts-check
// page/listeners.py, in the page's own world (sent whole: it imports nothing): the document, as a
// handle the click listeners are listed through.
/** @type {BxSnippets["page/main_document.js"]} */
export default function () {
  return document;
}
