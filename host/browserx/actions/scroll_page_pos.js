// @ts-check
// actions/scroll.py: the top-level page's scroll position.
/** @type {BxSnippets["actions/scroll_page_pos.js"]} */
export default function () {
  return [scrollX, scrollY];
}
