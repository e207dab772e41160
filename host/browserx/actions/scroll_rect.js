// @ts-check
// actions/scroll.py, called on the element: where its box is now, [left, top] in its viewport (to
// tell whether scrolling moved it).
/** @type {BxSnippets["actions/scroll_rect.js"]} */
export default function () {
  const r = this.getBoundingClientRect();
  return [r.left, r.top];
}
