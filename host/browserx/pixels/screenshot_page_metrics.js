// @ts-check
// pixels/screenshot.py, in the top document's main world: [viewport width, height, scroll x, y,
// document width, height].
/** @type {BxSnippets["pixels/screenshot_page_metrics.js"]} */
export default function () {
  return [innerWidth, innerHeight, scrollX, scrollY,
  document.documentElement.scrollWidth, document.documentElement.scrollHeight];
}
