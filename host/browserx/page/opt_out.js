// @ts-check
// page/opt_out.py, evaluated in a document (the main world's, or an isolated world of a frame):
// whether it says data-no-ai (on <html> or <body>). Reads nothing else of the page.
/** @type {BxSnippets["page/opt_out.js"]} */
export default function () {
  const d = document;
  return !!(d.documentElement && d.documentElement.hasAttribute('data-no-ai') ||
    d.body && d.body.hasAttribute('data-no-ai'));
}
